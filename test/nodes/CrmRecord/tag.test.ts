// Tag resource (docs/protocol.md §5.5) through the engine against the sandbox: module tags (create,
// update, delete, merge, record count, get many with my_tags), tags on one record and on many
// records (over_write), and the limits checked by the node before any request.
import type { INodePropertyOptions } from 'n8n-workflow';

import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Record › Tag', () => {
	const crm = useCrmFixture();
	let leads: string[];

	const tagsOf = async (id: string): Promise<string[]> =>
		((await crm.api('GET', `/crm/v2.1/Leads/${id}`)).body.data[0].Tag ?? []).map(
			(t: any) => t.name,
		);
	const moduleTags = async (module: string): Promise<any[]> =>
		(await crm.api('GET', `/crm/v2.1/settings/tags?module=${module}`)).body?.tags ?? [];
	const node = (operation: string, params: Record<string, unknown> = {}, extra = {}) =>
		crm.node('crmRecord', { resource: 'tag', operation, module: 'Leads', ...params }, extra);

	beforeAll(async () => {
		const res = await crm.api('POST', '/crm/v2.1/Leads', {
			data: [1, 2, 3].map((i) => ({ Last_Name: `Tagged ${i}` })),
		});
		leads = res.body.data.map((r: any) => r.details.id);
	});

	async function loadOptions(
		method: string,
		parameters: Record<string, unknown>,
		path: string,
	): Promise<INodePropertyOptions[]> {
		return await crm.loadOptions('crmRecord', method, parameters as any, path);
	}

	test('create tags (one request), list them, rename one, count its records, merge, delete', async () => {
		await crm.clearRequests();
		const create = node('create', {
			tagName: '={{ $json.name }}',
			options: { color_code: '#63C57E' },
		});
		const created = outputOf(
			await crm.run(create, [{ json: { name: 'Hot Lead' } }, { json: { name: 'Cold_Lead' } }]),
			create.name,
		);
		expect(created.map((i) => i.json.status)).toEqual(['success', 'success']);
		expect(
			(await crm.requests()).filter(
				(r) => r.method === 'POST' && r.url.startsWith('/crm/v2.1/settings/tags'),
			),
		).toHaveLength(1);
		const [hotId, coldId] = created.map((i) => i.json.id as string);

		const list = node('getAll');
		const listed = outputOf(await crm.run(list), list.name).map((i) => i.json.name);
		expect(listed).toEqual(expect.arrayContaining(['Hot Lead', 'Cold_Lead', 'VIP']));
		const mine = node('getAll', { myTags: true });
		expect(outputOf(await crm.run(mine), mine.name).map((i) => i.json.name)).toEqual(
			expect.arrayContaining(['Hot Lead', 'Cold_Lead']),
		);

		await crm.api(
			'POST',
			`/crm/v2.1/Leads/actions/add_tags?tag_names=Hot%20Lead&ids=${leads[0]},${leads[1]}`,
		);
		await crm.api('POST', `/crm/v2.1/Leads/${leads[2]}/actions/add_tags?tag_names=Cold_Lead`);

		const rename = node('update', { tagId: hotId, tagName: 'Warm Lead' });
		expect(outputOf(await crm.run(rename), rename.name)[0].json).toMatchObject({
			id: hotId,
			status: 'success',
		});
		expect(await tagsOf(leads[0])).toEqual(['Warm Lead']);

		const count = node('getRecordCount', { tagId: hotId });
		expect(outputOf(await crm.run(count), count.name)[0].json).toEqual({ count: '2' });

		const merge = node('merge', { tagId: coldId, conflictId: hotId });
		expect(outputOf(await crm.run(merge), merge.name)[0].json).toMatchObject({
			message: 'tags merged successfully',
		});
		expect(await tagsOf(leads[2])).toEqual(['Warm Lead']);
		expect((await moduleTags('Leads')).map((t) => t.name)).not.toContain('Cold_Lead');
		expect(outputOf(await crm.run(count), count.name)[0].json).toEqual({ count: '3' });

		const del = node('delete', { tagId: hotId });
		expect(outputOf(await crm.run(del), del.name)[0].json).toMatchObject({
			message: 'tags deleted successfully',
		});
		expect(await tagsOf(leads[0])).toEqual([]);
		expect((await moduleTags('Leads')).map((t) => t.name)).not.toContain('Warm Lead');
	});

	test('add and remove tags on one record; over_write replaces', async () => {
		const add = node('addToRecord', { recordId: leads[0], tagNames: 'Alpha, Beta' });
		const [added] = outputOf(await crm.run(add), add.name);
		expect(added.json).toMatchObject({
			status: 'success',
			details: { id: leads[0], tags: ['Alpha', 'Beta'] },
		});
		expect(await tagsOf(leads[0])).toEqual(['Alpha', 'Beta']);
		expect((await moduleTags('Leads')).map((t) => t.name)).toEqual(
			expect.arrayContaining(['Alpha', 'Beta']),
		);

		const replace = node('addToRecord', { recordId: leads[0], tagNames: 'Gamma', overWrite: true });
		outputOf(await crm.run(replace), replace.name);
		expect(await tagsOf(leads[0])).toEqual(['Gamma']);

		const remove = node('removeFromRecord', { recordId: leads[0], tagNames: 'Gamma' });
		outputOf(await crm.run(remove), remove.name);
		expect(await tagsOf(leads[0])).toEqual([]);
	});

	test('add and remove tags on many records: one request per module and tag list', async () => {
		await crm.clearRequests();
		const add = node('addToRecords', {
			recordId: '={{ $json.id }}',
			tagNames: 'Bulk One,Bulk Two',
		});
		const out = outputOf(
			await crm.run(
				add,
				leads.map((id) => ({ json: { id } })),
			),
			add.name,
		);
		expect(out.map((i) => i.json.id)).toEqual(leads);
		expect((await crm.requests()).filter((r) => r.url.includes('/actions/add_tags'))).toHaveLength(
			1,
		);
		for (const id of leads)
			expect(await tagsOf(id)).toEqual(expect.arrayContaining(['Bulk One', 'Bulk Two']));

		const remove = node('removeFromRecords', { recordId: '={{ $json.id }}', tagNames: 'Bulk One' });
		outputOf(
			await crm.run(
				remove,
				leads.map((id) => ({ json: { id } })),
			),
			remove.name,
		);
		for (const id of leads) expect(await tagsOf(id)).not.toContain('Bulk One');
	});

	test('the per-record limit is enforced by the sandbox: the 11th tag is refused', async () => {
		const names = Array.from({ length: 10 }, (_, i) => `Limit ${i}`).join(',');
		const fill = node('addToRecord', { recordId: leads[1], tagNames: names, overWrite: true });
		outputOf(await crm.run(fill), fill.name);
		expect(await tagsOf(leads[1])).toHaveLength(10);
		const one = node('addToRecord', { recordId: leads[1], tagNames: 'Limit extra' });
		const error = errorOf(await crm.run(one), one.name);
		expect(error?.message).toContain('LIMIT_EXCEEDED');
		expect(await tagsOf(leads[1])).toHaveLength(10);
	});

	test('over-limit input is refused by the node before any request, naming the limit', async () => {
		await crm.clearRequests();
		const longName = 'x'.repeat(26);
		const create = node('create', { tagName: longName });
		const e1 = errorOf(await crm.run(create), create.name);
		expect(e1?.message).toContain('at most 25 characters');

		const add = node('addToRecord', { recordId: leads[2], tagNames: `ok,${longName}` });
		expect(errorOf(await crm.run(add), add.name)?.message).toContain('at most 25 characters');

		const special = node('addToRecords', { recordId: leads[2], tagNames: 'bad$name' });
		expect(errorOf(await crm.run(special), special.name)?.message).toContain('special characters');

		const eleven = node('addToRecord', {
			recordId: leads[2],
			tagNames: Array.from({ length: 11 }, (_, i) => `T${i}`).join(','),
		});
		expect(errorOf(await crm.run(eleven), eleven.name)?.message).toContain('at most 10 tags');

		const many = node('create', { tagName: '={{ "Many " + $json.i }}' });
		const e5 = errorOf(
			await crm.run(
				many,
				Array.from({ length: 101 }, (_, i) => ({ json: { i } })),
			),
			many.name,
		);
		expect(e5?.message).toContain('at most 100 tags');

		expect((await crm.requests()).filter((r) => r.url.startsWith('/crm/'))).toHaveLength(0);
	});

	test('load options: the tags of the chosen module', async () => {
		const tags = await loadOptions(
			'getTags',
			{ resource: 'tag', operation: 'delete', module: 'Contacts' },
			'parameters.tagId',
		);
		expect(tags.map((t) => t.name)).toEqual(['Partner', 'VIP']);
		expect(tags.every((t) => /^\d{19}$/.test(String(t.value)))).toBe(true);
	});
});
