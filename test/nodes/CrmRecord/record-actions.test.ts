// Record actions through the engine: Mass Update + Get Mass Update Status (state machine §8.3),
// Convert Lead, photo upload / download / delete, territory assignment (v2.1).
import { crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';
import { PNG, pairs } from './record-helpers';

describe('CRM Record › actions (v2.1)', () => {
	let crm: CrmFixture;
	beforeAll(async () => {
		// jobs advance only through the test hook here (1 h steps)
		crm = await crmFixture({ sandbox: { jobStepMs: 3_600_000 } });
	});
	afterAll(async () => await crm.close());

	const node = (parameters: Record<string, unknown>, extra = {}) =>
		crm.node('crmRecord', { resource: 'record', ...parameters }, extra);
	const record = async (module: string, id: string) =>
		(await crm.api('GET', `/crm/v2.1/${module}/${id}`)).body?.data?.[0];
	const advance = async (body: Record<string, unknown> = {}) =>
		await fetch(`${crm.url}/__sandbox/mass_update/advance`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(body),
		}).then(async (r) => await r.json());

	test('Mass Update by IDs runs at once; Get Mass Update Status shows COMPLETED with the counts', async () => {
		const ids = (await crm.api('GET', '/crm/v2.1/Accounts?per_page=3')).body.data.map(
			(a: any) => a.id,
		);
		const mass = node({
			operation: 'massUpdate',
			module: 'Accounts',
			massUpdateBy: 'ids',
			recordIds: ids.join(','),
			fieldsMode: 'pairs',
			fieldsUi: pairs({ Rating: 'Active' }),
		});
		const [out] = outputOf(await crm.run(mass), mass.name);
		expect(out.json).toMatchObject({
			status: 'success',
			job_id: expect.stringMatching(/^\d{19}$/),
		});
		for (const id of ids) expect((await record('Accounts', id)).Rating).toBe('Active');
		const status = node({
			operation: 'getMassUpdateStatus',
			module: 'Accounts',
			jobId: out.json.job_id,
		});
		expect(outputOf(await crm.run(status), status.name)[0].json).toEqual({
			Status: 'COMPLETED',
			Total_Count: 3,
			Updated_Count: 3,
			Not_Updated_Count: 0,
			Failed_Count: 0,
		});

		const tooMany = node({
			operation: 'massUpdate',
			module: 'Accounts',
			massUpdateBy: 'ids',
			recordIds: Array.from({ length: 501 }, (_, i) => String(4876876000000000000 + i)).join(','),
			fieldsMode: 'pairs',
			fieldsUi: pairs({ Rating: 'Active' }),
		});
		expect(errorOf(await crm.run(tooMany), tooMany.name)?.message).toContain('at most 500');
	});

	test('Mass Update of a custom view is a job: SCHEDULED → RUNNING → COMPLETED; a second one is ALREADY_SCHEDULED', async () => {
		crm.running.sandbox.store.putDoc('custom_views', '4876876000000090011', {
			id: '4876876000000090011',
			module: 'Contacts',
			criteria: { field: 'Lead_Source', comparator: 'equal', value: 'Trade Show' },
		});
		const targets = (await crm.listAll('/crm/v2.1/Contacts?fields=Lead_Source')).filter(
			(r) => r.Lead_Source === 'Trade Show',
		);
		expect(targets.length).toBeGreaterThan(1);
		const mass = node({
			operation: 'massUpdate',
			module: 'Contacts',
			massUpdateBy: 'cvid',
			cvid: '4876876000000090011',
			fieldsMode: 'json',
			recordJson: '{"Department": "Events"}',
		});
		const [out] = outputOf(await crm.run(mass), mass.name);
		expect(out.json.message).toBe('Mass update scheduled successfully');
		expect(
			(await crm.requests())
				.filter((r) => r.url === '/crm/v2.1/Contacts/actions/mass_update' && r.method === 'POST')
				.at(-1)?.status,
		).toBe(202);
		const status = node({
			operation: 'getMassUpdateStatus',
			module: 'Contacts',
			jobId: out.json.job_id,
		});
		const read = async () => outputOf(await crm.run(status), status.name)[0].json;
		expect(await read()).toMatchObject({
			Status: 'SCHEDULED',
			Total_Count: targets.length,
			Updated_Count: 0,
		});

		const again = node({ ...mass.parameters });
		expect(errorOf(await crm.run(again), again.name)?.message).toContain('ALREADY_SCHEDULED');

		await advance({ job_id: out.json.job_id });
		const running = await read();
		expect(running.Status).toBe('RUNNING');
		expect(running.Updated_Count).toBeGreaterThan(0);
		expect(running.Updated_Count).toBeLessThan(targets.length);
		await advance({ job_id: out.json.job_id });
		expect(await read()).toMatchObject({
			Status: 'COMPLETED',
			Updated_Count: targets.length,
			Failed_Count: 0,
		});
		for (const t of targets) expect((await record('Contacts', t.id)).Department).toBe('Events');
	});

	test('a mass-update job forced to fail ends FAILED with the rest counted as failed', async () => {
		const territoryLeads = (await crm.api('GET', '/crm/v2.1/Leads?per_page=4')).body.data.map(
			(l: any) => l.id,
		);
		await crm.api('POST', '/crm/v2.1/Leads/actions/assign_territories', {
			data: territoryLeads.map((id: string) => ({
				id,
				Territories: [{ id: '4876876000000361005' }],
			})),
		});
		const mass = node({
			operation: 'massUpdate',
			module: 'Leads',
			massUpdateBy: 'territory',
			territoryId: '4876876000000361005',
			includeChild: true,
			fieldsMode: 'pairs',
			fieldsUi: pairs({ Rating: 'Shut Down' }),
		});
		const [out] = outputOf(await crm.run(mass), mass.name);
		await advance({ job_id: out.json.job_id });
		await advance({ job_id: out.json.job_id, fail: true });
		const status = node({
			operation: 'getMassUpdateStatus',
			module: 'Leads',
			jobId: out.json.job_id,
		});
		const final = outputOf(await crm.run(status), status.name)[0].json as any;
		expect(final.Status).toBe('FAILED');
		expect(final.Total_Count).toBe(4);
		expect(final.Updated_Count + final.Not_Updated_Count + final.Failed_Count).toBe(4);
		expect(final.Failed_Count).toBeGreaterThan(0);
	});

	test('Convert Lead: contact, account and deal, tags carried over, assign_to, notifications; again: ID_ALREADY_CONVERTED; updates: CONVERTED_RECORD', async () => {
		const users = (await crm.api('GET', '/crm/v2.1/users?type=AllUsers')).body.users;
		const created = await crm.api('POST', '/crm/v2.1/Leads', {
			data: [
				{
					Last_Name: 'Convertible',
					First_Name: 'Cora',
					Email: 'cora.convertible@example.com',
					Company: 'Convert Co',
				},
			],
		});
		const leadId = created.body.data[0].details.id;
		const stored = crm.running.sandbox.store.getRecord('Leads', leadId)!;
		crm.running.sandbox.store.replaceRecord(
			'Leads',
			{ ...stored, Tag: [{ name: 'vip', id: '4876876000000800001' }, { name: 'cold' }] },
			Date.now(),
			{},
			{ silent: true },
		);

		const convert = node({
			operation: 'convertLead',
			recordId: leadId,
			createDeal: true,
			dealName: 'Cora deal',
			dealStage: 'Qualification',
			dealClosingDate: '2025-03-31T00:00:00.000Z',
			dealAmount: 5000,
			dealJson: '{"Lead_Source": "Web"}',
			options: {
				notify_lead_owner: true,
				notify_new_entity_owner: true,
				assign_to: users[1].id,
				carryOverTags: { tags: { Contacts: 'vip', Deals: 'vip, cold' } },
			},
		});
		const [out] = outputOf(await crm.run(convert), convert.name);
		expect(out.json).toEqual({
			Contacts: expect.stringMatching(/^\d+$/),
			Accounts: expect.stringMatching(/^\d+$/),
			Deals: expect.stringMatching(/^\d+$/),
		});
		const contact = await record('Contacts', out.json.Contacts as string);
		expect(contact).toMatchObject({
			Last_Name: 'Convertible',
			Email: 'cora.convertible@example.com',
			Owner: { id: users[1].id },
			Account_Name: { id: out.json.Accounts },
		});
		expect(contact.Tag.map((t: any) => t.name)).toEqual(['vip']);
		expect((await record('Accounts', out.json.Accounts as string)).Account_Name).toBe('Convert Co');
		const deal = await record('Deals', out.json.Deals as string);
		expect(deal).toMatchObject({
			Deal_Name: 'Cora deal',
			Closing_Date: '2025-03-31',
			Amount: 5000,
			Lead_Source: 'Web',
			Contact_Name: { id: out.json.Contacts },
		});
		expect(deal.Tag.map((t: any) => t.name).sort()).toEqual(['cold', 'vip']);
		const notes = (await crm.hook('GET', `/records/convert_notifications?lead_id=${leadId}`)).body
			.notifications as any[];
		expect(notes.map((n) => n.kind).sort()).toEqual(['lead_owner', 'new_entity_owner']);
		// the lead is listed among the converted ones only
		expect(
			(
				await crm.api('GET', `/crm/v2.1/Leads?ids=${leadId}&fields=Last_Name&converted=true`)
			).body.data.map((r: any) => r.id),
		).toEqual([leadId]);
		expect((await crm.api('GET', `/crm/v2.1/Leads?ids=${leadId}&fields=Last_Name`)).status).toBe(
			204,
		);

		const again = node({ operation: 'convertLead', recordId: leadId });
		expect(errorOf(await crm.run(again), again.name)?.message).toContain('ID_ALREADY_CONVERTED');
		const update = node({
			operation: 'update',
			module: 'Leads',
			fieldsMode: 'pairs',
			updateBy: 'id',
			recordId: leadId,
			fieldsUi: pairs({ City: 'Nope' }),
		});
		const error = errorOf(await crm.run(update), update.name);
		expect(error?.message).toContain('CONVERTED_RECORD');
		expect(error?.message).toBe(
			'The lead has already been converted and cannot be changed [CONVERTED_RECORD]',
		);
	});

	test('Convert Lead into an existing account and contact with overwrite', async () => {
		const acc = (
			await crm.api('POST', '/crm/v2.1/Accounts', { data: [{ Account_Name: 'Existing Holdings' }] })
		).body.data[0].details.id;
		const con = (
			await crm.api('POST', '/crm/v2.1/Contacts', {
				data: [{ Last_Name: 'Old', Account_Name: { id: acc } }],
			})
		).body.data[0].details.id;
		const lead = (
			await crm.api('POST', '/crm/v2.1/Leads', {
				data: [{ Last_Name: 'Newer', Phone: '555-0101', Company: 'Whatever' }],
			})
		).body.data[0].details.id;
		const convert = node({
			operation: 'convertLead',
			recordId: lead,
			options: { Accounts: acc, Contacts: con, overwrite: true },
		});
		const [out] = outputOf(await crm.run(convert), convert.name);
		expect(out.json).toEqual({ Contacts: con, Accounts: acc, Deals: null });
		expect(await record('Contacts', con)).toMatchObject({ Last_Name: 'Newer', Phone: '555-0101' });
		expect((await record('Accounts', acc)).Phone).toBe('555-0101');
	});

	test('Photo: upload from an input binary, download as a binary with its file name, delete', async () => {
		const contactId = (await crm.api('GET', '/crm/v2.1/Contacts?per_page=1')).body.data[0].id;
		const upload = node({
			operation: 'uploadPhoto',
			module: 'Contacts',
			recordId: contactId,
			binaryPropertyName: 'picture',
		});
		const [up] = outputOf(
			await crm.run(upload, [
				{
					json: {},
					binary: {
						picture: {
							data: PNG.toString('base64'),
							mimeType: 'image/png',
							fileName: 'face photo.png',
						},
					},
				},
			]),
			upload.name,
		);
		expect(up.json).toMatchObject({ code: 'SUCCESS', message: 'photo uploaded successfully' });
		const stored = await crm.download(`/crm/v2.1/Contacts/${contactId}/photo`);
		expect(stored.status).toBe(200);
		expect(stored.headers.get('content-type')).toBe('image/png');
		expect(stored.headers.get('content-disposition')).toContain('filename="face photo.png"');
		expect(stored.bytes.equals(PNG)).toBe(true);

		const download = node({
			operation: 'downloadPhoto',
			module: 'Contacts',
			recordId: contactId,
			binaryPropertyName: 'photo',
		});
		const [down] = outputOf(await crm.run(download), download.name);
		expect(down.json).toMatchObject({
			id: contactId,
			hasPhoto: true,
			fileName: 'face photo.png',
			mimeType: 'image/png',
		});
		expect(down.binary?.photo).toMatchObject({ fileName: 'face photo.png', mimeType: 'image/png' });
		expect(Buffer.from(down.binary!.photo.data, 'base64').equals(PNG)).toBe(true);

		const text = node({
			operation: 'uploadPhoto',
			module: 'Contacts',
			recordId: contactId,
			binaryPropertyName: 'data',
		});
		const bad = errorOf(
			await crm.run(text, [
				{
					json: {},
					binary: {
						data: {
							data: Buffer.from('hello').toString('base64'),
							mimeType: 'text/plain',
							fileName: 'a.txt',
						},
					},
				},
			]),
			text.name,
		);
		expect(bad?.message).toContain('INVALID_DATA');

		const del = node({ operation: 'deletePhoto', module: 'Contacts', recordId: contactId });
		expect(outputOf(await crm.run(del), del.name)[0].json).toMatchObject({
			message: 'Photo deleted',
		});
		expect((await crm.download(`/crm/v2.1/Contacts/${contactId}/photo`)).status).toBe(204);
		const none = outputOf(await crm.run(download), download.name);
		expect(none[0].json).toEqual({ id: contactId, hasPhoto: false });
	});

	test('Assign and remove territories: one record to its own URL, several in one request', async () => {
		const ids = (await crm.api('GET', '/crm/v2.1/Deals?per_page=3')).body.data.map(
			(d: any) => d.id,
		);
		await crm.clearRequests();
		const assign = node({
			operation: 'assignTerritories',
			module: 'Deals',
			recordId: '={{ $json.id }}',
			territoryIds: '4876876000000361003,4876876000000361005',
		});
		const out = outputOf(
			await crm.run(
				assign,
				ids.map((id: string) => ({ json: { id } })),
			),
			assign.name,
		);
		expect(out.map((o) => o.json.message)).toEqual(Array(3).fill('territory assignment updated'));
		expect(
			(await crm.requests()).filter((r) => r.url === '/crm/v2.1/Deals/actions/assign_territories'),
		).toHaveLength(1);
		for (const id of ids)
			expect((await record('Deals', id)).Territories.map((t: any) => t.id)).toEqual([
				'4876876000000361003',
				'4876876000000361005',
			]);

		const remove = node({
			operation: 'removeTerritories',
			module: 'Deals',
			recordId: ids[0],
			territoryIds: '4876876000000361003',
		});
		outputOf(await crm.run(remove), remove.name);
		expect(
			(await crm.requests()).some(
				(r) => r.url === `/crm/v2.1/Deals/${ids[0]}/actions/remove_territories`,
			),
		).toBe(true);
		expect((await record('Deals', ids[0])).Territories.map((t: any) => t.id)).toEqual([
			'4876876000000361005',
		]);

		const unknown = node({
			operation: 'assignTerritories',
			module: 'Deals',
			recordId: ids[0],
			territoryIds: '4876876000000369999',
		});
		expect(errorOf(await crm.run(unknown), unknown.name)?.message).toContain('INVALID_DATA');
	});
});
