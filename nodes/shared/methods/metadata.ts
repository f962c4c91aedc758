import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { pickedValue } from '../description/properties';
import {
	assertV21,
	crmRequest,
	crmRequestAllItems,
	crmRequestList,
	MAX_PER_PAGE,
} from '../transport';
import { byName, option } from './loadOptions';
import { isDigits } from '../records/validation';

// Load options built on the metadata reads (docs/protocol.md §5.7–5.8). Each reads the parameter it
// depends on by its conventional name (`module`, `layoutId`, `wizardId`, `recordId`), so any node
// using those names can offer them.

/** Modules whose records can use inventory templates (§5.7). */
export const INVENTORY_MODULES = ['Quotes', 'Sales_Orders', 'Purchase_Orders', 'Invoices'];

function current(ctx: ILoadOptionsFunctions, name: string): string | undefined {
	return ['module', 'recordId'].includes(name)
		? pickedValue(ctx, name) || undefined
		: plainCurrent(ctx, name);
}

function plainCurrent(ctx: ILoadOptionsFunctions, name: string): string | undefined {
	const value = ctx.getCurrentNodeParameter(name);
	if (value === undefined || value === null || value === '') return undefined;
	return String(value);
}

/** Fields of the chosen module with their field IDs as values (GetField takes an ID). */
export async function getFieldIds(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const module = current(this, 'module');
	if (!module) return [];
	const fields = await crmRequestList(this, '/settings/fields', 'fields', { module });
	return fields
		.map((f) => ({
			name: String(f.field_label),
			value: String(f.id),
			description: `${String(f.api_name)} (${String(f.data_type)})`,
		}))
		.sort(byName);
}

/** The layouts of `module` (GetLayouts) as options. */
async function layoutOptions(
	ctx: ILoadOptionsFunctions,
	module: string,
): Promise<INodePropertyOptions[]> {
	const layouts = await crmRequestList(ctx, '/settings/layouts', 'layouts', { module });
	return layouts.map((l) => ({ name: String(l.name), value: String(l.id) }));
}

/** Layouts of the chosen module (GetLayouts). */
export async function getLayouts(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const module = current(this, 'module');
	if (!module) return [];
	return await layoutOptions(this, module);
}

/** Layouts of Deals: pipelines belong to one of them (GetLayouts). */
export async function getDealLayouts(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await layoutOptions(this, 'Deals');
}

/** Related lists of the chosen module with their IDs as values (GetRelatedList takes an ID). */
export async function getRelatedListIds(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const module = current(this, 'module');
	if (!module) return [];
	const lists = await crmRequestList(this, '/settings/related_lists', 'related_lists', { module });
	return lists.map((l) => option(String(l.display_label), String(l.id), String(l.api_name)));
}

/** Custom views of the chosen module, default first (GetCustomViews, every page). */
export async function getCustomViews(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const module = current(this, 'module');
	if (!module) return [];
	// at most 50 pages, as many views as a picker can sensibly list
	const views = await crmRequestAllItems(
		this,
		{ path: '/settings/custom_views', rootProperty: 'custom_views', qs: { module } },
		50 * MAX_PER_PAGE,
	);
	return views.map((v) => ({
		name: `${String(v.name)}${v.default === true ? ' (Default)' : ''}`,
		value: String(v.id),
		description: String(v.category ?? ''),
	}));
}

/** Pipelines of the chosen Deals layout (GetPipelines, v2.1). */
export async function getPipelines(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	await assertV21.call(this, 'The list of pipelines');
	const layoutId = current(this, 'layoutId');
	if (!layoutId) return [];
	const pipelines = await crmRequestList(this, '/settings/pipeline', 'pipeline', {
		layout_id: layoutId,
	});
	return pipelines.map((p) => ({
		name: `${String(p.display_value)}${p.default === true ? ' (Default)' : ''}`,
		value: String(p.id),
	}));
}

/** Stages used by the pipelines of the chosen Deals layout, with their stage IDs (GetPipelines, v2.1). */
export async function getPipelineStages(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	await assertV21.call(this, 'The list of pipelines');
	const layoutId = current(this, 'layoutId');
	if (!layoutId) return [];
	const pipelines = await crmRequestList(this, '/settings/pipeline', 'pipeline', {
		layout_id: layoutId,
	});
	const stages = new Map<string, INodePropertyOptions>();
	for (const p of pipelines) {
		for (const m of (p.maps as IDataObject[] | undefined) ?? []) {
			const id = String(m.id);
			if (!stages.has(id))
				stages.set(id, {
					name: String(m.display_value),
					value: id,
					description: String(m.forecast_type ?? ''),
				});
		}
	}
	return [...stages.values()];
}

