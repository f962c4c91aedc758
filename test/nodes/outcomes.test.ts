// What a person sees when a node runs: errors in plain words with the code after them, values
// refused before sending shaped like the CRM's refusals, the stop message of a batched write, and
// the Output option of record writes (node version 1.1). Real workflows through the engine.
import { bulkReadJobs, crmFixture, packageNodeTypes } from '../harness/crm';
import type { CrmFixture } from '../harness/crm';
import { errorOf, outputOf } from '../harness/n8n';
import { mapper, pairs } from './CrmRecord/record-helpers';

describe('outcomes a person understands', () => {
	let crm: CrmFixture;
	beforeAll(async () => {
		crm = await crmFixture();
	});
	afterAll(async () => await crm.close());

	const record = async (module: string, id: string) =>
		(await crm.api('GET', `/crm/v2.1/${module}/${id}`)).body?.data?.[0];
	const posts = async (path: string) =>
		(await crm.requests()).filter((r) => r.method === 'POST' && r.url.split('?')[0] === path);
	const createLeads = (extra: Record<string, unknown> = {}, typeVersion = 1) =>
		crm.node(
			'crmRecord',
			{
				resource: 'record',
				operation: 'create',
				module: 'Leads',
				fieldsMode: 'pairs',
				fieldsUi: pairs({ Last_Name: '={{ $json.last }}', Email: '={{ $json.email }}' }),
				...extra,
			},
			{ typeVersion },
		);

	test('a service error reads as a sentence naming the field by its label, the code after it; code and details stay', async () => {
		const create = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'pairs',
			fieldsUi: pairs({ Company: 'No Name Ltd' }),
		});
		const error = errorOf(await crm.run(create), create.name);
		expect(error?.message).toBe(
			'Required field Last Name (Last_Name) is missing [MANDATORY_NOT_FOUND]',
		);
		expect(error?.context?.crm).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'Last_Name', json_path: '$.data[0].Last_Name' },
		});
		expect(error?.description).toContain('MANDATORY_NOT_FOUND');
		expect(error?.description).toContain('json_path: $.data[0].Last_Name');
	});

	test('in JSON mode too the field is named by its label and API name', async () => {
		const create = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'json',
			recordJson: '{"Company": "x"}',
		});
		const error = errorOf(await crm.run(create), create.name);
		expect(error?.message).toBe(
			'Required field Last Name (Last_Name) is missing [MANDATORY_NOT_FOUND]',
		);
	});

	test('values refused before sending carry the code and api_name of a CRM refusal, and nothing is sent for them', async () => {
		await crm.clearRequests();
		const create = crm.node(
			'crmRecord',
			{
				resource: 'record',
				operation: 'create',
				module: 'Leads',
				fieldsMode: 'pairs',
				fieldsUi: pairs({
					Last_Name: '={{ $json.last }}',
					Email: '={{ $json.email }}',
					Lead_Source: '={{ $json.source }}',
				}),
			},
			{ onError: 'continueRegularOutput' },
		);
		const out = outputOf(
			await crm.run(create, [
				{ json: { last: 'Fine', email: 'fine.outcome@example.com', source: 'Web' } },
				{ json: { last: 'Pigeon', email: 'pigeon@example.com', source: 'Carrier Pigeon' } },
				{ json: { last: 'L'.repeat(81), email: 'long@example.com', source: 'Web' } },
				{ json: { last: 'Refused', email: 'not-an-email', source: 'Web' } },
			]),
			create.name,
		);
		expect(out).toHaveLength(4);
		expect(out[0].json.status).toBe('success');
		expect(out[1].json.details).toEqual({
			status: 'error',
			code: 'INVALID_DATA',
			message: expect.stringContaining('Lead_Source'),
			details: { api_name: 'Lead_Source', expected_data_type: 'picklist' },
		});
		expect(out[2].json.details).toMatchObject({
			status: 'error',
			code: 'INVALID_DATA',
			details: { api_name: 'Last_Name', maximum_length: 80 },
		});
		expect(out[2].json.error).toBe(
			'Field Last Name (Last_Name) is too long: 81 characters, at most 80',
		);
		// the item the CRM refused has the same keys
		expect(out[3].json.details).toMatchObject({
			status: 'error',
			code: 'INVALID_DATA',
			details: { api_name: 'Email' },
		});
		expect(Object.keys(out[3].json).sort()).toEqual(Object.keys(out[1].json).sort());
		expect(Object.keys(out[3].json.details as object).sort()).toEqual(
			Object.keys(out[1].json.details as object).sort(),
		);
		// the two refused before sending never reached the CRM
		expect(await posts('/crm/v2.1/Leads')).toHaveLength(1);
		expect((await crm.api('GET', '/crm/v2.1/Leads/search?email=pigeon@example.com')).status).toBe(
			204,
		);
		expect(out.map((o) => o.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
	});

	test('a bad ID refused before sending is an INVALID_DATA refusal too', async () => {
		const get = crm.node(
			'crmRecord',
			{
				resource: 'record',
				operation: 'update',
				module: 'Leads',
				updateBy: 'id',
				recordId: 'abc',
				fieldsMode: 'json',
				recordJson: '{"Company": "x"}',
			},
			{ onError: 'continueRegularOutput' },
		);
		const [out] = outputOf(await crm.run(get), get.name);
		expect(out.json).toMatchObject({
			error: 'Record ID must be digits, got "abc"',
			details: { status: 'error', code: 'INVALID_DATA', details: { api_name: 'id' } },
		});
	});

	test('a batched write that stops names the written and the failed items as ranges with counts', async () => {
		const input = Array.from({ length: 120 }, (_, i) => ({
			json: {
				last: `Range ${i}`,
				email:
					i === 42 || i === 110 || i === 111 ? `bad-${i}` : `range.${i}.${Date.now()}@example.com`,
			},
		}));
		const create = createLeads();
		const error = errorOf(await crm.run(create, input), create.name);
		expect(error?.message).toBe(
			'Items 0–41, 43–109, 112–119 written (117); items 42, 110–111 failed (3): Field Email has an invalid value (expected email) [INVALID_DATA]',
		);
		expect(error?.context?.itemIndex).toBe(42);
		// they were written indeed
		const found = await crm.api(
			'GET',
			'/crm/v2.1/Leads/search?criteria=(Last_Name:equals:Range 119)',
		);
		expect(found.body.data).toHaveLength(1);

		const one = createLeads();
		const single = errorOf(
			await crm.run(one, [{ json: { last: 'Single', email: 'nope' } }]),
			one.name,
		);
		expect(single?.message).toBe(
			'Field Email has an invalid value (expected email) [INVALID_DATA]',
		);

		const mixed = createLeads();
		const both = errorOf(
			await crm.run(mixed, [
				{ json: { last: 'Mixed ok', email: `mixed.${Date.now()}@example.com` } },
				{ json: { last: 'Mixed bad', email: 'nope' } },
				{ json: { last: '', email: `mixed2.${Date.now()}@example.com` } },
			]),
			mixed.name,
		);
		expect(both?.message).toBe(
			'Item 0 written (1); items 1–2 failed (2): first, item 1: Field Email has an invalid value (expected email) [INVALID_DATA]',
		);
		expect(both?.description).toContain(
			'Failures: item 1: Field Email has an invalid value (expected email) [INVALID_DATA]; item 2: Required field Last Name (Last_Name) is missing [MANDATORY_NOT_FOUND].',
		);
	});

	test('Output: version 1.1 returns the full record (read back per 100), version 1 keeps the operation result', async () => {
		const stamp = Date.now();
		const input = Array.from({ length: 102 }, (_, i) => ({
			json: { last: `Full ${i}`, email: i === 7 ? 'bad' : `full.${i}.${stamp}@example.com` },
		}));
		await crm.clearRequests();
		const create = crm.node(
			'crmRecord',
			{
				resource: 'record',
				operation: 'create',
				module: 'Leads',
				fieldsMode: 'pairs',
				fieldsUi: pairs({ Last_Name: '={{ $json.last }}', Email: '={{ $json.email }}' }),
			},
			{ typeVersion: 1.1, onError: 'continueRegularOutput' },
		);
		const out = outputOf(await crm.run(create, input), create.name);
		// 101 written: read back in two requests (100 + 1)
		expect(out).toHaveLength(102);
		expect(out[0].json).toMatchObject({
			Last_Name: 'Full 0',
			Email: `full.0.${stamp}@example.com`,
			id: expect.stringMatching(/^\d+$/),
		});
		expect(out[0].json.Created_Time).toEqual(expect.any(String));
		expect(out[101].json).toMatchObject({ Last_Name: 'Full 101' });
		expect(out[7].json.details).toMatchObject({
			code: 'INVALID_DATA',
			details: { api_name: 'Email' },
		});
		expect(out.map((o) => o.pairedItem)).toEqual(input.map((_, item) => ({ item })));
		const reads = (await crm.requests()).filter(
			(r) => r.method === 'GET' && r.url.startsWith('/crm/v2.1/Leads?'),
		);
		expect(reads).toHaveLength(2);

		const v1 = createLeads({}, 1);
		const [result] = outputOf(
			await crm.run(v1, [{ json: { last: 'Result', email: `result.${stamp}@example.com` } }]),
			v1.name,
		);
		expect(result.json).toMatchObject({ status: 'success', action: 'insert', code: 'SUCCESS' });

		const asResult = createLeads({ output: 'result' }, 1.1);
		const [chosen] = outputOf(
			await crm.run(asResult, [{ json: { last: 'Chosen', email: `chosen.${stamp}@example.com` } }]),
			asResult.name,
		);
		expect(chosen.json).toMatchObject({ status: 'success', action: 'insert' });

		const update = crm.node(
			'crmRecord',
			{
				resource: 'record',
				operation: 'update',
				module: 'Leads',
				fieldsMode: 'mapper',
				columns: mapper({ id: out[0].json.id, Company: 'Updated Ltd' }, [], ['id']),
			},
			{ typeVersion: 1.1 },
		);
		const [updated] = outputOf(await crm.run(update), update.name);
		expect(updated.json).toMatchObject({
			id: out[0].json.id,
			Last_Name: 'Full 0',
			Company: 'Updated Ltd',
		});

		const upsert = crm.node(
			'crmRecord',
			{
				resource: 'record',
				operation: 'upsert',
				module: 'Leads',
				fieldsMode: 'json',
				recordJson: JSON.stringify({
					Last_Name: 'Full 1 upserted',
					Email: `full.1.${stamp}@example.com`,
				}),
			},
			{ typeVersion: 1.1 },
		);
		const [upserted] = outputOf(await crm.run(upsert), upsert.name);
		expect(upserted.json).toMatchObject({ id: out[1].json.id, Last_Name: 'Full 1 upserted' });
		expect((await record('Leads', out[1].json.id as string)).Last_Name).toBe('Full 1 upserted');
	});
});

