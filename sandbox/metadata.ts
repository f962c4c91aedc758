// Renders the stored module definitions as the contract's Module and Field structures
// (interface spec "Metadata"; v2 and v2.1 differ per docs/protocol.md §13).
import type { FieldDef, ModuleDef } from './catalogue/modules.ts';
import type { Json } from './store.ts';

/** A stored module: the seed definition plus its id and audit data. */
export interface StoredModule extends ModuleDef {
	id: string;
	modified_time: string;
	modified_by: Json;
	sequence_number: number;
	visibility?: number;
}

const JSON_TYPE: Record<string, string> = {
	integer: 'integer',
	bigint: 'string',
	double: 'double',
	currency: 'double',
	percent: 'double',
	boolean: 'boolean',
	multiselectpicklist: 'jsonarray',
	lookup: 'jsonobject',
	ownerlookup: 'jsonobject',
	userlookup: 'jsonobject',
	subform: 'jsonarray',
	fileupload: 'jsonarray',
};

/**
 * Stable 19-digit field id derived from the module id and the field's position; unique across
 * modules (the module id's last four digits are kept): `4876876000` + `2175` + `5` + `0003`.
 */
export function fieldId(module: StoredModule, index: number): string {
	return `${module.id.slice(0, 10)}${module.id.slice(-4)}5${String(index).padStart(4, '0')}`;
}

export function fieldJson(module: StoredModule, field: FieldDef, index: number, v: string): Json {
	const lookupTarget = field.lookup_module;
	return {
		id: fieldId(module, index),
		api_name: field.api_name,
		field_label: field.field_label,
		display_label: field.field_label,
		data_type: field.data_type,
		json_type: JSON_TYPE[field.data_type] ?? 'string',
		length: field.length ?? (field.data_type === 'textarea' ? 32000 : 255),
		decimal_place: field.decimal_place ?? null,
		system_mandatory: field.system_mandatory ?? field.mandatory ?? false,
		mandatory: field.mandatory ?? false,
		read_only: field.read_only ?? false,
		field_read_only: field.read_only ?? false,
		custom_field: field.custom_field ?? false,
		visible: true,
		sortable: !['multiselectpicklist', 'textarea', 'subform'].includes(field.data_type),
		filterable: field.data_type !== 'textarea',
		mass_update: !field.read_only && !field.unique,
		unique: field.unique ? { casesensitive: false } : {},
		external: field.external ? { show: true, type: 'user', allow_multiple_config: false } : null,
		history_tracking: v === 'v2.1' ? null : false,
		...(v === 'v2' ? { private: null, section_id: 1 } : {}),
		pick_list_values: (field.pick_list_values ?? []).map((value, i) => ({
			display_value: value,
			actual_value: value,
			sequence_number: i + 1,
			type: 'used',
			maps: [],
		})),
		lookup: lookupTarget
			? lookupTarget === 'users'
				? {}
				: {
						display_label: field.field_label,
						api_name: field.api_name,
						module: { api_name: lookupTarget },
					}
			: {},
		textarea: field.data_type === 'textarea' ? { type: 'large' } : null,
		multiselectlookup: {},
		auto_number: {},
		formula: {},
		currency: field.data_type === 'currency' ? { rounding_option: 'normal', precision: 2 } : {},
	};
}

export function moduleJson(module: StoredModule, v: string): Json {
	return {
		id: module.id,
		api_name: module.api_name,
		module_name: module.module_name,
		singular_label: module.singular_label,
		plural_label: module.plural_label,
		generated_type: module.generated_type,
		display_field: module.display_field,
		creatable: module.creatable,
		editable: module.editable,
		deletable: module.deletable,
		viewable: module.viewable,
		api_supported: module.api_supported,
		convertable: module.convertable,
		global_search_supported: true,
		show_as_tab: true,
		quick_create: module.creatable,
		webform_supported: ['Leads', 'Contacts', 'Cases'].includes(module.api_name),
		triggers_supported: true,
		filter_supported: true,
		kanban_view_supported: module.api_name === 'Deals',
		inventory_template_supported: [
			'Quotes',
			'Sales_Orders',
			'Purchase_Orders',
			'Invoices',
		].includes(module.api_name),
		emailTemplate_support:
			['Leads', 'Contacts', 'Accounts', 'Deals'].includes(module.api_name) ||
			module.generated_type === 'custom',
		feeds_required: false,
		scoring_supported: ['Leads', 'Contacts', 'Accounts', 'Deals'].includes(module.api_name),
		sequence_number: module.sequence_number,
		visibility: module.visibility ?? 1,
		per_page: 200,
		modified_time: module.modified_time,
		modified_by: module.modified_by,
		description: null,
		arguments: [],
		parent_module: {},
		...(v === 'v2.1'
			? { visible: true, isBlueprintSupported: !['Notes'].includes(module.api_name) }
			: {}),
	};
}
