// Variant handling of the CRM Metadata node (docs/protocol.md §13): the operations that exist in both
// variants run under a v2 credential against /crm/v2; the v2.1-only ones are refused before sending.
import { crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Metadata under a v2 credential (engine → sandbox over HTTP)', () => {
	let v2: CrmFixture;
	beforeAll(async () => {
		v2 = await crmFixture({ variant: 'v2' });
	});
	afterAll(async () => await v2.close());

	test('modules, fields, layouts, related lists, custom views and blueprints are read through /crm/v2', async () => {
		await v2.clearRequests();
		const cases: Array<[Record<string, unknown>, (out: any[]) => void]> = [
			[
				{ resource: 'module', operation: 'getAll' },
				(out) => expect(out.length).toBeGreaterThan(10),
			],
			[
				{ resource: 'module', operation: 'get', module: 'Leads' },
				(out) => expect(out[0].json).not.toHaveProperty('isBlueprintSupported'),
			],
			[
				{ resource: 'field', operation: 'getAll', module: 'Leads' },
				(out) => expect(out[0].json).toHaveProperty('section_id'),
			],
			[
				{ resource: 'layout', operation: 'getAll', module: 'Deals' },
				(out) => expect(out).toHaveLength(2),
			],
			[
				{ resource: 'relatedList', operation: 'getAll', module: 'Accounts' },
				(out) => expect(out.length).toBeGreaterThan(5),
			],
			[
				{
					resource: 'customView',
					operation: 'getAll',
					module: 'Deals',
					returnAll: false,
					limit: 3,
				},
				(out) => expect(out).toHaveLength(3),
			],
		];
		for (const [params, check] of cases) {
			const node = v2.node('crmMetadata', params as any);
			check(outputOf(await v2.run(node), node.name));
		}
		const urls = (await v2.requests()).map((r) => r.url).filter((u) => u.startsWith('/crm/'));
		expect(urls.length).toBeGreaterThanOrEqual(cases.length);
		expect(urls.every((u) => u.startsWith('/crm/v2/'))).toBe(true);
	});

	test('a blueprint transition works under v2 as well', async () => {
		const created = await v2.api('POST', '/crm/v2/Deals', {
			data: [
				{
					Deal_Name: 'v2 blueprint',
					Stage: 'Qualification',
					Pipeline: 'Enterprise',
					Closing_Date: '2025-08-01',
				},
			],
		});
		const id = created.body.data[0].details.id;
		const get = v2.node('crmMetadata', {
			resource: 'blueprint',
			operation: 'get',
			module: 'Deals',
			recordId: id,
		} as any);
		const [bp] = outputOf(await v2.run(get), get.name);
		const qualify = (bp.json.transitions as any[]).find((t) => t.name === 'Qualify');
		const move = v2.node('crmMetadata', {
			resource: 'blueprint',
			operation: 'transition',
			module: 'Deals',
			recordId: id,
			transitionId: qualify.id,
			fieldsUi: { field: [{ name: 'Probability', value: '15' }] },
		} as any);
		expect(outputOf(await v2.run(move), move.name)[0].json.status).toBe('success');
		expect((await v2.api('GET', `/crm/v2/Deals/${id}`)).body.data[0].Stage).toBe('Needs Analysis');
	});

	test('every v2.1-only operation is refused with a clear message and nothing is sent', async () => {
		await v2.clearRequests();
		const refused: Array<Record<string, unknown>> = [
			{ resource: 'wizard', operation: 'getAll' },
			{ resource: 'assignmentRule', operation: 'getAll' },
			{
				resource: 'assignmentRule',
				operation: 'get',
				module: 'Leads',
				ruleId: '4876876000000611001',
			},
			{ resource: 'emailTemplate', operation: 'getAll', module: 'Leads' },
			{ resource: 'emailTemplate', operation: 'get', templateId: '4876876000000611001' },
			{ resource: 'inventoryTemplate', operation: 'get', templateId: '4876876000000611001' },
		];
		for (const params of refused) {
			const node = v2.node('crmMetadata', params as any);
			const error = errorOf(await v2.run(node), node.name);
			expect(error?.message).toMatch(/needs API variant v2\.1; the credential uses v2$/);
		}
		expect((await v2.requests()).filter((r) => r.url.startsWith('/crm/'))).toEqual([]);
	});
});