describe('bulk read rows typed like Get Many', () => {
	let crm: CrmFixture;
	beforeAll(async () => {
		crm = await crmFixture({
			sandbox: { jobStepMs: 20, knobs: { bulkReadDownloadsPerMinute: 1000 } },
		});
	});
	afterAll(async () => await crm.close());

	test('numbers, booleans, dates, multi-selects and lookups as the JSON API gives them, the CSV Id as id', async () => {
		const stamp = String(Date.now());
		const created = await crm.api('POST', '/crm/v2.1/Leads', {
			data: [
				{
					Last_Name: `Typed ${stamp}`,
					Company: stamp,
					No_of_Employees: 42,
					Annual_Revenue: 1234.5,
					Email_Opt_Out: true,
					Interests: ['CRM', 'Analytics'],
					Last_Contacted_Date: '2024-03-01',
					Follow_Up_Time: '2024-03-01T10:15:00+00:00',
				},
				{ Last_Name: `Sparse ${stamp}`, Company: stamp },
			],
		});
		const ids = created.body.data.map((d: any) => d.details.id);
		const fields = [
			'Last_Name',
			'No_of_Employees',
			'Annual_Revenue',
			'Email_Opt_Out',
			'Interests',
			'Last_Contacted_Date',
			'Follow_Up_Time',
			'Owner',
		];
		const read = crm.node('crmBulk', {
			resource: 'bulkRead',
			operation: 'create',
			module: 'Leads',
			fields,
			filterType: 'conditions',
			conditions: { condition: [{ field: 'Company', comparator: 'equal', value: stamp }] },
			polling: { initialInterval: 0.02, maxInterval: 0.1, timeout: 2 },
			output: 'records',
		});
		const rows = outputOf(await crm.run(read), read.name).map((o) => o.json);
		const getMany = (
			await crm.api('GET', `/crm/v2.1/Leads?ids=${ids.join(',')}&fields=${fields.join(',')}`)
		).body.data;
		expect(rows.map((r) => r.id)).toEqual(ids);
		for (const row of rows) {
			const record = getMany.find((r: any) => r.id === row.id);
			expect(row).toMatchObject({ ...record, Owner: { id: record.Owner.id } });
		}
		expect(rows[0]).toMatchObject({
			No_of_Employees: 42,
			Annual_Revenue: 1234.5,
			Email_Opt_Out: true,
			Interests: ['CRM', 'Analytics'],
		});
		expect(rows[1]).toMatchObject({
			No_of_Employees: null,
			Interests: null,
			Last_Contacted_Date: null,
		});
		expect(rows[0]).not.toHaveProperty('Id');

		// Download Result of the same job types its rows the same way
		const jobId = (await bulkReadJobs(crm)).at(-1).id;
		const download = crm.node('crmBulk', {
			resource: 'bulkRead',
			operation: 'downloadResult',
			jobId,
			output: 'records',
		});
		expect(outputOf(await crm.run(download), download.name).map((o) => o.json)).toEqual(rows);
	});
});

