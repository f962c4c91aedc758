// Load options built on the metadata reads (nodes/shared/methods/metadata.ts), called through n8n's
// LoadOptionsContext with the crmOAuth2Api credential against the sandbox. Every node of the
// package offers them (e.g. layouts and custom views for record operations).
import type { INodePropertyOptions } from 'n8n-workflow';

import { useCrmFixture } from '../../harness/crm';

describe('shared load options from metadata reads', () => {
	const crm = useCrmFixture();
	const v2 = useCrmFixture({ variant: 'v2' });

	async function load(
		method: string,
		parameters: Record<string, unknown>,
		f = crm,
		nodeName = 'crmMetadata',
	): Promise<INodePropertyOptions[]> {
		return await f.loadOptions(nodeName, method, parameters as any);
	}

	test('layouts, Deals layouts, related lists and field IDs of a module', async () => {
		const layouts = (await crm.api('GET', '/crm/v2.1/settings/layouts?module=Deals')).body.layouts;
		expect(
			await load('getLayouts', { resource: 'layout', operation: 'get', module: 'Deals' }),
		).toEqual(layouts.map((l: any) => ({ name: l.name, value: l.id })));
		expect(await load('getDealLayouts', { resource: 'pipeline', operation: 'getAll' })).toEqual(
			layouts.map((l: any) => ({ name: l.name, value: l.id })),
		);
		const related = await load('getRelatedListIds', {
			resource: 'relatedList',
			operation: 'get',
			module: 'Deals',
		});
		expect(related.map((r) => r.name)).toEqual([
			'Contact Roles',
			'Products',
			'Quotes',
			'Notes',
			'Attachments',
		]);
		expect(related[0].value).toMatch(/^\d{19}$/);
		const fields = await load('getFieldIds', {
			resource: 'field',
			operation: 'get',
			module: 'Deals',
		});
		const stage = fields.find((f) => f.name === 'Stage');
		expect(stage).toMatchObject({
			value: expect.stringMatching(/^\d{19}$/),
			description: 'Stage (picklist)',
		});
		expect(await load('getLayouts', { resource: 'layout', operation: 'get' })).toEqual([]);
	});

	test('custom views of a module, default first; usable from other nodes too', async () => {
		const views = await load('getCustomViews', {
			resource: 'customView',
			operation: 'get',
			module: 'Leads',
		});
		expect(views[0]).toMatchObject({ name: 'All Leads (Default)', description: 'public_views' });
		expect(views.map((v) => v.name)).toEqual(expect.arrayContaining(['Web Leads', 'Junk Leads']));
		const fromRecordNode = await load(
			'getCustomViews',
			{ resource: 'record', operation: 'getAll', module: 'Leads' },
			crm,
			'crmRecord',
		);
		expect(fromRecordNode).toEqual(views);
	});

	test('pipelines and their stages of a Deals layout', async () => {
		const [layout] = (await crm.api('GET', '/crm/v2.1/settings/layouts?module=Deals')).body.layouts;
		const pipelines = await load('getPipelines', {
			resource: 'pipeline',
			operation: 'get',
			layoutId: layout.id,
		});
		expect(pipelines.map((p) => p.name)).toEqual(['Standard (Default)', 'Enterprise']);
		const stages = await load('getPipelineStages', {
			resource: 'pipeline',
			operation: 'create',
			layoutId: layout.id,
		});
		expect(stages).toHaveLength(9);
		expect(stages.find((s) => s.name === 'Closed Won')).toMatchObject({
			description: 'Closed Won',
			value: expect.stringMatching(/^\d{19}$/),
		});
	});

	test('wizards and their layouts, assignment rules, email and inventory templates', async () => {
		const wizards = await load('getWizards', { resource: 'wizard', operation: 'get' });
		expect(wizards.map((w) => w.name)).toEqual([
			'Lead Qualification',
			'Partner Deal Handover (Inactive)',
		]);
		const wizardLayouts = await load('getWizardLayouts', {
			resource: 'wizard',
			operation: 'get',
			wizardId: wizards[0].value,
		});
		expect(wizardLayouts.map((l) => l.name)).toEqual(['Standard']);
		const rules = await load('getAssignmentRules', {
			resource: 'assignmentRule',
			operation: 'get',
			module: 'Leads',
		});
		expect(rules.map((r) => r.name)).toEqual(['Web Lead Round Robin', 'Trade Show Leads']);
		const email = await load('getEmailTemplates', {
			resource: 'emailTemplate',
			operation: 'get',
			module: 'Contacts',
		});
		expect(email.map((t) => t.name)).toEqual(['Meeting Confirmation']);
		const inventory = await load('getInventoryTemplates', {
			resource: 'inventoryTemplate',
			operation: 'get',
		});
		expect(inventory.map((t) => t.name)).toContain('Invoices: Standard Invoice');
		expect(inventory).toHaveLength(7);
	});

	test('transitions available to a record in a blueprint', async () => {
		const created = await crm.api('POST', '/crm/v2.1/Deals', {
			data: [
				{
					Deal_Name: 'Load options deal',
					Stage: 'Proposal/Price Quote',
					Pipeline: 'Enterprise',
					Closing_Date: '2025-08-01',
				},
			],
		});
		const recordId = created.body.data[0].details.id;
		const transitions = await load('getBlueprintTransitions', {
			resource: 'blueprint',
			operation: 'transition',
			module: 'Deals',
			recordId,
		});
		expect(transitions.map((t) => [t.name, t.description])).toEqual([
			['Start Negotiation', '→ Negotiation/Review (The deal needs an amount before negotiation)'],
			['Close Lost', '→ Closed Lost'],
		]);
		expect(
			await load('getBlueprintTransitions', {
				resource: 'blueprint',
				operation: 'transition',
				module: 'Deals',
				recordId: '',
			}),
		).toEqual([]);
	});

	test('v2.1-only lists explain themselves under a v2 credential', async () => {
		await expect(load('getWizards', { resource: 'wizard', operation: 'get' }, v2)).rejects.toThrow(
			'The list of wizards needs API variant v2.1; the credential uses v2',
		);
		await expect(
			load('getPipelines', { resource: 'pipeline', operation: 'get', layoutId: '1' }, v2),
		).rejects.toThrow('The list of pipelines needs API variant v2.1');
		// layouts exist in both variants
		expect(
			(await load('getLayouts', { resource: 'layout', operation: 'get', module: 'Leads' }, v2)).map(
				(l) => l.name,
			),
		).toEqual(['Standard']);
	});
});
