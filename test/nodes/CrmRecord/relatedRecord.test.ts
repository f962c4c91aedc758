// Related Record resource (docs/protocol.md §5.2) through the engine against the sandbox: link (batched),
// get many / get, relation fields, delink, the external-ID forms, and both kinds of related list
// (lookup-defined, e.g. Accounts → Contacts; relation-defined, e.g. Deals ↔ Products).
import type { INodePropertyOptions } from 'n8n-workflow';

import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Record › Related Record', () => {
	const crm = useCrmFixture();
	let dealId: string;
	let productIds: string[];
	let accountId: string;
	let contactId: string;

	const create = async (module: string, data: Record<string, unknown>[]): Promise<string[]> => {
		const res = await crm.api('POST', `/crm/v2.1/${module}`, { data });
		expect(res.status).toBe(201);
		return res.body.data.map((r: any) => r.details.id);
	};

	beforeAll(async () => {
		[dealId] = await create('Deals', [
			{ Deal_Name: 'Related Deal', Stage: 'Qualification', Closing_Date: '2030-01-31' },
		]);
		productIds = await create('Products', [
			{ Product_Name: 'Related Widget', Product_Code: 'RW-1' },
			{ Product_Name: 'Related Gadget', Product_Code: 'RG-2' },
			{ Product_Name: 'Related Gizmo', Product_Code: 'RZ-3' },
		]);
		[accountId] = await create('Accounts', [
			{ Account_Name: 'Related Accounts Ltd', External_Account_ID: 'ACC-REL-1' },
		]);
		[contactId] = await create('Contacts', [
			{ Last_Name: 'Linked', External_Contact_ID: 'CON-REL-1' },
		]);
	});

	async function loadOptions(
		method: string,
		parameters: Record<string, unknown>,
		path: string,
	): Promise<INodePropertyOptions[]> {
		return await crm.loadOptions('crmRecord', method, parameters as any, path);
	}

	test('link many products to a deal in one request; get many lists them; get one; delink removes', async () => {
		await crm.clearRequests();
		const link = crm.node('crmRecord', {
			resource: 'relatedRecord',
			operation: 'link',
			module: 'Deals',
			recordId: dealId,
			relatedList: 'Products',
			relatedRecordId: '={{ $json.id }}',
		});
		const linked = outputOf(
			await crm.run(
				link,
				productIds.map((id) => ({ json: { id } })),
			),
			link.name,
		);
		expect(linked.map((i) => i.json)).toEqual(
			productIds.map((id) =>
				expect.objectContaining({ id, message: 'relation added', status: 'success' }),
			),
		);
		expect(
			(await crm.requests()).filter((r) => r.method === 'PUT' && r.url.includes('/Products')),
		).toHaveLength(1);

		const getAll = crm.node('crmRecord', {
			resource: 'relatedRecord',
			operation: 'getAll',
			module: 'Deals',
			recordId: dealId,
			relatedList: 'Products',
			returnAll: true,
		});
		const listed = outputOf(await crm.run(getAll), getAll.name);
		expect(listed.map((i) => i.json.id).sort()).toEqual([...productIds].sort());
		expect(listed[0].json.Product_Name).toMatch(/^Related /);

		// the link is symmetric: the product lists the deal
		const back = await crm.api('GET', `/crm/v2.1/Products/${productIds[0]}/Deals`);
		expect(back.body.data.map((r: any) => r.id)).toEqual([dealId]);

		const get = crm.node('crmRecord', {
			resource: 'relatedRecord',
			operation: 'get',
			module: 'Deals',
			recordId: dealId,
			relatedList: 'Products',
			relatedRecordId: productIds[1],
		});
		const [one] = outputOf(await crm.run(get), get.name);
		expect(one.json).toMatchObject({ id: productIds[1], Product_Name: 'Related Gadget' });

		const limited = crm.node('crmRecord', {
			resource: 'relatedRecord',
			operation: 'getAll',
			module: 'Deals',
			recordId: dealId,
			relatedList: 'Products',
			returnAll: false,
			limit: 2,
		});
		expect(outputOf(await crm.run(limited), limited.name)).toHaveLength(2);

		const delink = crm.node('crmRecord', {
			resource: 'relatedRecord',
			operation: 'delink',
			module: 'Deals',
			recordId: dealId,
			relatedList: 'Products',
			relatedRecordId: '={{ $json.id }}',
		});
		const removed = outputOf(
			await crm.run(delink, [{ json: { id: productIds[0] } }, { json: { id: productIds[2] } }]),
			delink.name,
		);
		expect(removed.map((i) => i.json.message)).toEqual(['relation removed', 'relation removed']);
		const after = await crm.api('GET', `/crm/v2.1/Deals/${dealId}/Products`);
		expect(after.body.data.map((r: any) => r.id)).toEqual([productIds[1]]);
	});

	test('relation fields: a contact linked to a deal carries its Contact_Role', async () => {
		const link = crm.node('crmRecord', {
			resource: 'relatedRecord',
			operation: 'link',
			module: 'Deals',
			recordId: dealId,
			relatedList: 'Contact_Roles',
			relatedRecordId: contactId,
			relationFields: { field: [{ name: 'Contact_Role', value: 'Decision Maker' }] },
		});
		outputOf(await crm.run(link), link.name);
		const listed = await crm.api('GET', `/crm/v2.1/Deals/${dealId}/Contact_Roles?ids=${contactId}`);
		expect(listed.body.data).toEqual([
			expect.objectContaining({
				id: contactId,
				Contact_Role: expect.objectContaining({ name: 'Decision Maker' }),
			}),
		]);
	});

	test('a lookup-defined list: linking sets the lookup on the related record, delinking clears it', async () => {
		const link = crm.node('crmRecord', {
			resource: 'relatedRecord',
			operation: 'link',
			module: 'Accounts',
			recordId: accountId,
			relatedList: 'Contacts',
			relatedRecordId: contactId,
		});
		outputOf(await crm.run(link), link.name);
		const contact = (await crm.api('GET', `/crm/v2.1/Contacts/${contactId}`)).body.data[0];
		expect(contact.Account_Name).toMatchObject({ id: accountId, name: 'Related Accounts Ltd' });

		const getAll = crm.node('crmRecord', {
			resource: 'relatedRecord',
			operation: 'getAll',
			module: 'Accounts',
			recordId: accountId,
			relatedList: 'Contacts',
			returnAll: true,
		});
		expect(outputOf(await crm.run(getAll), getAll.name).map((i) => i.json.id)).toEqual([contactId]);

		const delink = crm.node('crmRecord', {
			resource: 'relatedRecord',
			operation: 'delink',
			module: 'Accounts',
			recordId: accountId,
			relatedList: 'Contacts',
			relatedRecordId: contactId,
		});
		outputOf(await crm.run(delink), delink.name);
		expect(
			(await crm.api('GET', `/crm/v2.1/Contacts/${contactId}`)).body.data[0].Account_Name,
		).toBeNull();
		expect((await crm.api('GET', `/crm/v2.1/Accounts/${accountId}/Contacts`)).status).toBe(204);
	});

	test('external-ID forms: parent and related records addressed by external values (X-EXTERNAL)', async () => {
		const options = {
			parentExternalField: 'External_Account_ID',
			relatedExternalField: 'External_Contact_ID',
		};
		const link = crm.node('crmRecord', {
			resource: 'relatedRecord',
			operation: 'link',
			module: 'Accounts',
			recordId: 'ACC-REL-1',
			relatedList: 'Contacts',
			relatedRecordId: 'CON-REL-1',
			options,
		});
		const [linked] = outputOf(await crm.run(link), link.name);
		expect(linked.json).toMatchObject({ id: contactId, status: 'success' });
		expect((linked.json.details as any).External_Contact_ID).toBe('CON-REL-1');

		const getAll = crm.node('crmRecord', {
			resource: 'relatedRecord',
			operation: 'getAll',
			module: 'Accounts',
			recordId: 'ACC-REL-1',
			relatedList: 'Contacts',
			returnAll: true,
			options: { parentExternalField: 'External_Account_ID' },
		});
		expect(
			outputOf(await crm.run(getAll), getAll.name).map((i) => i.json.External_Contact_ID),
		).toEqual(['CON-REL-1']);

		const get = crm.node('crmRecord', {
			resource: 'relatedRecord',
			operation: 'get',
			module: 'Accounts',
			recordId: 'ACC-REL-1',
			relatedList: 'Contacts',
			relatedRecordId: 'CON-REL-1',
			options,
		});
		expect(outputOf(await crm.run(get), get.name)[0].json.id).toBe(contactId);

		const delink = crm.node('crmRecord', {
			resource: 'relatedRecord',
			operation: 'delink',
			module: 'Accounts',
			recordId: 'ACC-REL-1',
			relatedList: 'Contacts',
			relatedRecordId: 'CON-REL-1',
			options,
		});
		expect(outputOf(await crm.run(delink), delink.name)[0].json).toMatchObject({
			id: contactId,
			message: 'relation removed',
		});
		expect((await crm.api('GET', `/crm/v2.1/Accounts/${accountId}/Contacts`)).status).toBe(204);
	});

	test('a non-numeric record ID without an external field is refused before sending', async () => {
		await crm.clearRequests();
		const get = crm.node('crmRecord', {
			resource: 'relatedRecord',
			operation: 'getAll',
			module: 'Accounts',
			recordId: 'ACC-REL-1',
			relatedList: 'Contacts',
		});
		const error = errorOf(await crm.run(get), get.name);
		expect(error?.message).toContain('Record ID must be digits');
		expect((await crm.requests()).filter((r) => r.url.startsWith('/crm/'))).toHaveLength(0);
	});

	test('deleting a deal removes its links (cascade)', async () => {
		const [otherDeal] = await create('Deals', [
			{ Deal_Name: 'Doomed Deal', Stage: 'Qualification', Closing_Date: '2030-01-31' },
		]);
		await crm.api('PUT', `/crm/v2.1/Deals/${otherDeal}/Products`, {
			data: [{ id: productIds[2] }],
		});
		expect(
			(await crm.api('GET', `/crm/v2.1/Products/${productIds[2]}/Deals`)).body.data.map(
				(r: any) => r.id,
			),
		).toContain(otherDeal);
		await crm.api('DELETE', `/crm/v2.1/Deals/${otherDeal}`);
		expect((await crm.api('GET', `/crm/v2.1/Products/${productIds[2]}/Deals`)).status).toBe(204);
	});

	test('load options: the related lists of the chosen module (attachments left out)', async () => {
		const lists = await loadOptions(
			'getRelatedLists',
			{ resource: 'relatedRecord', operation: 'getAll', module: 'Deals' },
			'parameters.relatedList',
		);
		expect(lists.map((l) => l.value)).toEqual(
			expect.arrayContaining(['Contact_Roles', 'Products', 'Notes', 'Quotes']),
		);
		expect(lists.map((l) => l.value)).not.toContain('Attachments');
		expect(lists.find((l) => l.value === 'Contact_Roles')!.name).toBe('Contact Roles');
	});
});
