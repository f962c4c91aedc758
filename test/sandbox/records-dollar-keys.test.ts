// Contract tests: record keys starting with `$` are the service's own (interface spec "Record",
// docs/protocol.md §5.1): a client writing them through insert, update, upsert or mass update never
// changes them; the service's values stay.
import { useContractFixture } from '../harness/contract.ts';

const sb = useContractFixture({ scope: 'CRM.modules.ALL,CRM.settings.ALL,CRM.mass_update.ALL' });
const { call } = sb;

const SERVICE_KEYS = {
	$converted: true,
	$approved: false,
	$editable: false,
	$state: 'draft',
	$process_flow: true,
};

async function lead(id: string): Promise<any> {
	const res = await call('GET', `/crm/v2.1/Leads/${id}`);
	expect(res.status).toBe(200);
	return res.body.data[0];
}

/** The lead is still an ordinary, unconverted lead: listed by default, updatable, convertible. */
async function expectServiceValues(id: string): Promise<void> {
	const record = await lead(id);
	for (const key of Object.keys(SERVICE_KEYS)) expect(record[key]).toBeUndefined();
	const listed = await call('GET', '/crm/v2.1/Leads', { query: { ids: id } });
	expect(listed.body.data.map((r: any) => r.id)).toEqual([id]);
	const converted = await call('GET', '/crm/v2.1/Leads', { query: { ids: id, converted: 'true' } });
	expect(converted.status).toBe(204);
	const update = await call('PUT', `/crm/v2.1/Leads/${id}`, {
		body: { data: [{ Rating: 'Active' }] },
	});
	expect(update.body.data[0].code).toBe('SUCCESS');
}

describe('`$` keys of records are never stored from a client', () => {
	it('insert', async () => {
		const res = await call('POST', '/crm/v2.1/Leads', {
			body: { data: [{ Last_Name: 'Dollar insert', ...SERVICE_KEYS }] },
		});
		expect(res.status).toBe(201);
		await expectServiceValues(res.body.data[0].details.id);
	});

	it('update (batch and by id)', async () => {
		const id = (
			await call('POST', '/crm/v2.1/Leads', { body: { data: [{ Last_Name: 'Dollar update' }] } })
		).body.data[0].details.id;
		const batch = await call('PUT', '/crm/v2.1/Leads', {
			body: { data: [{ id, First_Name: 'Batch', ...SERVICE_KEYS }] },
		});
		expect(batch.body.data[0].code).toBe('SUCCESS');
		const one = await call('PUT', `/crm/v2.1/Leads/${id}`, {
			body: { data: [{ First_Name: 'One', ...SERVICE_KEYS }] },
		});
		expect(one.body.data[0].code).toBe('SUCCESS');
		expect((await lead(id)).First_Name).toBe('One');
		await expectServiceValues(id);
	});

	it('upsert (insert and update paths)', async () => {
		const email = `dollar.upsert.${Date.now()}@example.com`;
		const inserted = await call('POST', '/crm/v2.1/Leads/upsert', {
			body: { data: [{ Last_Name: 'Dollar upsert', Email: email, ...SERVICE_KEYS }] },
		});
		expect(inserted.body.data[0]).toMatchObject({ code: 'SUCCESS', action: 'insert' });
		const id = inserted.body.data[0].details.id;
		const updated = await call('POST', '/crm/v2.1/Leads/upsert', {
			body: { data: [{ Last_Name: 'Dollar upsert 2', Email: email, ...SERVICE_KEYS }] },
		});
		expect(updated.body.data[0]).toMatchObject({
			code: 'SUCCESS',
			action: 'update',
			details: { id },
		});
		await expectServiceValues(id);
	});

	it('mass update', async () => {
		const id = (
			await call('POST', '/crm/v2.1/Leads', { body: { data: [{ Last_Name: 'Dollar mass' }] } })
		).body.data[0].details.id;
		const res = await call('POST', '/crm/v2.1/Leads/actions/mass_update', {
			body: { data: [{ Lead_Status: 'Contacted', ...SERVICE_KEYS }], ids: [id] },
		});
		expect(res.status).toBe(200);
		expect((await lead(id)).Lead_Status).toBe('Contacted');
		await expectServiceValues(id);
	});

	it('a converted lead stays converted whatever a client writes', async () => {
		const id = (
			await call('POST', '/crm/v2.1/Leads', {
				body: { data: [{ Last_Name: 'Dollar converted', Company: 'Dollar Co' }] },
			})
		).body.data[0].details.id;
		expect(
			(await call('POST', `/crm/v2.1/Leads/${id}/actions/convert`, { body: { data: [{}] } }))
				.status,
		).toBe(200);
		const res = await call('PUT', `/crm/v2.1/Leads/${id}`, {
			body: { data: [{ $converted: false }] },
		});
		expect(res.body.data[0].code).toBe('CONVERTED_RECORD');
		expect((await lead(id)).$converted).toBe(true);
		expect((await call('GET', '/crm/v2.1/Leads', { query: { ids: id } })).status).toBe(204);
	});

	it('notes keep their client-given parent module ($se_module)', async () => {
		const id = (
			await call('POST', '/crm/v2.1/Leads', {
				body: { data: [{ Last_Name: 'Dollar note parent' }] },
			})
		).body.data[0].details.id;
		const note = await call('POST', '/crm/v2.1/Notes', {
			body: { data: [{ Note_Content: 'hello', Parent_Id: { id }, $se_module: 'Leads' }] },
		});
		expect(note.status).toBe(201);
		const listed = await call('GET', `/crm/v2.1/Leads/${id}/Notes`);
		expect(listed.body.data[0]).toMatchObject({ Note_Content: 'hello', $se_module: 'Leads' });
	});
});
