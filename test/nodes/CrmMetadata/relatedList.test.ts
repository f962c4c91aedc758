import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Metadata › Related List (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	const node = (params: Record<string, unknown>, extra = {}) =>
		crm.node('crmMetadata', { resource: 'relatedList', ...params } as any, extra);

	test('Get Many lists the related lists of a module (GetRelatedLists)', async () => {
		const getAll = node({ operation: 'getAll', module: 'Contacts' });
		const out = outputOf(await crm.run(getAll), getAll.name);
		expect(out.map((i) => i.json.api_name)).toEqual([
			'Deals',
			'Products',
			'Campaigns',
			'Cases',
			'Tasks',
			'Notes',
			'Attachments',
		]);
		expect(out[4].json).toMatchObject({ display_label: 'Open Tasks', module: 'Tasks' });
	});

	test('Get answers one related list by ID (GetRelatedList); an unknown ID (204) fails, or outputs nothing with On Not Found = Return Nothing', async () => {
		const lists = (await crm.api('GET', '/crm/v2.1/settings/related_lists?module=Contacts')).body
			.related_lists;
		const get = node({ operation: 'get', module: 'Contacts', relatedListId: lists[0].id });
		const out = outputOf(await crm.run(get), get.name);
		expect(out.map((i) => i.json)).toEqual([lists[0]]);
		const unknown = node({
			operation: 'get',
			module: 'Contacts',
			relatedListId: '4876876000000000042',
		});
		expect(errorOf(await crm.run(unknown), unknown.name)?.message).toBe(
			'No related list with ID 4876876000000000042',
		);
		const nothing = node({
			operation: 'get',
			module: 'Contacts',
			relatedListId: '4876876000000000042',
			onNotFound: 'returnNothing',
		});
		expect(outputOf(await crm.run(nothing), nothing.name)).toEqual([]);
	});
});
