// The record operations under a v2 credential (docs/protocol.md §13): every request goes to /crm/v2,
// the operations that exist in both variants work, v2.1-only ones are refused before sending.
import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { getRecordMappingFields } from '../../../nodes/shared/methods/resourceMapping';
import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';
import { PNG, mapper, pairs } from './record-helpers';

describe('CRM Record › API variant v2', () => {
	const crm = useCrmFixture({ variant: 'v2', sandbox: { jobStepMs: 3_600_000 } });

	const node = (parameters: Record<string, unknown>) =>
		crm.node('crmRecord', { resource: 'record', ...parameters });
	const record = async (module: string, id: string) =>
		(await crm.api('GET', `/crm/v2/${module}/${id}`)).body?.data?.[0];

	test('create (mapper), get by external ID, update, upsert, search, get many and delete work under /crm/v2', async () => {
		await crm.clearRequests();
		const create = node({
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'mapper',
			columns: mapper(
				{
					Last_Name: '={{ $json.last }}',
					External_Lead_ID: '={{ $json.ext }}',
					No_of_Employees: 12,
				},
				[{ id: 'No_of_Employees', type: 'number' }],
			),
		});
		const created = outputOf(
			await crm.run(create, [
				{ json: { last: 'Vee Two', ext: 'V2-1' } },
				{ json: { last: 'Vee Two', ext: 'V2-2' } },
			]),
			create.name,
		);
		expect(created.map((o) => o.json.status)).toEqual(['success', 'success']);
		const [a, b] = created.map((o) => o.json.id as string);

		const get = node({
			operation: 'get',
			module: 'Leads',
			getBy: 'externalId',
			externalField: 'External_Lead_ID',
			externalValue: 'V2-2',
		});
		expect(outputOf(await crm.run(get), get.name)[0].json).toMatchObject({
			id: b,
			No_of_Employees: 12,
		});

		const update = node({
			operation: 'update',
			module: 'Leads',
			fieldsMode: 'pairs',
			updateBy: 'id',
			recordId: a,
			fieldsUi: pairs({ City: 'Dallas' }),
		});
		outputOf(await crm.run(update), update.name);
		expect((await record('Leads', a)).City).toBe('Dallas');

		const upsert = node({
			operation: 'upsert',
			module: 'Leads',
			fieldsMode: 'json',
			recordJson: '{"Last_Name": "Vee Two", "External_Lead_ID": "V2-1", "City": "Waco"}',
			options: { duplicate_check_fields: ['External_Lead_ID'] },
		});
		expect(outputOf(await crm.run(upsert), upsert.name)[0].json).toMatchObject({
			id: a,
			action: 'update',
			duplicate_field: 'External_Lead_ID',
		});

		const search = node({
			operation: 'search',
			module: 'Leads',
			searchBy: 'rawCriteria',
			criteria: '(Last_Name:equals:Vee Two)',
			returnAll: true,
		});
		expect(
			outputOf(await crm.run(search), search.name)
				.map((o) => o.json.id)
				.sort(),
		).toEqual([a, b].sort());

		const getAll = node({
			operation: 'getAll',
			module: 'Leads',
			returnAll: true,
			options: { ids: `${a},${b}`, fields: ['City'] },
		});
		expect(
			outputOf(await crm.run(getAll), getAll.name)
				.map((o) => o.json.City)
				.sort(),
		).toEqual(['Waco', undefined].sort());

		const del = node({
			operation: 'delete',
			module: 'Leads',
			deleteBy: 'id',
			recordId: '={{ $json.id }}',
			options: { wf_trigger: true },
		});
		outputOf(await crm.run(del, [{ json: { id: a } }, { json: { id: b } }]), del.name);
		const listDeleted = node({
			operation: 'listDeleted',
			module: 'Leads',
			type: 'recycle',
			returnAll: true,
		});
		expect(outputOf(await crm.run(listDeleted), listDeleted.name).map((o) => o.json.id)).toEqual(
			expect.arrayContaining([a, b]),
		);

		const api = (await crm.requests()).filter((r) => r.url.startsWith('/crm/'));
		expect(api.length).toBeGreaterThan(8);
		expect(api.every((r) => r.url.startsWith('/crm/v2/'))).toBe(true);
	});

	test("mass update by territory sends v2's Territory object; convert lead and photos work", async () => {
		const ids = (await crm.api('GET', '/crm/v2/Accounts?per_page=2')).body.data.map(
			(d: any) => d.id,
		);
		// territory assignment is v2.1 only: set it up through v2.1 directly
		await fetch(`${crm.url}/crm/v2.1/Accounts/actions/assign_territories`, {
			method: 'POST',
			headers: {
				Authorization: `Bearer ${(crm.helper.store.crmOAuth2Api.oauthTokenData as any).access_token}`,
				'Content-Type': 'application/json',
			},
			body: JSON.stringify({
				data: ids.map((id: string) => ({ id, Territories: [{ id: '4876876000000361003' }] })),
			}),
		});
		const mass = node({
			operation: 'massUpdate',
			module: 'Accounts',
			massUpdateBy: 'territory',
			territoryId: '4876876000000361003',
			includeChild: true,
			fieldsMode: 'pairs',
			fieldsUi: pairs({ Rating: 'Acquired' }),
		});
		await crm.clearRequests();
		const [out] = outputOf(await crm.run(mass), mass.name);
		expect(
			(await crm.requests())
				.filter((r) => r.url.endsWith('/actions/mass_update'))
				.map((r) => [r.method, r.url, r.status]),
		).toEqual([['POST', '/crm/v2/Accounts/actions/mass_update', 202]]);
		const job = (
			await crm.api('GET', `/crm/v2/Accounts/actions/mass_update?job_id=${out.json.job_id}`)
		).body.data[0];
		expect(job).toMatchObject({ Total_Count: 2, Status: 'SCHEDULED' });

		const lead = (
			await crm.api('POST', '/crm/v2/Leads', {
				data: [{ Last_Name: 'Convert Vee', Company: 'Vee Corp' }],
			})
		).body.data[0].details.id;
		const convert = node({ operation: 'convertLead', recordId: lead });
		const [conv] = outputOf(await crm.run(convert), convert.name);
		expect((await record('Contacts', conv.json.Contacts as string)).Last_Name).toBe('Convert Vee');

		const upload = node({
			operation: 'uploadPhoto',
			module: 'Accounts',
			recordId: ids[0],
			binaryPropertyName: 'data',
		});
		outputOf(
			await crm.run(upload, [
				{
					json: {},
					binary: {
						data: { data: PNG.toString('base64'), mimeType: 'image/png', fileName: 'logo.png' },
					},
				},
			]),
			upload.name,
		);
		const download = node({
			operation: 'downloadPhoto',
			module: 'Accounts',
			recordId: ids[0],
			binaryPropertyName: 'data',
		});
		expect(outputOf(await crm.run(download), download.name)[0].binary?.data.fileName).toBe(
			'logo.png',
		);
	});

	test('v2.1-only operations (Count, territories) are refused with a clear message before sending', async () => {
		await crm.clearRequests();
		const count = node({ operation: 'count', module: 'Leads', searchBy: 'none' });
		const countError = errorOf(await crm.run(count), count.name);
		expect(countError?.message).toContain('needs API variant v2.1');
		const assign = node({
			operation: 'assignTerritories',
			module: 'Leads',
			recordId: '4876876000000611001',
			territoryIds: '4876876000000361003',
		});
		expect(errorOf(await crm.run(assign), assign.name)?.message).toContain(
			'needs API variant v2.1',
		);
		const remove = node({
			operation: 'removeTerritories',
			module: 'Leads',
			recordId: '4876876000000611001',
			territoryIds: '4876876000000361003',
		});
		expect(errorOf(await crm.run(remove), remove.name)?.description).toContain('v2.1');
		expect((await crm.requests()).filter((r) => r.url.startsWith('/crm/'))).toHaveLength(0);
	});

	test('the resource mapper loads typed fields: mandatory required on create, picklist values, update matches on ID or external ID', async () => {
		const context = (operation: string) =>
			({
				getCurrentNodeParameter: (name: string) => ({ module: 'Leads', operation })[name],
				getNode: () => crm.node('crmRecord', {}),
				getCredentials: async () => crm.helper.store.crmOAuth2Api,
				helpers: {
					httpRequestWithAuthentication: async (_type: string, options: any) => {
						const url = new URL(options.url);
						for (const [k, v] of Object.entries(options.qs ?? {}))
							url.searchParams.set(k, String(v));
						const res = await fetch(url, {
							headers: {
								Authorization: `Bearer ${(crm.helper.store.crmOAuth2Api.oauthTokenData as any).access_token}`,
							},
						});
						const text = await res.text();
						if (res.status >= 400)
							throw Object.assign(new Error(`HTTP ${res.status}`), {
								httpCode: String(res.status),
								context: { data: JSON.parse(text) },
							});
						return {
							statusCode: res.status,
							headers: {},
							body: text ? JSON.parse(text) : undefined,
						};
					},
				},
			}) as unknown as ILoadOptionsFunctions;
		const create = await getRecordMappingFields.call(context('create'));
		const byId = Object.fromEntries(create.fields.map((f) => [f.id, f]));
		expect(byId.Last_Name).toMatchObject({ required: true, type: 'string' });
		expect(byId.Email).toMatchObject({ required: false });
		expect(byId.No_of_Employees.type).toBe('number');
		expect(byId.Annual_Revenue.type).toBe('number');
		expect(byId.Email_Opt_Out.type).toBe('boolean');
		expect(byId.Last_Contacted_Date.type).toBe('string'); // date-only: no date-time picker (test/nodes/editor.test.ts)
		expect(byId.Follow_Up_Time.type).toBe('dateTime');
		expect(byId.Lead_Source.type).toBe('options');
		expect(byId.Lead_Source.options).toEqual(
			expect.arrayContaining([{ name: 'Web', value: 'Web' }]),
		);
		expect(byId.Interests.type).toBe('string'); // comma-separated (test/nodes/editor.test.ts)
		expect(byId.Created_Time).toBeUndefined();
		const update = await getRecordMappingFields.call(context('update'));
		const matchable = update.fields.filter((f) => f.canBeUsedToMatch).map((f) => f.id);
		expect(matchable.sort()).toEqual(['External_Lead_ID', 'id']);
		expect(update.fields.find((f) => f.id === 'Last_Name')?.required).toBe(false);
	});

	test('contact roles of a deal: without contact IDs, v2 lists every contact of the deal with its role', async () => {
		const dealId = (
			await crm.api('POST', '/crm/v2/Deals', {
				data: [{ Deal_Name: 'V2 Roles', Stage: 'Qualification' }],
			})
		).body.data[0].details.id;
		const contacts = (
			await crm.api('POST', '/crm/v2/Contacts', {
				data: [{ Last_Name: 'V2 Buyer' }, { Last_Name: 'V2 User' }],
			})
		).body.data.map((r: any) => r.details.id);
		const role = (await crm.api('GET', '/crm/v2/Contacts/roles')).body.contact_roles[0];
		for (const contact of contacts) {
			expect(
				(
					await crm.api('PUT', `/crm/v2/Deals/${dealId}/Contact_Roles/${contact}`, {
						data: [{ Contact_Role: role.id }],
					})
				).status,
			).toBe(200);
		}
		const list = crm.node('crmRecord', {
			resource: 'contactRole',
			operation: 'getAllOfDeal',
			dealId,
		});
		const listed = outputOf(await crm.run(list), list.name);
		expect(listed.map((i) => [i.json.id, (i.json.Contact_Role as any).id]).sort()).toEqual(
			contacts.map((c: string) => [c, role.id]).sort(),
		);
	});
});
