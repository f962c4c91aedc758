// Record reads through the engine: Get (ID, external ID, If-Modified-Since), Get Many filters,
// Search (conditions, criteria text, email, phone, word; Return All), Count, List Deleted.
import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Record › reads (v2.1)', () => {
	const crm = useCrmFixture();
	let leadIds: string[];
	beforeAll(async () => {
		const created = await crm.api('POST', '/crm/v2.1/Leads', {
			data: [
				{
					Last_Name: 'Searchable',
					First_Name: 'Sam',
					Email: 'sam.searchable@example.com',
					Phone: '+1 (512) 555-0199',
					Company: 'Findable (Inc), Ltd',
					No_of_Employees: 40,
					External_Lead_ID: 'READ-1',
					Lead_Source: 'Web',
				},
				{
					Last_Name: 'Searchable',
					First_Name: 'Sue',
					Email: 'sue.searchable@example.com',
					No_of_Employees: 400,
					Lead_Source: 'Chat',
				},
			],
		});
		leadIds = created.body.data.map((d: any) => d.details.id);
	});

	const run = async (parameters: Record<string, unknown>, input?: any[]) => {
		const node = crm.node('crmRecord', { resource: 'record', ...parameters });
		return { node, result: await crm.run(node, input) };
	};

	test('Get by ID and by external ID (X-EXTERNAL); fields; If-Modified-Since gives nothing when unchanged', async () => {
		const byId = await run({
			operation: 'get',
			module: 'Leads',
			getBy: 'id',
			recordId: leadIds[0],
			options: { fields: ['Last_Name', 'Email'] },
		});
		expect(outputOf(byId.result, byId.node.name).map((o) => o.json)).toEqual([
			{ id: leadIds[0], Last_Name: 'Searchable', Email: 'sam.searchable@example.com' },
		]);

		const byExt = await run({
			operation: 'get',
			module: 'Leads',
			getBy: 'externalId',
			externalField: 'External_Lead_ID',
			externalValue: 'READ-1',
		});
		expect(outputOf(byExt.result, byExt.node.name)[0].json).toMatchObject({
			id: leadIds[0],
			First_Name: 'Sam',
		});

		const later = new Date(Date.now() + 60_000).toISOString();
		const unchanged = await run({
			operation: 'get',
			module: 'Leads',
			getBy: 'id',
			recordId: leadIds[0],
			options: { ifModifiedSince: later },
		});
		expect(outputOf(unchanged.result, unchanged.node.name)).toEqual([]);
		expect((await crm.requests()).at(-1)?.status).toBe(304);

		const bad = await run({ operation: 'get', module: 'Leads', getBy: 'id', recordId: '12ab' });
		expect(errorOf(bad.result, bad.node.name)?.message).toContain('Record ID must be digits');
	});

	test('Get Many: ids (≤100, checked before sending), converted, cvid, territory, If-Modified-Since', async () => {
		const byIds = await run({
			operation: 'getAll',
			module: 'Leads',
			returnAll: true,
			options: { ids: leadIds.join(',') },
		});
		expect(
			outputOf(byIds.result, byIds.node.name)
				.map((o) => o.json.id)
				.sort(),
		).toEqual([...leadIds].sort());

		const tooMany = await run({
			operation: 'getAll',
			module: 'Leads',
			returnAll: true,
			options: {
				ids: Array.from({ length: 101 }, (_, i) => String(4876876000000000000 + i)).join(','),
			},
		});
		expect(errorOf(tooMany.result, tooMany.node.name)?.message).toContain('at most 100');

		// a custom view (criteria Lead_Source = Chat)
		crm.running.sandbox.store.putDoc('custom_views', '4876876000000090001', {
			id: '4876876000000090001',
			name: 'Chat leads',
			module: { api_name: 'Leads' },
			criteria: { field: { api_name: 'Lead_Source' }, comparator: 'equal', value: 'Chat' },
		});
		const view = await run({
			operation: 'getAll',
			module: 'Leads',
			returnAll: true,
			options: { cvid: '4876876000000090001' },
		});
		const viewOut = outputOf(view.result, view.node.name);
		expect(viewOut.length).toBeGreaterThan(0);
		expect(viewOut.every((o) => o.json.Lead_Source === 'Chat')).toBe(true);
		expect(viewOut.some((o) => o.json.id === leadIds[1])).toBe(true);

		// territory filter (+ include_child)
		await crm.api('POST', '/crm/v2.1/Leads/actions/assign_territories', {
			data: [{ id: leadIds[0], Territories: [{ id: '4876876000000361007' }] }],
		});
		const direct = await run({
			operation: 'getAll',
			module: 'Leads',
			returnAll: true,
			options: { territory_id: '4876876000000361003' },
		});
		expect(outputOf(direct.result, direct.node.name)).toEqual([]);
		const withChild = await run({
			operation: 'getAll',
			module: 'Leads',
			returnAll: true,
			options: { territory_id: '4876876000000361003', include_child: true },
		});
		expect(outputOf(withChild.result, withChild.node.name).map((o) => o.json.id)).toEqual([
			leadIds[0],
		]);

		// converted filter: a converted lead shows only with converted=true/both
		await crm.api('POST', `/crm/v2.1/Leads/${leadIds[1]}/actions/convert`, { data: [{}] });
		const plain = await run({ operation: 'getAll', module: 'Leads', returnAll: true });
		expect(outputOf(plain.result, plain.node.name).some((o) => o.json.id === leadIds[1])).toBe(
			false,
		);
		const converted = await run({
			operation: 'getAll',
			module: 'Leads',
			returnAll: true,
			options: { converted: 'true' },
		});
		expect(outputOf(converted.result, converted.node.name).map((o) => o.json.id)).toContain(
			leadIds[1],
		);

		const future = new Date(Date.now() + 3_600_000).toISOString();
		const ims = await run({
			operation: 'getAll',
			module: 'Leads',
			returnAll: true,
			options: { ifModifiedSince: future },
		});
		expect(outputOf(ims.result, ims.node.name)).toEqual([]);
	});

	test('Search: conditions builder (escaped values), criteria text, email, phone, word; Return All and Limit', async () => {
		const builder = await run({
			operation: 'search',
			module: 'Leads',
			searchBy: 'criteria',
			combine: 'and',
			conditions: {
				condition: [
					{ field: 'Company', operator: 'equals', value: 'Findable (Inc), Ltd' },
					{ field: 'No_of_Employees', operator: 'less_than', value: '100' },
				],
			},
			returnAll: true,
		});
		expect(outputOf(builder.result, builder.node.name).map((o) => o.json.id)).toEqual([leadIds[0]]);
		const sent = (await crm.requests())
			.filter((r) => r.url.startsWith('/crm/v2.1/Leads/search'))
			.at(-1)!.url;
		expect(decodeURIComponent(sent)).toContain('(Company:equals:Findable \\(Inc\\)\\, Ltd)');

		const raw = await run({
			operation: 'search',
			module: 'Leads',
			searchBy: 'rawCriteria',
			criteria: '((Last_Name:equals:Searchable)and(No_of_Employees:greater_than:100))',
			returnAll: true,
			options: { converted: 'both' },
		});
		expect(outputOf(raw.result, raw.node.name).map((o) => o.json.id)).toEqual([leadIds[1]]);

		const email = await run({
			operation: 'search',
			module: 'Leads',
			searchBy: 'email',
			searchValue: 'SAM.searchable@example.com',
			returnAll: true,
		});
		expect(outputOf(email.result, email.node.name).map((o) => o.json.id)).toEqual([leadIds[0]]);
		const phone = await run({
			operation: 'search',
			module: 'Leads',
			searchBy: 'phone',
			searchValue: '5125550199',
			returnAll: true,
		});
		expect(outputOf(phone.result, phone.node.name).map((o) => o.json.id)).toEqual([leadIds[0]]);

		// enough matches for two pages: the runner follows more_records
		const bulk = await crm.api('POST', '/crm/v2.1/Tasks', {
			data: Array.from({ length: 100 }, (_, i) => ({ Subject: `Zebra task ${i}` })),
		});
		await crm.api('POST', '/crm/v2.1/Tasks', {
			data: Array.from({ length: 100 }, (_, i) => ({ Subject: `Zebra chore ${i}` })),
		});
		await crm.api('POST', '/crm/v2.1/Tasks', {
			data: Array.from({ length: 30 }, (_, i) => ({ Subject: `Zebra job ${i}` })),
		});
		expect(bulk.status).toBe(201);
		const word = await run({
			operation: 'search',
			module: 'Tasks',
			searchBy: 'word',
			searchValue: 'zebra',
			returnAll: true,
		});
		const all = outputOf(word.result, word.node.name);
		expect(all).toHaveLength(230);
		expect(new Set(all.map((o) => o.json.id)).size).toBe(230);
		const limited = await run({
			operation: 'search',
			module: 'Tasks',
			searchBy: 'word',
			searchValue: 'zebra',
			returnAll: false,
			limit: 5,
		});
		expect(outputOf(limited.result, limited.node.name)).toHaveLength(5);

		const none = await run({
			operation: 'search',
			module: 'Leads',
			searchBy: 'email',
			searchValue: 'nobody@nowhere.example',
			returnAll: true,
		});
		expect(outputOf(none.result, none.node.name)).toEqual([]);
	});

	test('Search refuses more than 10 conditions before sending; the sandbox answers bad operators with INVALID_QUERY', async () => {
		await crm.clearRequests();
		const eleven = await run({
			operation: 'search',
			module: 'Leads',
			searchBy: 'criteria',
			conditions: {
				condition: Array.from({ length: 11 }, (_, i) => ({
					field: 'Last_Name',
					operator: 'equals',
					value: `N${i}`,
				})),
			},
		});
		expect(errorOf(eleven.result, eleven.node.name)?.message).toContain('at most 10');
		const rawEleven = await run({
			operation: 'search',
			module: 'Leads',
			searchBy: 'rawCriteria',
			criteria: `(${Array.from({ length: 11 }, (_, i) => `(Last_Name:equals:N${i})`).join('or')})`,
		});
		expect(errorOf(rawEleven.result, rawEleven.node.name)?.message).toContain('at most 10');
		expect((await crm.requests()).filter((r) => r.url.includes('/search'))).toEqual([]);
		const badOp = await run({
			operation: 'search',
			module: 'Leads',
			searchBy: 'rawCriteria',
			criteria: '(Last_Name:greater_than:A)',
		});
		const error = errorOf(badOp.result, badOp.node.name);
		expect(error?.message).toContain('INVALID_QUERY');
		expect(error?.description).toContain('operator');
	});

	test('Count (RecordCount) with and without a search', async () => {
		const all = await run({ operation: 'count', module: 'Leads', searchBy: 'none' });
		const total = outputOf(all.result, all.node.name)[0].json.count as number;
		// every lead the module lists (converted ones are not listed)
		const listed = await crm.listAll('/crm/v2.1/Leads?fields=Last_Name');
		expect(total).toBe(listed.length);
		const some = await run({
			operation: 'count',
			module: 'Leads',
			searchBy: 'rawCriteria',
			criteria: '(Last_Name:equals:Searchable)',
		});
		const searchable = listed.filter((r) => r.Last_Name === 'Searchable');
		expect(searchable.length).toBeGreaterThan(0);
		expect(outputOf(some.result, some.node.name)[0].json).toEqual({ count: searchable.length });
	});

	test('List Deleted: all / recycle / permanent, Return All', async () => {
		const created = await crm.api('POST', '/crm/v2.1/Vendors', {
			data: [{ Vendor_Name: 'Gone One' }, { Vendor_Name: 'Gone Two' }],
		});
		const [a, b] = created.body.data.map((d: any) => d.details.id);
		await crm.api('DELETE', `/crm/v2.1/Vendors?ids=${a},${b}`);
		await fetch(`${crm.url}/__sandbox/records/purge`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ module: 'Vendors', ids: [b] }),
		});
		const list = async (type: string) => {
			const { node, result } = await run({
				operation: 'listDeleted',
				module: 'Vendors',
				type,
				returnAll: true,
			});
			return outputOf(result, node.name).map((o) => o.json);
		};
		const all = await list('all');
		expect(all.map((d) => d.id).sort()).toEqual([a, b].sort());
		expect(all.find((d) => d.id === a)).toMatchObject({
			display_name: 'Gone One',
			type: 'recycle',
			deleted_by: { id: expect.any(String) },
		});
		expect(String(all[0].deleted_time)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
		expect((await list('recycle')).map((d) => d.id)).toEqual([a]);
		expect((await list('permanent')).map((d) => d.id)).toEqual([b]);
	});
});
