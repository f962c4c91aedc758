// Module and record pickers: from version 1.2 (CRM Record) and 1.1 (CRM Bulk) resource locators
// (From List, By ID / By API Name, By URL), earlier versions the plain dropdown and ID text saved
// workflows hold. Both shapes run against the sandbox; the lists load as the editor asks for them.
import { LoadOptionsContext } from 'n8n-core';
import type { ILoadOptionsFunctions, INodeListSearchResult, INodeProperties } from 'n8n-workflow';

import { MODULE_URL_REGEX, RECORD_URL_REGEX } from '../../../nodes/shared/description/properties';
import { PACKAGE, useCrmFixture } from '../../harness/crm';
import {
	buildAdditionalData,
	buildWorkflow,
	ensureExpressionEngine,
	errorOf,
	outputOf,
} from '../../harness/n8n';
import { pairs } from './record-helpers';

const WEB = 'https://crm.example.com/crm/org20261126/tab';

/** A resource locator value as the editor saves it (the URL mode carries its pattern as `__regex`). */
const rl = (mode: 'list' | 'id' | 'url', value: string, regex?: string) => ({
	__rl: true,
	mode,
	value,
	...(mode === 'list' ? { cachedResultName: value } : {}),
	...(regex ? { __regex: regex } : {}),
});

