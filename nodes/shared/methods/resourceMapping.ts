import type {
	FieldType,
	IDataObject,
	ILoadOptionsFunctions,
	INodePropertyOptions,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';

import { pickedValue } from '../description/properties';
import { crmRequestList } from '../transport';
import { option } from './loadOptions';

interface FieldMetadata extends IDataObject {
	api_name: string;
	field_label?: string;
	data_type: string;
	mandatory?: boolean;
	read_only?: boolean;
	external?: IDataObject | null;
	unique?: IDataObject | boolean;
	pick_list_values?: Array<{ actual_value: string; display_value?: string }>;
}

async function moduleFields(this: ILoadOptionsFunctions, module: string): Promise<FieldMetadata[]> {
	return await crmRequestList<FieldMetadata>(this, '/settings/fields', 'fields', { module });
}

// n8n 2.40.7's mapper renders each field as a parameter of the field's `type` (options, boolean,
// number, dateTime, json for array/object, else text), passes it no typeOptions (so no date-only
// picker, `dateOnly`) and keeps only text, number and boolean values: a multi-select's list would be
// dropped. Multi-select picklists and dates are therefore text inputs whose label says the format.
/** CRM field type → n8n mapper type (the UI widget and the type check of each value). */
const TYPE_OF: Record<string, FieldType> = {
	integer: 'number',
	bigint: 'string',
	double: 'number',
	currency: 'number',
	percent: 'number',
	boolean: 'boolean',
	// date-only: a text input labelled with the format, not a date-and-time picker (§4)
	date: 'string',
	datetime: 'dateTime',
	picklist: 'options',
	// values separated by commas (coerceFieldValue splits them)
	multiselectpicklist: 'string',
	subform: 'array',
};

const isUnique = (f: FieldMetadata) =>
	!!f.unique && (typeof f.unique !== 'object' || Object.keys(f.unique).length > 0);

/** Active users for owner and user-lookup fields; empty when the users API is not reachable. */
async function userOptions(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	try {
		const users = await crmRequestList(this, '/users', 'users', { type: 'ActiveUsers' });
		return users.map((u) => ({
			name: String(u.full_name ?? u.email ?? u.id),
			value: String(u.id),
		}));
	} catch {
		return [];
	}
}

/**
 * Resource mapper of record writes (SharePoint v1 pattern): the module's writable fields from GetFields,
 * typed, picklists with their values, mandatory fields required on create. Update matches on `id` or an
 * external-ID field; upsert matches on the columns chosen (sent as `duplicate_check_fields`).
 */
export async function getRecordMappingFields(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const module = pickedValue(this, 'module') || undefined;
	// no module yet: nothing to map and nothing to report (the mapper hides its "no fields" error)
	if (!module) return { fields: [] };
	const operation = this.getCurrentNodeParameter('operation') as string;
	const metadata = await moduleFields.call(this, module);
	const needsUsers = metadata.some(
		(f) => ['ownerlookup', 'userlookup'].includes(f.data_type) && !f.read_only,
	);
	const users = needsUsers ? await userOptions.call(this) : [];
	const fields: ResourceMapperField[] = [];
	for (const f of metadata) {
		const label = f.field_label ?? f.api_name;
		if (f.api_name === 'id') {
			if (operation === 'update') {
				// required: n8n's mapper opens with every optional field removed (addAllFields: false), the
				// default matching column included, until that column is picked again; a required field
				// stays. The mapper checks required fields in "add" mode only, so an external-ID match is
				// not held up by an empty Record ID.
				fields.push({
					id: 'id',
					displayName: 'Record ID',
					required: true,
					defaultMatch: true,
					canBeUsedToMatch: true,
					display: true,
					type: 'string',
				});
			}
			continue;
		}
		if (f.read_only) continue;
		const field: ResourceMapperField = {
			id: f.api_name,
			displayName: label,
			required: f.mandatory === true && operation !== 'update',
			defaultMatch: false,
			canBeUsedToMatch:
				operation === 'update'
					? !!f.external
					: operation === 'upsert'
						? isUnique(f) || ['text', 'email', 'phone'].includes(f.data_type)
						: false,
			display: true,
			type: TYPE_OF[f.data_type] ?? 'string',
		};
		if (f.data_type === 'picklist') {
			field.options = (f.pick_list_values ?? []).map((v) => ({
				name: v.display_value ?? v.actual_value,
				value: v.actual_value,
			}));
		} else if (f.data_type === 'multiselectpicklist') {
			field.displayName = `${label} (Comma-Separated)`;
		} else if (f.data_type === 'date') {
			field.displayName = `${label} (yyyy-MM-dd)`;
		} else if (f.data_type === 'lookup') {
			field.displayName = `${label} (Record ID)`;
		} else if ((f.data_type === 'ownerlookup' || f.data_type === 'userlookup') && users.length) {
			field.type = 'options';
			field.options = users;
		} else if (f.data_type === 'ownerlookup' || f.data_type === 'userlookup') {
			field.displayName = `${label} (User ID)`;
		}
		fields.push(field);
	}
	if (fields.length === 0)
		return {
			fields,
			emptyFieldsNotice: `The module ${module} has no fields this operation can write.`,
		};
	return { fields };
}

/** External-ID fields of the chosen module (for X-EXTERNAL, §3.9). */
export async function getExternalIdFields(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const module = pickedValue(this, 'module') || undefined;
	if (!module) return [];
	return (await moduleFields.call(this, module))
		.filter((f) => !!f.external)
		.map((f) => option(f.field_label ?? f.api_name, f.api_name, f.api_name));
}
