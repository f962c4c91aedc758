/* eslint-disable @typescript-eslint/no-explicit-any */
import { crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { outputOf } from '../../harness/n8n';

describe('CRM Metadata › Related List (engine → sandbox over HTTP)', () => {
	let crm: CrmFixture;
	beforeAll(async () => {
		crm = await crmFixture();
	});
	afterAll(async () => await crm.close());

	const node = (params: Record<string, unknown>, extra = {}) => crm.node('crmMetadata', { resource: 'relatedList', ...params } as any, extra);

	test('Get Many lists the related lists of a module (GetRelatedLists)', async () => {
		const getAll = node({ operation: 'getAll', module: 'Contacts' });
		const out = outputOf(await crm.run(getAll), getAll.name);
		expect(out.map((i) => i.json.api_name)).toEqual(['Deals', 'Products', 'Campaigns', 'Cases', 'Tasks', 'Notes', 'Attachments']);
		expect(out[4].json).toMatchObject({ display_label: 'Open Tasks', module: 'Tasks' });
	});

	test('Get answers one related list by ID (GetRelatedList); an unknown ID outputs nothing (204)', async () => {
		const lists = (await crm.api('GET', '/crm/v2.1/settings/related_lists?module=Contacts')).body.related_lists;
		const get = node({ operation: 'get', module: 'Contacts', relatedListId: lists[0].id });
		const out = outputOf(await crm.run(get), get.name);
		expect(out.map((i) => i.json)).toEqual([lists[0]]);
		const unknown = node({ operation: 'get', module: 'Contacts', relatedListId: '4876876000000000042' });
		expect(outputOf(await crm.run(unknown), unknown.name)).toEqual([]);
	});
});
