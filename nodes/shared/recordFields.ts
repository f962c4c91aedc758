import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { crmApiRequest } from './transport';

/** Field metadata of one module, as read from GetFields. */
export interface FieldMeta {
	api_name: string;
	data_type: string;
	mandatory?: boolean;
	read_only?: boolean;
	length?: number;
	pick_list_values?: Array<{ actual_value: string }>;
}

/** Reads a module's fields once per execution (the cache lives in the caller, never in module state). */
export async function loadFieldMeta(
	this: IExecuteFunctions,
	cache: Map<string, Map<string, FieldMeta>>,
	module: string,
): Promise<Map<string, FieldMeta>> {
	const cached = cache.get(module.toLowerCase());
	if (cached) return cached;
	const { fields = [] } = (await crmApiRequest.call(this, { method: 'GET', path: '/settings/fields', qs: { module } })) as {
		fields?: FieldMeta[];
	};
	const byName = new Map(fields.map((f) => [f.api_name, f]));
	cache.set(module.toLowerCase(), byName);
	return byName;
}

/** DateTime in the contract's form `yyyy-MM-ddTHH:mm:ss±HH:mm` (§4), from ISO text, a JS date or epoch ms. */
export function toCrmDateTime(value: unknown): string | undefined {
	let dt: DateTime;
	if (value instanceof Date) dt = DateTime.fromJSDate(value);
	else if (typeof value === 'number') dt = DateTime.fromMillis(value);
	else if (DateTime.isDateTime(value)) dt = value;
	else dt = DateTime.fromISO(String(value), { setZone: true });
	if (!dt.isValid) {
		const sql = DateTime.fromSQL(String(value), { setZone: true });
		if (!sql.isValid) return undefined;
		dt = sql;
	}
	return dt.set({ millisecond: 0 }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}

export function toCrmDate(value: unknown): string | undefined {
	const iso = value instanceof Date ? DateTime.fromJSDate(value) : DateTime.fromISO(String(value), { setZone: true });
	return iso.isValid ? iso.toFormat('yyyy-MM-dd') : undefined;
}

/** Converts a value given as text (or any JSON) to what the field type needs on the wire. */
export function coerceFieldValue(
	this: IExecuteFunctions,
	field: FieldMeta,
	value: unknown,
	itemIndex: number,
): unknown {
	const bad = (expected: string) =>
		new NodeOperationError(this.getNode(), `Field "${field.api_name}" expects ${expected}, got "${String(value)}"`, {
			itemIndex,
			description: `Change the value of "${field.api_name}" (${field.data_type}).`,
		});
	if (value === null || value === undefined) return null;
	if (value === '' && field.data_type !== 'text' && field.data_type !== 'textarea') return null;
	switch (field.data_type) {
		case 'integer':
		case 'double':
		case 'currency':
		case 'percent': {
			const n = typeof value === 'number' ? value : Number(String(value).trim());
			if (!Number.isFinite(n) || (field.data_type === 'integer' && !Number.isInteger(n))) {
				throw bad(field.data_type === 'integer' ? 'a whole number' : 'a number');
			}
			return n;
		}
		case 'bigint':
			if (!/^-?\d+$/.test(String(value))) throw bad('a whole number');
			return Number(value);
		case 'boolean':
			if (typeof value === 'boolean') return value;
			if (/^(true|false)$/i.test(String(value))) return String(value).toLowerCase() === 'true';
			throw bad('true or false');
		case 'date': {
			const date = toCrmDate(value);
			if (!date) throw bad('a date (yyyy-MM-dd)');
			return date;
		}
		case 'datetime': {
			const dateTime = toCrmDateTime(value);
			if (!dateTime) throw bad('a date and time (ISO 8601)');
			return dateTime;
		}
		case 'multiselectpicklist':
			if (Array.isArray(value)) return value;
			return String(value)
				.split(/[;,]/)
				.map((s) => s.trim())
				.filter(Boolean);
		case 'lookup':
		case 'ownerlookup':
		case 'userlookup':
			if (typeof value === 'object') return value;
			if (!/^\d+$/.test(String(value).trim())) throw bad('a record ID (digits)');
			return { id: String(value).trim() };
		default:
			return typeof value === 'string' ? value : typeof value === 'object' ? value : String(value);
	}
}

/** The record body of one item from the "Fields" name/value pairs, typed by metadata. */
export async function recordFromFieldPairs(
	this: IExecuteFunctions,
	itemIndex: number,
	module: string,
	cache: Map<string, Map<string, FieldMeta>>,
): Promise<IDataObject> {
	const pairs = (this.getNodeParameter('fieldsUi.field', itemIndex, []) as Array<{ name: string; value: unknown }>) ?? [];
	const meta = await loadFieldMeta.call(this, cache, module);
	const record: IDataObject = {};
	for (const { name, value } of pairs) {
		if (!name) continue;
		const field = meta.get(name);
		if (!field) {
			throw new NodeOperationError(this.getNode(), `Unknown field "${name}" in module ${module}`, {
				itemIndex,
				description: 'Pick a field from the list; field names are API names such as Last_Name.',
			});
		}
		record[name] = coerceFieldValue.call(this, field, value, itemIndex) as IDataObject[string];
	}
	return record;
}
