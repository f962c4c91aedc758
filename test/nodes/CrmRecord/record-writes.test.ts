// Record writes through the engine: Create / Update / Upsert / Delete / Delete Many, batching of
// 100 per request with per-item outcomes, the three fields modes, write options, validation.
import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';
import { mapper, pairs } from './record-helpers';

describe('CRM Record › writes (v2.1)', () => {
	const crm = useCrmFixture();

	const requestsTo = async (method: string, prefix: string) =>
		(await crm.requests()).filter((r) => r.method === method && r.url.split('?')[0] === prefix);
	/** what the sandbox logged of the record writes: options sent and what fired (GET /__sandbox/records/writes) */
	const writeLog = async (): Promise<any[]> =>
		(await crm.hook('GET', '/records/writes')).body.writes;
	const record = async (module: string, id: string) =>
		(await crm.api('GET', `/crm/v2.1/${module}/${id}`)).body?.data?.[0];

	test('Create with 250 items: 3 requests, 250 outputs in input order, one invalid record fails alone', async () => {
		await crm.clearRequests();
		const input = Array.from({ length: 250 }, (_, i) => ({
			json: {
				last: `Batch ${String(i).padStart(3, '0')}`,
				email: i === 137 ? 'not-an-email' : `batch.${i}@example.com`,
			},
		}));
		const create = crm.node(
			'crmRecord',
			{
				resource: 'record',
				operation: 'create',
				module: 'Leads',
				fieldsMode: 'pairs',
				fieldsUi: pairs({ Last_Name: '={{ $json.last }}', Email: '={{ $json.email }}' }),
			},
			{ onError: 'continueRegularOutput' },
		);
		const out = outputOf(await crm.run(create, input), create.name);
		expect(await requestsTo('POST', '/crm/v2.1/Leads')).toHaveLength(3);
		expect(out).toHaveLength(250);
		expect(out.map((o) => o.pairedItem)).toEqual(input.map((_, i) => ({ item: i })));
		expect(out[137].json.error).toContain('INVALID_DATA');
		expect(out[137].json.details).toMatchObject({
			code: 'INVALID_DATA',
			details: { api_name: 'Email' },
		});
		const ok = out.filter((o) => o.json.status === 'success');
		expect(ok).toHaveLength(249);
		// every output pairs with its own input: spot-check across the three chunks
		for (const i of [0, 99, 100, 136, 138, 199, 200, 249]) {
			const stored = await record('Leads', out[i].json.id as string);
			expect(stored.Last_Name).toBe(`Batch ${String(i).padStart(3, '0')}`);
		}
	});

	test('Create through the mapper sends typed values (number, boolean, picklist, multi-select, date, datetime, lookup, owner)', async () => {
		const accounts = (await crm.api('GET', '/crm/v2.1/Accounts?per_page=1')).body.data;
		const users = (await crm.api('GET', '/crm/v2.1/users?type=AllUsers')).body.users;
		const create = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Contacts',
			fieldsMode: 'mapper',
			columns: mapper(
				{
					Last_Name: 'Mapper',
					First_Name: 'Maya',
					Email: 'maya.mapper@example.com',
					Email_Opt_Out: 'true',
					Lead_Source: 'Web',
					Date_of_Birth: '1990-04-05T00:00:00.000Z',
					Account_Name: accounts[0].id,
					Owner: users[1].id,
				},
				[
					{ id: 'Last_Name', type: 'string', required: true },
					{ id: 'Email_Opt_Out', type: 'boolean' },
					{ id: 'Lead_Source', type: 'options', options: [{ name: 'Web', value: 'Web' }] },
					{ id: 'Date_of_Birth', type: 'dateTime' },
				],
			),
		});
		const [out] = outputOf(await crm.run(create), create.name);
		expect(out.json).toMatchObject({ status: 'success', action: 'insert' });
		const stored = await record('Contacts', out.json.id as string);
		expect(stored).toMatchObject({
			Last_Name: 'Mapper',
			Email_Opt_Out: true,
			Lead_Source: 'Web',
			Date_of_Birth: '1990-04-05',
			Account_Name: { id: accounts[0].id },
			Owner: { id: users[1].id },
		});

		const project = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Projects',
			fieldsMode: 'mapper',
			columns: mapper(
				{
					Name: 'Typed',
					Budget: '1234.5',
					Deadline_Time: '2024-07-25T09:56:49.123+02:00',
					Is_Billable: true,
					Status: 'Active',
				},
				[
					{ id: 'Budget', type: 'number' },
					{ id: 'Deadline_Time', type: 'dateTime' },
					{ id: 'Is_Billable', type: 'boolean' },
				],
			),
		});
		const [p] = outputOf(await crm.run(project), project.name);
		const storedProject = await record('Projects', p.json.id as string);
		expect(storedProject).toMatchObject({
			Name: 'Typed',
			Budget: 1234.5,
			Is_Billable: true,
			Status: 'Active',
		});
		// luxon formatted the DateTime to the contract's form; the sandbox stores it in UTC
		expect(storedProject.Deadline_Time).toBe('2024-07-25T07:56:49+00:00');

		// a value outside the picklist is refused before sending, naming the field
		const bad = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'mapper',
			columns: mapper({ Last_Name: 'Bad', Lead_Source: 'Carrier Pigeon' }),
		});
		const error = errorOf(await crm.run(bad), bad.name);
		expect(error?.message).toContain('Lead_Source');

		// so is a multi-select value outside its list (the service would refuse the whole record)
		await crm.clearRequests();
		const badList = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'mapper',
			columns: mapper({ Last_Name: 'Bad list', Interests: 'CRM, Gardening' }),
		});
		const listError = errorOf(await crm.run(badList), badList.name);
		expect(listError?.message).toContain('Interests');
		expect(listError?.message).toContain('"Gardening" is not one');
		expect(
			(await crm.requests()).filter(
				(r) => r.method === 'POST' && r.url.startsWith('/crm/v2.1/Leads'),
			),
		).toHaveLength(0);
	});

	test('Create through the mapper: line items (Product_Details) given as JSON text are sent as a list', async () => {
		const product = (await crm.api('GET', '/crm/v2.1/Products?per_page=1')).body.data[0];
		const create = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Quotes',
			fieldsMode: 'mapper',
			columns: mapper({ Subject: '={{ $json.subject }}', Product_Details: '={{ $json.lines }}' }, [
				{ id: 'Product_Details', type: 'array' },
			]),
		});
		const lines = JSON.stringify([{ product: { id: product.id }, quantity: 3 }]);
		const out = outputOf(
			await crm.run(create, [{ json: { subject: 'Mapped quote', lines } }]),
			create.name,
		);
		expect(out[0].json.status).toBe('success');
		const quote = await record('Quotes', out[0].json.id as string);
		expect(quote.Product_Details).toEqual([
			expect.objectContaining({
				product: expect.objectContaining({ id: product.id }),
				quantity: 3,
			}),
		]);
		// text that is no list is refused before sending, naming the field
		await crm.clearRequests();
		expect(
			errorOf(
				await crm.run(create, [{ json: { subject: 'Bad lines', lines: 'three boxes' } }]),
				create.name,
			)?.message,
		).toContain('Product_Details');
		expect(
			(await crm.requests()).filter(
				(r) => r.method === 'POST' && r.url.startsWith('/crm/v2.1/Quotes'),
			),
		).toHaveLength(0);
	});

	test('Create in JSON mode sends the record as given, with trigger, process and lar_id', async () => {
		const create = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'json',
			recordJson: '={{ JSON.stringify({ Last_Name: $json.name, Interests: ["CRM", "ERP"] }) }}',
			options: { trigger: ['workflow'], process: 'review_process', lar_id: '4876876000000400001' },
		});
		const [out] = outputOf(await crm.run(create, [{ json: { name: 'Json Mode' } }]), create.name);
		const stored = await record('Leads', out.json.id as string);
		expect(stored).toMatchObject({ Last_Name: 'Json Mode', Interests: ['CRM', 'ERP'] });
		const log = (await writeLog()).find((w) => w.ids.includes(out.json.id));
		expect(log).toMatchObject({
			operation: 'create',
			trigger: ['workflow'],
			fired: ['workflow'],
			process: ['review_process'],
			lar_id: '4876876000000400001',
		});

		// an empty Triggers option sends [] (nothing fires); without it everything fires
		const none = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'json',
			recordJson: '{"Last_Name": "No Triggers"}',
			options: { trigger: [] },
		});
		const [n] = outputOf(await crm.run(none), none.name);
		const noneLog = (await writeLog()).find((w) => w.ids.includes(n.json.id));
		expect(noneLog.fired).toEqual([]);

		const badLar = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'json',
			recordJson: '{"Last_Name": "X"}',
			options: { lar_id: 'rule-1' },
		});
		expect(errorOf(await crm.run(badLar), badLar.name)?.message).toContain(
			'Lead Assignment Rule ID',
		);
	});

	test("Create: the module's fields are read once, for the first item; an item that fails to build stops the run before any write", async () => {
		const params = {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'pairs',
			fieldsUi: { field: [{ name: '={{ $json.field }}', value: '={{ $json.value }}' }] },
		};
		const input = [
			{ json: { field: 'Last_Name', value: 'Built First' } },
			{ json: { field: 'No_Such_Field', value: 'x' } },
			{ json: { field: 'Last_Name', value: 'Built Third' } },
		];
		const fieldsRead = 'GET /crm/v2.1/settings/fields?module=Leads';
		const calls = async () => (await crm.requests()).map((r) => `${r.method} ${r.url}`);

		await crm.clearRequests();
		const stop = crm.node('crmRecord', params);
		const error = errorOf(await crm.run(stop, input), stop.name);
		expect(error?.message).toContain('Unknown field "No_Such_Field" in module Leads');
		expect(error?.context?.itemIndex).toBe(1);
		expect(await calls()).toEqual([fieldsRead]);

		await crm.clearRequests();
		const go = crm.node('crmRecord', params, { onError: 'continueRegularOutput' });
		const out = outputOf(await crm.run(go, input), go.name);
		expect(await calls()).toEqual([fieldsRead, 'POST /crm/v2.1/Leads']);
		expect(out.map((o) => o.json.status ?? o.json.error)).toEqual([
			'success',
			'Unknown field "No_Such_Field" in module Leads',
			'success',
		]);
		expect((await record('Leads', out[2].json.id as string))?.Last_Name).toBe('Built Third');
	});

	test('Update by ID: many items go in one UpdateRecords request, one item to its own URL (UpdateRecord)', async () => {
		const leads = (await crm.api('GET', '/crm/v2.1/Leads?per_page=3')).body.data;
		await crm.clearRequests();
		const update = crm.node('crmRecord', {
			resource: 'record',
			operation: 'update',
			module: 'Leads',
			fieldsMode: 'pairs',
			updateBy: 'id',
			recordId: '={{ $json.id }}',
			fieldsUi: pairs({ Company: '={{ "Updated " + $json.n }}', No_of_Employees: '7' }),
		});
		const out = outputOf(
			await crm.run(
				update,
				leads.map((l: any, n: number) => ({ json: { id: l.id, n } })),
			),
			update.name,
		);
		expect(out.map((o) => o.json.id)).toEqual(leads.map((l: any) => l.id));
		expect(await requestsTo('PUT', '/crm/v2.1/Leads')).toHaveLength(1);
		for (const [n, l] of leads.entries())
			expect(await record('Leads', l.id)).toMatchObject({
				Company: `Updated ${n}`,
				No_of_Employees: 7,
			});

		await crm.clearRequests();
		const [single] = outputOf(
			await crm.run(update, [{ json: { id: leads[0].id, n: 'one' } }]),
			update.name,
		);
		expect(single.json).toMatchObject({ id: leads[0].id, action: 'update' });
		expect(await requestsTo('PUT', `/crm/v2.1/Leads/${leads[0].id}`)).toHaveLength(1);
		expect((await record('Leads', leads[0].id)).Company).toBe('Updated one');

		const badId = crm.node('crmRecord', { ...update.parameters, recordId: 'abc' });
		expect(errorOf(await crm.run(badId), badId.name)?.message).toContain(
			'Record ID must be digits',
		);
	});

	test('Update by external ID: one item (UpdateRecordUsingExternalID) and a batch (UpdateRecords with X-EXTERNAL); mapper matching', async () => {
		const create = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'json',
			recordJson: '={{ JSON.stringify({ Last_Name: "Ext", External_Lead_ID: $json.ext }) }}',
		});
		const created = outputOf(
			await crm.run(create, [{ json: { ext: 'EXT-A' } }, { json: { ext: 'EXT-B' } }]),
			create.name,
		);
		const update = crm.node('crmRecord', {
			resource: 'record',
			operation: 'update',
			module: 'Leads',
			fieldsMode: 'pairs',
			updateBy: 'externalId',
			externalField: 'External_Lead_ID',
			externalValue: '={{ $json.ext }}',
			fieldsUi: pairs({ City: '={{ $json.city }}' }),
		});
		await crm.clearRequests();
		outputOf(await crm.run(update, [{ json: { ext: 'EXT-A', city: 'Austin' } }]), update.name);
		expect(await requestsTo('PUT', '/crm/v2.1/Leads/EXT-A')).toHaveLength(1);
		expect((await record('Leads', created[0].json.id as string)).City).toBe('Austin');

		outputOf(
			await crm.run(update, [
				{ json: { ext: 'EXT-A', city: 'Boston' } },
				{ json: { ext: 'EXT-B', city: 'Chicago' } },
			]),
			update.name,
		);
		expect(await requestsTo('PUT', '/crm/v2.1/Leads')).toHaveLength(1);
		expect((await record('Leads', created[0].json.id as string)).City).toBe('Boston');
		expect((await record('Leads', created[1].json.id as string)).City).toBe('Chicago');

		// mapper: the matching column picks the record (external-ID field or Record ID)
		const viaMapper = crm.node('crmRecord', {
			resource: 'record',
			operation: 'update',
			module: 'Leads',
			fieldsMode: 'mapper',
			columns: mapper({ External_Lead_ID: 'EXT-B', Country: 'Canada' }, [], ['External_Lead_ID']),
		});
		outputOf(await crm.run(viaMapper), viaMapper.name);
		expect((await record('Leads', created[1].json.id as string)).Country).toBe('Canada');
		const byId = crm.node('crmRecord', {
			resource: 'record',
			operation: 'update',
			module: 'Leads',
			fieldsMode: 'mapper',
			columns: mapper({ id: created[0].json.id, Country: 'Mexico' }, [], ['id']),
		});
		outputOf(await crm.run(byId), byId.name);
		expect((await record('Leads', created[0].json.id as string)).Country).toBe('Mexico');
	});

	test('Upsert: duplicate_check_fields picks the record to update; others are inserted, in input order', async () => {
		const upsert = crm.node('crmRecord', {
			resource: 'record',
			operation: 'upsert',
			module: 'Contacts',
			fieldsMode: 'mapper',
			columns: mapper(
				{
					Last_Name: '={{ $json.last }}',
					Email: '={{ $json.email }}',
					Title: '={{ $json.title }}',
				},
				[],
				['Email'],
			),
		});
		const first = outputOf(
			await crm.run(upsert, [
				{ json: { last: 'Upsert', email: 'upsert.one@example.com', title: 'First' } },
			]),
			upsert.name,
		);
		expect(first[0].json).toMatchObject({ action: 'insert', duplicate_field: null });
		const second = outputOf(
			await crm.run(upsert, [
				{ json: { last: 'Upsert', email: 'new.upsert@example.com', title: 'New' } },
				{ json: { last: 'Upsert', email: 'UPSERT.ONE@example.com', title: 'Second' } },
			]),
			upsert.name,
		);
		expect(second.map((o) => o.json.action)).toEqual(['insert', 'update']);
		expect(second[1].json).toMatchObject({ id: first[0].json.id, duplicate_field: 'Email' });
		expect((await record('Contacts', first[0].json.id as string)).Title).toBe('Second');
		const log = (await writeLog()).filter((w) => w.operation === 'upsert').pop();
		expect(log.duplicate_check_fields).toEqual(['Email']);

		// pairs mode: duplicate check fields from the option
		const byName = crm.node('crmRecord', {
			resource: 'record',
			operation: 'upsert',
			module: 'Accounts',
			fieldsMode: 'pairs',
			fieldsUi: pairs({ Account_Name: 'Upsert Account', Phone: '={{ $json.phone }}' }),
			options: { duplicate_check_fields: ['Account_Name'] },
		});
		const a = outputOf(await crm.run(byName, [{ json: { phone: '111' } }]), byName.name);
		const b = outputOf(await crm.run(byName, [{ json: { phone: '222' } }]), byName.name);
		expect(b[0].json).toMatchObject({
			id: a[0].json.id,
			action: 'update',
			duplicate_field: 'Account_Name',
		});
		expect((await record('Accounts', a[0].json.id as string)).Phone).toBe('222');
	});

	test('Delete one (DeleteRecord), many (DeleteRecords), by external ID, with wf_trigger; per-id errors stay per item', async () => {
		const create = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'json',
			recordJson: '={{ JSON.stringify({ Last_Name: "Doomed", External_Lead_ID: $json.ext }) }}',
		});
		const ids = outputOf(
			await crm.run(
				create,
				['D1', 'D2', 'D3', 'D4'].map((ext) => ({ json: { ext } })),
			),
			create.name,
		).map((o) => o.json.id as string);
		const del = crm.node(
			'crmRecord',
			{
				resource: 'record',
				operation: 'delete',
				module: 'Leads',
				deleteBy: 'id',
				recordId: '={{ $json.id }}',
				options: { wf_trigger: false },
			},
			{ onError: 'continueRegularOutput' },
		);
		await crm.clearRequests();
		const one = outputOf(await crm.run(del, [{ json: { id: ids[0] } }]), del.name);
		expect(one[0].json).toMatchObject({ id: ids[0], message: 'record deleted' });
		expect(
			(await crm.requests()).some(
				(r) => r.method === 'DELETE' && r.url === `/crm/v2.1/Leads/${ids[0]}?wf_trigger=false`,
			),
		).toBe(true);

		const many = outputOf(
			await crm.run(del, [
				{ json: { id: ids[1] } },
				{ json: { id: '4876876000999999999' } },
				{ json: { id: ids[2] } },
			]),
			del.name,
		);
		expect(many.map((o) => o.json.status ?? o.json.details)).toEqual([
			'success',
			expect.objectContaining({ code: 'INVALID_DATA' }),
			'success',
		]);
		expect(await requestsTo('DELETE', '/crm/v2.1/Leads')).toHaveLength(1);
		const log = (await writeLog()).filter((w) => w.operation === 'delete').pop();
		expect(log).toMatchObject({ wf_trigger: 'false', fired: [] });

		const byExt = crm.node('crmRecord', {
			resource: 'record',
			operation: 'delete',
			module: 'Leads',
			deleteBy: 'externalId',
			externalField: 'External_Lead_ID',
			externalValue: 'D4',
		});
		outputOf(await crm.run(byExt), byExt.name);
		for (const id of ids) expect((await crm.api('GET', `/crm/v2.1/Leads/${id}`)).status).toBe(204);
		const deleted = (await crm.listAll('/crm/v2.1/Leads/deleted?type=all')).map((d) => d.id);
		expect(deleted).toEqual(expect.arrayContaining(ids));
	});

	test("Delete Many sends an item's IDs in groups of 100 and answers one item per ID", async () => {
		const create = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Tasks',
			fieldsMode: 'json',
			recordJson: '={{ JSON.stringify({ Subject: "Task " + $json.i }) }}',
		});
		const ids = outputOf(
			await crm.run(
				create,
				Array.from({ length: 230 }, (_, i) => ({ json: { i } })),
			),
			create.name,
		).map((o) => o.json.id as string);
		await crm.clearRequests();
		const delMany = crm.node('crmRecord', {
			resource: 'record',
			operation: 'deleteMany',
			module: 'Tasks',
			recordIds: '={{ $json.ids }}',
		});
		const out = outputOf(await crm.run(delMany, [{ json: { ids } }]), delMany.name);
		expect((await requestsTo('DELETE', '/crm/v2.1/Tasks')).length).toBe(3);
		expect(out).toHaveLength(230);
		expect(out.map((o) => o.json.id)).toEqual(ids);
		expect(out.every((o) => o.json.status === 'success')).toBe(true);
		for (let i = 0; i < ids.length; i += 100) {
			const res = await crm.api(
				'GET',
				`/crm/v2.1/Tasks?fields=Subject&ids=${ids.slice(i, i + 100).join(',')}`,
			);
			expect(res.status).toBe(204);
		}

		const bad = crm.node('crmRecord', {
			resource: 'record',
			operation: 'deleteMany',
			module: 'Tasks',
			recordIds: '123,abc',
		});
		expect(errorOf(await crm.run(bad), bad.name)?.message).toContain(
			'Record IDs must hold numeric IDs',
		);
	});
});
