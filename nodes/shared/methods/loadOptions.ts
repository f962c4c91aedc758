import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { pickedValue } from '../description/properties';
import { crmRequestList } from '../transport';

/** Spelling-insensitive form of a name: "Sales_Orders" and "Sales Orders" say the same. */
const plain = (text: string) =>
	text
		.toLowerCase()
		.replace(/[\s_]+/g, ' ')
		.trim();

/** An option whose description is left out when it only repeats the option's name. */
export function option(name: string, value: string, description?: string): INodePropertyOptions {
	return description && plain(description) !== plain(name)
		? { name, value, description }
		: { name, value };
}

/** The pickers' order: by name. */
export const byName = (a: INodePropertyOptions, b: INodePropertyOptions) =>
	a.name.localeCompare(b.name);

/** A module as the pickers name it: its plural label, marked when custom. */
export const moduleLabel = (m: IDataObject) =>
	`${m.plural_label as string}${m.generated_type === 'custom' ? ' (Custom)' : ''}`;

/** The modules of GetModules the API serves, the linking modules too. */
export const apiModules = (ctx: ILoadOptionsFunctions) =>
	crmRequestList(ctx, '/settings/modules', 'modules').then((modules) =>
		modules.filter((m) => m.api_supported !== false),
	);

/** Modules that hold records (standard and custom; no linking modules), from GetModules. */
export async function recordModules(ctx: ILoadOptionsFunctions): Promise<IDataObject[]> {
	return (await apiModules(ctx)).filter((m) => m.generated_type !== 'linking');
}

/** Modules that hold records (standard and custom), from GetModules. */
export async function getModules(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return (await recordModules(this))
		.map((m) => option(moduleLabel(m), m.api_name as string, m.api_name as string))
		.sort(byName);
}

/** The chosen module's fields (or the chosen modules' fields) from GetFields, as options, keeping those `keep` accepts. */
async function fieldOptions(
	this: ILoadOptionsFunctions,
	keep: (field: IDataObject) => boolean,
	mark: (field: IDataObject) => string = () => '',
): Promise<INodePropertyOptions[]> {
	const single = pickedValue(this, 'module') || undefined;
	// nodes that watch several modules (parameter `modules`) get the fields of all of them, once each
	const modules = single
		? [single]
		: ((this.getCurrentNodeParameter('modules') as string[] | undefined) ?? []);
	const options = new Map<string, INodePropertyOptions>();
	for (const module of modules) {
		const fields = await crmRequestList(this, '/settings/fields', 'fields', { module });
		for (const f of fields.filter(keep)) {
			const value = `${f.api_name as string}${mark(f)}`;
			if (options.has(value)) continue;
			options.set(value, {
				name: `${f.field_label as string}${f.mandatory ? ' *' : ''}`,
				value,
				description: `${f.api_name as string} (${f.data_type as string})`,
			});
		}
	}
	return [...options.values()].sort(byName);
}

/** The Stage picklist of Deals (GetFields of Deals), as the CRM stores the values: a converted lead's deal stage. */
export async function getDealStages(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const fields = await crmRequestList(this, '/settings/fields', 'fields', { module: 'Deals' });
	const stage = fields.find((f) => f.api_name === 'Stage');
	const values = (stage?.pick_list_values ?? []) as Array<{
		actual_value: string;
		display_value?: string;
	}>;
	return values.map((v) =>
		option(v.display_value ?? v.actual_value, v.actual_value, v.actual_value),
	);
}

/** Fields that can be written (read-only system fields left out). */
export async function getFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await fieldOptions.call(this, (f) => f.read_only !== true);
}

/** Every field, system fields included: for choosing what a read returns. */
export async function getReadableFields(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await fieldOptions.call(this, () => true);
}

/** Fields a list can be sorted by (`sortable` in the metadata: Modified_Time, Created_Time, id …). */
export async function getSortableFields(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await fieldOptions.call(this, (f) => f.sortable !== false);
}

/**
 * Criteria fields mark their picklists with this suffix on the option value, so the condition's
 * value can show as a dropdown (displayOptions see values, not metadata). Other fields keep their
 * API name as value, as saved workflows have them; criteriaFieldName strips the mark.
 */
export const PICKLIST_MARK = '|picklist';

export const criteriaFieldName = (value: unknown) =>
	String(value ?? '')
		.trim()
		.replace(PICKLIST_MARK, '');

/**
 * Every field of the module for criteria (system fields such as Created_Time included), picklists
 * marked. A condition saved with a picklist's plain API name (before the mark, or typed) keeps it:
 * its option stays unmarked for that condition, so it opens with its typed Value, not as unsupported.
 */
export async function getCriteriaFields(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const saved = String(this.getCurrentNodeParameter('&field') ?? '');
	return await fieldOptions.call(
		this,
		() => true,
		(f) => (f.data_type === 'picklist' && f.api_name !== saved ? PICKLIST_MARK : ''),
	);
}

/** The values of the picklist chosen in the same condition (`&field`), as the CRM compares them (actual values). */
export async function getCriteriaValues(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const module = pickedValue(this, 'module') || undefined;
	const field = criteriaFieldName(this.getCurrentNodeParameter('&field'));
	if (!module || !field) return [];
	const fields = await crmRequestList(this, '/settings/fields', 'fields', { module });
	const meta = fields.find((f) => f.api_name === field);
	const values = (meta?.pick_list_values ?? []) as Array<{
		actual_value: string;
		display_value?: string;
	}>;
	return values.map((v) =>
		option(v.display_value ?? v.actual_value, v.actual_value, v.actual_value),
	);
}