/** Wizards (GetWizards, v2.1). */
export async function getWizards(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	await assertV21.call(this, 'The list of wizards');
	const wizards = await crmRequestList(this, '/settings/wizards', 'wizards');
	return wizards.map((w) => ({
		name: `${String(w.name)}${w.active === false ? ' (Inactive)' : ''}`,
		value: String(w.id),
		description: String((w.module as IDataObject | undefined)?.api_name ?? ''),
	}));
}

/** Layouts of the chosen wizard's module (GetWizards, then GetLayouts). */
export async function getWizardLayouts(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	await assertV21.call(this, 'The list of wizards');
	const wizardId = current(this, 'wizardId');
	if (!wizardId) return [];
	const wizard = (await crmRequestList(this, '/settings/wizards', 'wizards')).find(
		(w) => String(w.id) === wizardId,
	);
	const module = (wizard?.module as IDataObject | undefined)?.api_name;
	if (!module) return [];
	return await layoutOptions(this, String(module));
}

/** Assignment rules of the chosen module (GetAssignmentRules, v2.1). */
export async function getAssignmentRules(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	await assertV21.call(this, 'The list of assignment rules');
	const module = current(this, 'module');
	const rules = await crmRequestList(
		this,
		'/settings/automation/assignment_rules',
		'assignment_rules',
	);
	return rules
		.filter(
			(r) =>
				!module ||
				String((r.module as IDataObject | undefined)?.api_name).toLowerCase() ===
					module.toLowerCase(),
		)
		.map((r) => ({
			name: String(r.name),
			value: String(r.id),
			description: String(r.description ?? ''),
		}));
}

/** Email templates of the chosen module (GetEmailTemplates, v2.1). */
export async function getEmailTemplates(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	await assertV21.call(this, 'The list of email templates');
	const module = current(this, 'module');
	if (!module) return [];
	const templates = await crmRequestList(this, '/settings/email_templates', 'email_templates', {
		module,
	});
	return templates
		.map((t) => ({
			name: String(t.name),
			value: String(t.id),
			description: String(t.subject ?? ''),
		}))
		.sort(byName);
}

/** Inventory templates of every inventory module (GetInventoryTemplates, v2.1). */
export async function getInventoryTemplates(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	await assertV21.call(this, 'The list of inventory templates');
	const selected = current(this, 'module');
	const modules = selected && INVENTORY_MODULES.includes(selected) ? [selected] : INVENTORY_MODULES;
	const options: INodePropertyOptions[] = [];
	for (const module of modules) {
		const templates = await crmRequestList(
			this,
			'/settings/inventory_templates',
			'inventory_templates',
			{ module },
		);
		options.push(
			...templates.map((t) => ({
				name: `${module.replace(/_/g, ' ')}: ${String(t.name)}`,
				value: String(t.id),
			})),
		);
	}
	return options.sort(byName);
}

/** Transitions available to the chosen record of the chosen module (GetBlueprint). */
export async function getBlueprintTransitions(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const module = current(this, 'module');
	const recordId = current(this, 'recordId');
	if (!module || !recordId || !isDigits(recordId)) return [];
	const body = await crmRequest(this, {
		method: 'GET',
		path: `/${encodeURIComponent(module)}/${encodeURIComponent(recordId)}/actions/blueprint`,
	});
	const transitions =
		((body.blueprint as IDataObject | undefined)?.transitions as IDataObject[] | undefined) ?? [];
	return transitions.map((t) => ({
		name: String(t.name),
		value: String(t.id),
		description: `→ ${String(t.next_field_value)}${t.criteria_matched === false ? ` (${String(t.criteria_message ?? 'criteria not met')})` : ''}`,
	}));
}

export const metadataLoadOptions = {
	getFieldIds,
	getLayouts,
	getDealLayouts,
	getRelatedListIds,
	getCustomViews,
	getPipelines,
	getPipelineStages,
	getWizards,
	getWizardLayouts,
	getAssignmentRules,
	getEmailTemplates,
	getInventoryTemplates,
	getBlueprintTransitions,
};
