// Batched writes group items by key (module and write options), so a request's chunk need not hold
// consecutive items. With modules interleaved (Contacts, Leads, Contacts, Leads) and the Contacts
// create losing its connection after it took effect, every item's outcome must land on that item:
// the Leads written, the Contact with a unique value settled by upsert, the Contact without one
// reported "Outcome unknown" on its own item index.
import type { IDataObject } from 'n8n-workflow';

import { useCrmFixture } from '../harness/crm';
import { errorOf, outputOf } from '../harness/n8n';
import { clearSandboxFaults, setSandboxFault } from '../harness/sandbox';

const crm = useCrmFixture({ sandbox: { demo: false } });

/** Forces the next create of Contacts to lose its connection after the record was stored. */
async function dropNextContactsCreate(): Promise<void> {
	await setSandboxFault(crm.url, { drop: true, count: 1, path_includes: '/crm/v2.1/Contacts' });
}

async function search(module: string, criteria: string): Promise<IDataObject[]> {
	const { status, body } = await crm.api(
		'GET',
		`/crm/v2.1/${module}/search?criteria=${encodeURIComponent(criteria)}`,
	);
	return status === 204 ? [] : (body.data as IDataObject[]);
}

function createNode(onError?: 'continueRegularOutput') {
	return crm.node(
		'crmRecord',
		{
			resource: 'record',
			operation: 'create',
			module: '={{ $json.module }}',
			fieldsMode: 'json',
			recordJson: '={{ JSON.stringify($json.record) }}',
		},
		onError ? { onError } : {},
	);
}

const input = (tag: string) => [
	{
		json: {
			module: 'Contacts',
			record: { Last_Name: `Interleaved ${tag} C0`, Email: `interleaved-${tag}-c0@batch.example` },
		},
	},
	{
		json: { module: 'Leads', record: { Last_Name: `Interleaved ${tag} L1`, Company: 'Batch Inc' } },
	},
	{ json: { module: 'Contacts', record: { Last_Name: `Interleaved ${tag} C2` } } },
	{
		json: { module: 'Leads', record: { Last_Name: `Interleaved ${tag} L3`, Company: 'Batch Inc' } },
	},
];

afterEach(async () => {
	await clearSandboxFaults(crm.url);
});

describe('batched create › interleaved modules, a dropped connection', () => {
	test("Continue On Fail: each output item carries its own input item's outcome", async () => {
		await crm.clearRequests();
		await dropNextContactsCreate();
		const node = createNode('continueRegularOutput');
		const out = outputOf(await crm.run(node, input('cof')), node.name);

		expect(out.map((o) => o.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		// item 0: the lost create was settled by an upsert on Email, which found the stored record
		expect(out[0].json).toMatchObject({
			status: 'success',
			action: 'update',
			duplicate_field: 'Email',
		});
		// items 1 and 3: the Leads chunk was unaffected
		for (const i of [1, 3])
			expect(out[i].json).toMatchObject({ status: 'success', action: 'insert' });
		// item 2: no unique value to match it by, so it is not re-sent and reported on its own item
		expect(out[2].json.error).toMatch(/^Outcome unknown: the create request failed/);
		expect(out[2].json.message).toContain(
			'no value in a unique field of the module (Email, External_Contact_ID)',
		);

		// the store holds each record once, under the ids the items report
		const [c0] = await search('Contacts', '(Email:equals:interleaved-cof-c0@batch.example)');
		expect(c0.id).toBe(out[0].json.id);
		expect(await search('Contacts', '(Last_Name:equals:Interleaved cof C2)')).toHaveLength(1);
		const leads = await search('Leads', '(Company:equals:Batch Inc)');
		expect(leads.map((l) => [l.Last_Name, l.id]).sort()).toEqual([
			['Interleaved cof L1', out[1].json.id],
			['Interleaved cof L3', out[3].json.id],
		]);
		// one create per module, one upsert for the settled Contact; the Contacts create was never re-POSTed
		const writes = (await crm.requests())
			.filter((r) => r.method === 'POST' && r.url.startsWith('/crm/'))
			.map((r) => `${r.url} ${r.status}`);
		expect(writes.sort()).toEqual([
			'/crm/v2.1/Contacts 0',
			'/crm/v2.1/Contacts/upsert 200',
			'/crm/v2.1/Leads 201',
		]);
	});

	test('without Continue On Fail: the node fails naming item 2, the item whose outcome is unknown', async () => {
		await dropNextContactsCreate();
		const node = createNode();
		const run = await crm.run(node, input('strict'));
		const error = errorOf(run, node.name)!;
		expect(error.message).toMatch(
			/^Items 0–1, 3 written \(3\); item 2 failed: Outcome unknown: the create request failed/,
		);
		expect(error.context.itemIndex).toBe(2);
	});
});
