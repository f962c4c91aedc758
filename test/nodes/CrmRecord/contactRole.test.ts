// Contact Role resource (docs/protocol.md §5.9) through the engine against the sandbox: the settings
// list (get many, get, create batched, update, delete) and roles of contacts on a deal.
import type { INodePropertyOptions } from 'n8n-workflow';

import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Record › Contact Role', () => {
	const crm = useCrmFixture();
	let dealId: string;
	let contacts: string[];

	const roles = async (): Promise<any[]> =>
		(await crm.api('GET', '/crm/v2.1/Contacts/roles')).body.contact_roles;
	const node = (operation: string, params: Record<string, unknown> = {}, extra = {}) =>
		crm.node('crmRecord', { resource: 'contactRole', operation, ...params }, extra);

	beforeAll(async () => {
		dealId = (
			await crm.api('POST', '/crm/v2.1/Deals', {
				data: [{ Deal_Name: 'Role Deal', Stage: 'Qualification', Closing_Date: '2030-03-01' }],
			})
		).body.data[0].details.id;
		contacts = (
			await crm.api('POST', '/crm/v2.1/Contacts', {
				data: [{ Last_Name: 'Buyer' }, { Last_Name: 'Engineer' }],
			})
		).body.data.map((r: any) => r.details.id);
	});

	async function loadOptions(
		method: string,
		parameters: Record<string, unknown>,
		path: string,
	): Promise<INodePropertyOptions[]> {
		return await crm.loadOptions('crmRecord', method, parameters as any, path);
	}

	test('settings: get many (seeded), create two in one request, get, update, delete', async () => {
		const list = node('getAll');
		const seeded = outputOf(await crm.run(list), list.name).map((i) => i.json.name);
		expect(seeded).toEqual(expect.arrayContaining(['Decision Maker', 'Technical Buyer']));

		await crm.clearRequests();
		const create = node('create', { name: '={{ $json.name }}' });
		const created = outputOf(
			await crm.run(create, [{ json: { name: 'Champion' } }, { json: { name: 'Blocker' } }]),
			create.name,
		);
		expect(created.map((i) => i.json.message)).toEqual([
			'contact role added',
			'contact role added',
		]);
		expect((await crm.requests()).filter((r) => r.method === 'POST')).toHaveLength(1);
		const [championId, blockerId] = created.map((i) => i.json.id as string);

		const get = node('get', { contactRoleId: championId });
		expect(outputOf(await crm.run(get), get.name)[0].json).toMatchObject({
			id: championId,
			name: 'Champion',
		});

		const update = node('update', {
			contactRoleId: championId,
			updateFields: { name: 'Sponsor Champion', sequence_number: 42 },
		});
		outputOf(await crm.run(update), update.name);
		expect((await roles()).find((r) => r.id === championId)).toMatchObject({
			name: 'Sponsor Champion',
			sequence_number: 42,
		});

		const del = node('delete', { contactRoleId: '={{ $json.id }}' });
		outputOf(
			await crm.run(del, [{ json: { id: championId } }, { json: { id: blockerId } }]),
			del.name,
		);
		const left = (await roles()).map((r) => r.id);
		expect(left).not.toContain(championId);
		expect(left).not.toContain(blockerId);
	});

	test('a duplicate name is refused (DUPLICATE_DATA)', async () => {
		const create = node('create', { name: 'Decision Maker' });
		expect(errorOf(await crm.run(create), create.name)?.message).toContain('DUPLICATE_DATA');
	});

	test("roles on a deal: add, list the deal's contacts with roles, get one, change, remove", async () => {
		const all = await roles();
		const buyer = all.find((r) => r.name === 'Economic Buyer');
		const evaluator = all.find((r) => r.name === 'Evaluator');

		const add = node('addToDeal', {
			dealId,
			contactId: '={{ $json.contact }}',
			contactRoleId: '={{ $json.role }}',
		});
		const added = outputOf(
			await crm.run(add, [
				{ json: { contact: contacts[0], role: buyer.id } },
				{ json: { contact: contacts[1], role: evaluator.id } },
			]),
			add.name,
		);
		expect(added.map((i) => i.json.message)).toEqual(['relation added', 'relation added']);

		// v2.1 requires the contact ids (the v2 listing of every contact is in record-v2.test.ts)
		const withoutIds = node('getAllOfDeal', { dealId });
		expect(errorOf(await crm.run(withoutIds), withoutIds.name)?.message).toContain(
			'Contact IDs is required with API variant v2.1',
		);
		const list = node('getAllOfDeal', { dealId, contactIds: contacts.join(', ') });
		const listed = outputOf(await crm.run(list), list.name);
		expect(listed.map((i) => [i.json.id, (i.json.Contact_Role as any).name])).toEqual([
			[contacts[0], 'Economic Buyer'],
			[contacts[1], 'Evaluator'],
		]);

		const byIds = node('getAllOfDeal', { dealId, contactIds: contacts[1] });
		expect(outputOf(await crm.run(byIds), byIds.name).map((i) => i.json.id)).toEqual([contacts[1]]);

		const change = node('addToDeal', { dealId, contactId: contacts[1], contactRoleId: buyer.id });
		expect(outputOf(await crm.run(change), change.name)[0].json.message).toBe('relation updated');

		const getOne = node('getOfDeal', { dealId, contactId: contacts[1] });
		expect(outputOf(await crm.run(getOne), getOne.name)[0].json).toMatchObject({
			id: contacts[1],
			Contact_Role: { id: buyer.id, name: 'Economic Buyer' },
		});

		const remove = node('removeFromDeal', { dealId, contactId: contacts[0] });
		expect(outputOf(await crm.run(remove), remove.name)[0].json.message).toBe('relation removed');
		const after = await crm.api(
			'GET',
			`/crm/v2.1/Deals/${dealId}/Contact_Roles?ids=${contacts.join(',')}`,
		);
		expect(after.body.data.map((c: any) => c.id)).toEqual([contacts[1]]);
	});

	test('an unknown role is refused with INVALID_DATA', async () => {
		const add = node('addToDeal', {
			dealId,
			contactId: contacts[0],
			contactRoleId: 'No Such Role',
		});
		expect(errorOf(await crm.run(add), add.name)?.message).toContain('INVALID_DATA');
	});

	test('load options: the contact roles in their sequence', async () => {
		const roles = await loadOptions(
			'getContactRoles',
			{ resource: 'contactRole', operation: 'get' },
			'parameters.contactRoleId',
		);
		expect(roles.slice(0, 3).map((r) => r.name)).toEqual([
			'Purchasing',
			'Technical Buyer',
			'Economic Buyer',
		]);
	});
});