describe("operation descriptions speak the user's language", () => {
	test('no API operation names, batching notes or API-variant notes in the action list', () => {
		const offending: string[] = [];
		for (const type of Object.values(packageNodeTypes())) {
			for (const property of type.description.properties.filter((p) => p.name === 'operation')) {
				for (const option of (property.options ?? []) as Array<{
					name: string;
					action?: string;
					description?: string;
				}>) {
					const text = `${option.action ?? ''} | ${option.description ?? ''}`;
					if (/\((?:[A-Z][a-z]+){2,}|per request|v2(?:\.1)? only|API v2/.test(text))
						offending.push(`${type.description.name} ${option.name}: ${text}`);
					// "Create a record", "Get many records": a sentence, no parenthesised jargon
					if (option.action && !/^[A-Z][a-z]+ [a-z][\w\s-]*$/.test(option.action)) {
						offending.push(`${type.description.name} ${option.name}: action "${option.action}"`);
					}
				}
			}
		}
		expect(offending).toEqual([]);
	});
});

describe('Full Record when the read-back is refused', () => {
	let crm: CrmFixture;
	beforeAll(async () => {
		crm = await crmFixture({ scope: 'CRM.settings.ALL,CRM.modules.leads.CREATE' });
	});
	afterAll(async () => await crm.close());

	test('the written records keep their operation result and say why there is no full record; the node does not fail', async () => {
		const create = crm.node(
			'crmRecord',
			{
				resource: 'record',
				operation: 'create',
				module: 'Leads',
				fieldsMode: 'json',
				recordJson: '{"Last_Name": "Kept"}',
			},
			{ typeVersion: 1.1 },
		);
		const [kept] = outputOf(await crm.run(create), create.name);
		expect(kept.json).toMatchObject({
			status: 'success',
			action: 'insert',
			fullRecordError: expect.stringContaining('[OAUTH_SCOPE_MISMATCH]'),
		});
		// read back with a token that may read (the node's may not)
		const { body: reader } = await crm.hook('POST', '/tokens', { scope: 'CRM.modules.leads.READ' });
		const res = await fetch(`${crm.url}/crm/v2.1/Leads/${kept.json.id}`, {
			headers: { Authorization: `Bearer ${reader.access_token}` },
		});
		expect(res.status).toBe(200);
		expect(((await res.json()) as any).data[0].Last_Name).toBe('Kept');
	});
});