describe('CRM Record › module and record pickers', () => {
	const crm = useCrmFixture();
	let leads: Array<{ id: string; name: string }>;

	beforeAll(async () => {
		const created = await crm.api('POST', '/crm/v2.1/Leads', {
			data: [
				{ Last_Name: 'Pickerton', First_Name: 'Pia', Company: 'Pick Co' },
				{ Last_Name: 'Locatorson', First_Name: 'Lou', Company: 'Locate Ltd' },
			],
		});
		leads = created.body.data.map((d: any, i: number) => ({
			id: d.details.id,
			name: ['Pickerton', 'Locatorson'][i],
		}));
	});

	const node = (version: number, parameters: Record<string, unknown>, name = 'crmRecord') =>
		crm.node(name, { resource: 'record', ...parameters }, { typeVersion: version });
	const lead = async (id: string) =>
		(await crm.api('GET', `/crm/v2.1/Leads/${id}`)).body?.data?.[0];

	/** a listSearch method as the editor calls it when the dropdown opens (or its search text changes) */
	const listSearch = async (
		nodeName: string,
		method: string,
		parameters: Record<string, any>,
		filter?: string,
		token?: string,
	) => {
		const n = crm.node(nodeName, parameters, { typeVersion: 1.2 });
		const workflow = buildWorkflow({ nodes: [n], nodeTypes: crm.nodeTypes });
		const additionalData = buildAdditionalData({ credentialsHelper: crm.helper });
		additionalData.currentNodeParameters = n.parameters;
		const ctx = new LoadOptionsContext(workflow, n, additionalData, 'parameters.recordId');
		const type = crm.nodeTypes[`${PACKAGE}.${nodeName}`] as any;
		await ensureExpressionEngine();
		return (await workflow.expression.withIsolate(
			async () =>
				await type.methods.listSearch[method].call(
					ctx as unknown as ILoadOptionsFunctions,
					filter,
					token,
				),
		)) as INodeListSearchResult;
	};

	test('the parameters per version: 1.1 a module dropdown and an ID text, 1.2 resource locators with From List, By ID, By URL', () => {
		const properties = (
			crm.nodeTypes[`${PACKAGE}.crmRecord`].description.properties as INodeProperties[]
		).filter(
			(p) =>
				p.displayOptions?.show?.resource?.includes('record') &&
				p.displayOptions?.show?.operation?.includes('get'),
		);
		const versions = (p: INodeProperties) => JSON.stringify(p.displayOptions?.show?.['@version']);
		const module = properties.filter((p) => p.name === 'module');
		expect(module.map((p) => [p.type, versions(p)])).toEqual([
			['options', JSON.stringify([{ _cnd: { lt: 1.2 } }])],
			['resourceLocator', JSON.stringify([{ _cnd: { gte: 1.2 } }])],
		]);
		const recordId = properties.filter((p) => p.name === 'recordId');
		expect(recordId.map((p) => p.type)).toEqual(['string', 'resourceLocator']);
		expect(recordId[1].modes?.map((m) => m.displayName)).toEqual(['From List', 'By ID', 'By URL']);
		// On Not Found sits next to the ID, before Options
		const names = properties.map((p) => p.name);
		expect(names.indexOf('onNotFound')).toBeLessThan(names.indexOf('options'));
		expect(names.indexOf('onNotFound')).toBeGreaterThan(names.lastIndexOf('recordId'));
		expect(properties.find((p) => p.type === 'notice')?.displayName).toBe(
			'To look a record up by e-mail, use Search',
		);
	});

	test('the web-app address: module and record ID are its last path segments', () => {
		const url = `${WEB}/Leads/4876876000000611001`;
		expect(new RegExp(MODULE_URL_REGEX).exec(url)?.[1]).toBe('Leads');
		expect(new RegExp(RECORD_URL_REGEX).exec(url)?.[1]).toBe('4876876000000611001');
		expect(new RegExp(MODULE_URL_REGEX).exec(`${WEB}/Sales_Orders?view=list`)?.[1]).toBe(
			'Sales_Orders',
		);
		expect(new RegExp(RECORD_URL_REGEX).exec(`${WEB}/Deals/4876876000000611042/`)?.[1]).toBe(
			'4876876000000611042',
		);
		expect(new RegExp(RECORD_URL_REGEX).exec(`${WEB}/Leads`)).toBeNull();
	});

	test('a workflow saved by version 1.1 (plain module and ID) still runs', async () => {
		const get = node(1.1, {
			operation: 'get',
			module: 'Leads',
			getBy: 'id',
			recordId: leads[0].id,
		});
		expect(outputOf(await crm.run(get), get.name)[0].json).toMatchObject({
			id: leads[0].id,
			Last_Name: 'Pickerton',
		});
		const update = node(1.1, {
			operation: 'update',
			module: 'Leads',
			fieldsMode: 'pairs',
			updateBy: 'id',
			recordId: leads[0].id,
			fieldsUi: pairs({ City: 'Oldtown' }),
		});
		outputOf(await crm.run(update), update.name);
		expect((await lead(leads[0].id)).City).toBe('Oldtown');
	});

	test('version 1.2: Get with the module from the list and the record by ID, from the list, and by URL', async () => {
		for (const recordId of [
			rl('id', leads[0].id),
			rl('list', leads[0].id),
			rl('url', `${WEB}/Leads/${leads[0].id}`, RECORD_URL_REGEX),
		]) {
			const get = node(1.2, {
				operation: 'get',
				module: rl('list', 'Leads'),
				getBy: 'id',
				recordId,
			});
			expect(outputOf(await crm.run(get), get.name)[0].json).toMatchObject({
				id: leads[0].id,
				Last_Name: 'Pickerton',
			});
		}
	});

	test("version 1.2: Get with the module by the record's address and by API name, the ID by an expression", async () => {
		const byUrl = node(1.2, {
			operation: 'get',
			module: rl('url', `${WEB}/Leads/${leads[1].id}`, MODULE_URL_REGEX),
			getBy: 'id',
			recordId: rl('url', `${WEB}/Leads/${leads[1].id}`, RECORD_URL_REGEX),
		});
		expect(outputOf(await crm.run(byUrl), byUrl.name)[0].json).toMatchObject({
			id: leads[1].id,
			Last_Name: 'Locatorson',
		});
		const byName = node(1.2, {
			operation: 'get',
			module: rl('id', 'Leads'),
			getBy: 'id',
			recordId: rl('id', `={{ "${leads[1].id}" }}`),
		});
		expect(outputOf(await crm.run(byName), byName.name)[0].json).toMatchObject({ id: leads[1].id });
	});

	test('version 1.2: Update and Delete (custom operations) read URL values through n8n, with or without the saved pattern', async () => {
		const update = node(1.2, {
			operation: 'update',
			module: rl('url', `${WEB}/Leads`),
			fieldsMode: 'pairs',
			updateBy: 'id',
			recordId: rl('url', `${WEB}/Leads/${leads[0].id}?tab=details`),
			fieldsUi: pairs({ City: 'Newtown' }),
		});
		expect(outputOf(await crm.run(update), update.name)[0].json).toMatchObject({
			id: leads[0].id,
			City: 'Newtown',
		});
		expect((await lead(leads[0].id)).City).toBe('Newtown');

		const extra = (await crm.api('POST', '/crm/v2.1/Leads', { data: [{ Last_Name: 'Deletable' }] }))
			.body.data[0].details.id;
		const del = node(1.2, {
			operation: 'delete',
			module: rl('list', 'Leads'),
			deleteBy: 'id',
			recordId: rl('url', `${WEB}/Leads/${extra}`),
		});
		expect(outputOf(await crm.run(del), del.name)[0].json).toMatchObject({
			id: extra,
			status: 'success',
		});
		expect(await lead(extra)).toBeUndefined();
	});

	test("version 1.2: an address that is not a record's is refused before anything is sent", async () => {
		await crm.clearRequests();
		const del = node(1.2, {
			operation: 'delete',
			module: rl('list', 'Leads'),
			deleteBy: 'id',
			recordId: rl('url', `${WEB}/Leads`),
		});
		// n8n checks the mode's pattern before running the workflow
		await expect(crm.run(del)).rejects.toThrow(
			"Not a record address of the CRM's web app (no record ID in it)",
		);
		// an expression yielding a wrong address: the node's own refusal, naming the parameter
		const late = node(1.2, {
			operation: 'delete',
			module: rl('list', 'Leads'),
			deleteBy: 'id',
			recordId: rl('url', `={{ "${WEB}/Leads" }}`),
		});
		expect(errorOf(await crm.run(late), late.name)?.message).toMatch(
			/Record parameter's value is invalid/,
		);
		expect((await crm.requests()).filter((r) => r.method === 'DELETE')).toEqual([]);
	});

	test('version 1.2: Convert Lead takes the lead from the list of leads; related records by locator', async () => {
		const { body } = await crm.api('POST', '/crm/v2.1/Leads', {
			data: [{ Last_Name: 'Convertible', Company: 'Conv Inc' }],
		});
		const id = body.data[0].details.id;
		const convert = node(1.2, { operation: 'convertLead', recordId: rl('list', id) });
		const [out] = outputOf(await crm.run(convert), convert.name);
		expect(
			(await crm.api('GET', `/crm/v2.1/Contacts/${out.json.Contacts as string}`)).body.data[0]
				.Last_Name,
		).toBe('Convertible');

		const related = node(1.2, {
			resource: 'relatedRecord',
			operation: 'getAll',
			module: rl('list', 'Accounts'),
			recordId: rl('id', out.json.Accounts as string),
			relatedList: 'Contacts',
			returnAll: true,
		});
		expect(outputOf(await crm.run(related), related.name).map((o) => o.json.id)).toContain(
			out.json.Contacts,
		);
	});

	test('From List: modules by plural label (searchable); records by their display field, paged, searchable by word', async () => {
		const modules = await listSearch('crmRecord', 'searchModules', {});
		expect(modules.results).toEqual(
			expect.arrayContaining([
				{ name: 'Leads', value: 'Leads' },
				{ name: 'Deals', value: 'Deals' },
			]),
		);
		expect(
			(await listSearch('crmRecord', 'searchModules', {}, 'dea')).results.map((m) => m.value),
		).toEqual(['Deals']);

		const first = await listSearch('crmRecord', 'searchRecords', { module: rl('list', 'Leads') });
		expect(first.results.length).toBeGreaterThan(0);
		const all = [...first.results];
		for (let token = first.paginationToken; token; ) {
			const next = await listSearch(
				'crmRecord',
				'searchRecords',
				{ module: rl('list', 'Leads') },
				undefined,
				token,
			);
			all.push(...next.results);
			token = next.paginationToken;
		}
		expect(all).toEqual(
			expect.arrayContaining([
				{ name: 'Pickerton', value: leads[0].id },
				{ name: 'Locatorson', value: leads[1].id },
			]),
		);

		const found = await listSearch(
			'crmRecord',
			'searchRecords',
			{ module: rl('id', 'Leads') },
			'Locator',
		);
		expect(found.results).toEqual([{ name: 'Locatorson', value: leads[1].id }]);
		// a module of another display field: Deals by Deal_Name
		const deal = (await crm.api('GET', '/crm/v2.1/Deals?per_page=1&fields=Deal_Name')).body.data[0];
		const deals = await listSearch(
			'crmRecord',
			'searchRecords',
			{ module: rl('list', 'Deals') },
			String(deal.Deal_Name),
		);
		expect(deals.results).toContainEqual({ name: deal.Deal_Name, value: deal.id });
		// no module chosen yet: an empty list, no request
		expect(
			(await listSearch('crmRecord', 'searchRecords', { module: rl('list', '') })).results,
		).toEqual([]);
		expect((await listSearch('crmRecord', 'searchLeads', {}, 'Pickerton')).results).toEqual([
			{ name: 'Pickerton', value: leads[0].id },
		]);
	});

	test('version 1.2: notes, attachments, and the deal and contact of a contact role are pickers too (From List, By ID; records also By URL)', async () => {
		const leadId = leads[1].id;
		const noteNode = (parameters: Record<string, unknown>, version = 1.2) =>
			crm.node('crmRecord', { resource: 'note', ...parameters }, { typeVersion: version });
		// Create: the parent record by its address
		const create = noteNode({
			operation: 'create',
			inputMode: 'oneNote',
			module: rl('list', 'Leads'),
			recordId: rl('url', `${WEB}/Leads/${leadId}`, RECORD_URL_REGEX),
			noteTitle: 'Picker call',
			noteContent: 'Talked about pickers',
		});
		const noteId = String(outputOf(await crm.run(create), create.name)[0].json.id);
		expect((await crm.api('GET', `/crm/v2.1/Notes/${noteId}`)).body.data[0]).toMatchObject({
			Note_Title: 'Picker call',
			Parent_Id: { id: leadId },
		});
		// From List: notes by title and record, searchable by title or content
		const notes = await listSearch(
			'crmRecord',
			'searchNotes',
			{ resource: 'note' },
			'about pickers',
		);
		expect(notes.results).toEqual([{ name: 'Picker call (Lou Locatorson)', value: noteId }]);
		for (const picked of [rl('list', noteId), rl('id', noteId)]) {
			const get = noteNode({ operation: 'get', noteId: picked });
			expect(outputOf(await crm.run(get), get.name)[0].json).toMatchObject({
				id: noteId,
				Note_Title: 'Picker call',
			});
		}
		// version 1.1 keeps the text field: the same note by its plain ID; 1.2's not-found names the ID
		const plain = noteNode({ operation: 'get', noteId }, 1.1);
		expect(outputOf(await crm.run(plain), plain.name)[0].json).toMatchObject({ id: noteId });
		const missing = noteNode({ operation: 'get', noteId: rl('id', '4876876000000999999') });
		expect(errorOf(await crm.run(missing), missing.name)?.message).toContain(
			'No note with ID 4876876000000999999',
		);

		// attachments of the chosen record, by file name
		const upload = crm.node(
			'crmRecord',
			{
				resource: 'attachment',
				operation: 'uploadLink',
				module: 'Leads',
				recordId: leadId,
				attachmentUrl: 'https://example.com/docs/picker-guide.pdf',
			},
			{ typeVersion: 1.1 },
		);
		const attachmentId = String(
			(outputOf(await crm.run(upload), upload.name)[0].json.details as any).id,
		);
		const attachments = await listSearch('crmRecord', 'searchAttachments', {
			resource: 'attachment',
			module: rl('list', 'Leads'),
			recordId: rl('list', leadId),
		});
		expect(attachments.results).toContainEqual({ name: 'picker-guide.pdf', value: attachmentId });
		const del = crm.node(
			'crmRecord',
			{
				resource: 'attachment',
				operation: 'delete',
				module: rl('list', 'Leads'),
				recordId: rl('id', leadId),
				attachmentId: rl('list', attachmentId),
			},
			{ typeVersion: 1.2 },
		);
		outputOf(await crm.run(del), del.name);
		expect(
			((await crm.api('GET', `/crm/v2.1/Leads/${leadId}/Attachments`)).body?.data ?? []).map(
				(a: any) => a.id,
			),
		).not.toContain(attachmentId);

		// a contact role on a deal: the deal by its address, the contact from the list of contacts
		const deal = (await crm.api('GET', '/crm/v2.1/Deals?per_page=1&fields=Deal_Name')).body.data[0];
		const contact = (await crm.api('GET', '/crm/v2.1/Contacts?per_page=1&fields=Last_Name')).body
			.data[0];
		const deals = await listSearch(
			'crmRecord',
			'searchDeals',
			{ resource: 'contactRole' },
			String(deal.Deal_Name),
		);
		expect(deals.results).toContainEqual({ name: deal.Deal_Name, value: deal.id });
		const contacts = await listSearch(
			'crmRecord',
			'searchContacts',
			{ resource: 'contactRole' },
			String(contact.Last_Name),
		);
		expect(contacts.results.map((c) => c.value)).toContain(contact.id);
		const role = (await crm.api('GET', '/crm/v2.1/Contacts/roles')).body.contact_roles[0];
		const add = crm.node(
			'crmRecord',
			{
				resource: 'contactRole',
				operation: 'addToDeal',
				dealId: rl('url', `${WEB}/Deals/${deal.id}`, RECORD_URL_REGEX),
				contactId: rl('list', contact.id),
				contactRoleId: role.id,
			},
			{ typeVersion: 1.2 },
		);
		outputOf(await crm.run(add), add.name);
		const onDeal = (
			await crm.api('GET', `/crm/v2.1/Deals/${deal.id}/Contact_Roles?ids=${contact.id}`)
		).body.data;
		expect(onDeal).toEqual([
			expect.objectContaining({
				id: contact.id,
				Contact_Role: expect.objectContaining({ id: role.id }),
			}),
		]);
	});

	test('CRM Bulk 1.1: a bulk read job of the module given by locator; 1 keeps the plain module', async () => {
		for (const [version, module] of [
			[1.1, rl('url', `${WEB}/Leads`)],
			[1, 'Leads'],
		] as const) {
			const create = crm.node(
				'crmBulk',
				{
					resource: 'bulkRead',
					operation: 'create',
					module,
					filterType: 'none',
					waitForCompletion: false,
				},
				{ typeVersion: version },
			);
			const [out] = outputOf(await crm.run(create), create.name);
			const job = (
				await crm.api(
					'GET',
					`/crm/bulk/v2.1/read/${String(out.json.id ?? (out.json.details as any)?.id)}`,
				)
			).body.data[0];
			expect(job.query.module).toMatchObject({ api_name: 'Leads' });
		}
	});

	test("Convert Lead: Deal Stage lists the Stage picklist of Deals; the chosen stage (or an expression) is the new deal's", async () => {
		const stages = await crm.loadOptions('crmRecord', 'getDealStages', {});
		const fields = (await crm.api('GET', '/crm/v2.1/settings/fields?module=Deals')).body
			.fields as any[];
		const picklist = fields
			.find((f) => f.api_name === 'Stage')
			.pick_list_values.map((v: any) => v.actual_value);
		expect(stages.map((o) => o.value)).toEqual(picklist);
		expect(picklist).toContain('Needs Analysis');

		for (const dealStage of ['Needs Analysis', '={{ $json.stage }}']) {
			const { body } = await crm.api('POST', '/crm/v2.1/Leads', {
				data: [{ Last_Name: `Staged ${dealStage.length}`, Company: 'Stage Co' }],
			});
			const convert = node(1.2, {
				operation: 'convertLead',
				recordId: rl('id', body.data[0].details.id),
				createDeal: true,
				dealName: 'Staged deal',
				dealStage,
				dealClosingDate: '2026-12-31',
			});
			const [out] = outputOf(
				await crm.run(convert, [{ json: { stage: 'Identify Decision Makers' } }]),
				convert.name,
			);
			const deal = (await crm.api('GET', `/crm/v2.1/Deals/${out.json.Deals as string}`)).body
				.data[0];
			expect(deal.Stage).toBe(
				dealStage.startsWith('=') ? 'Identify Decision Makers' : 'Needs Analysis',
			);
		}
	});

	test('CRM Metadata and CRM Mail 1.1: the same pickers (module by URL, record from the list) reach the service', async () => {
		const { body } = await crm.api('POST', '/crm/v2.1/Deals', {
			data: [
				{
					Deal_Name: 'Picked blueprint',
					Stage: 'Qualification',
					Pipeline: 'Enterprise',
					Closing_Date: '2026-09-30',
					Amount: 5000,
				},
			],
		});
		const dealId = body.data[0].details.id;
		const blueprint = crm.node(
			'crmMetadata',
			{
				resource: 'blueprint',
				operation: 'get',
				module: rl('url', `${WEB}/Deals/${dealId}`, MODULE_URL_REGEX),
				recordId: rl('list', dealId),
			},
			{ typeVersion: 1.1 },
		);
		expect(outputOf(await crm.run(blueprint), blueprint.name)[0].json.process_info).toMatchObject({
			field_value: 'Qualification',
		});
		const fields = crm.node(
			'crmMetadata',
			{ resource: 'field', operation: 'getAll', module: rl('list', 'Deals') },
			{ typeVersion: 1.1 },
		);
		expect(outputOf(await crm.run(fields), fields.name).map((o) => o.json.api_name)).toContain(
			'Deal_Name',
		);

		const mail = crm.node(
			'crmMail',
			{
				resource: 'mail',
				operation: 'send',
				module: rl('id', 'Leads'),
				recordId: rl('url', `${WEB}/Leads/${leads[1].id}`),
				from: 'admin@sandbox.example',
				to: 'lou@example.com',
				subject: 'Picked',
				content: 'From a picked record',
			},
			{ typeVersion: 1.1 },
		);
		expect(outputOf(await crm.run(mail), mail.name)[0].json).toMatchObject({ status: 'success' });
		const sent = (await crm.hook('GET', '/outbox')).body.outbox.find(
			(m: any) => m.subject === 'Picked',
		);
		expect(sent).toMatchObject({ module: 'Leads', record_id: leads[1].id });
	});
});
