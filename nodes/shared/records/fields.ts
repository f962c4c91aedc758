import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	ResourceMapperValue,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getParameter } from '../parameters';
import { toCrmDate, toCrmDateTime } from '../formats/dates';
import { thenOrNow, crmRequest } from '../transport';
import { fieldValueRefused, isDigits } from './validation';

/** Field metadata of one module, as read from GetFields. */
export interface FieldMeta {
	api_name: string;
	data_type: string;
	field_label?: string;
	mandatory?: boolean;
	read_only?: boolean;
	length?: number;
	pick_list_values?: Array<{ actual_value: string; display_value?: string }>;
	/** non-null on external-ID fields (usable in X-EXTERNAL, §3.9) */
	external?: IDataObject | null;
	unique?: IDataObject | boolean;
}

/** Reads a module's fields once per execution (the cache lives in the caller, never in module state). */
export async function loadFieldMeta(
	this: IExecuteFunctions | IExecuteSingleFunctions,
	cache: Map<string, Map<string, FieldMeta>>,
	module: string,
): Promise<Map<string, FieldMeta>> {
	const cached = cache.get(module.toLowerCase());
	if (cached) return cached;
	const { fields = [] } = (await crmRequest(this, {
		method: 'GET',
		path: '/settings/fields',
		qs: { module },
	})) as {
		fields?: FieldMeta[];
	};
	const byName = new Map(fields.map((f) => [f.api_name, f]));
	cache.set(module.toLowerCase(), byName);
	return byName;
}

/** The allowed values of a picklist field, built once per field metadata object (not per item). */
const picklists = new WeakMap<FieldMeta, { list: string[]; set: Set<string> }>();
function picklistValues(field: FieldMeta): { list: string[]; set: Set<string> } {
	let values = picklists.get(field);
	if (!values) {
		const list = (field.pick_list_values ?? []).map((v) => v.actual_value);
		values = { list, set: new Set(list) };
		picklists.set(field, values);
	}
	return values;
}

/** The first ten values of a picklist, for an error message. */
function oneOf(list: string[]): string {
	return `${list.slice(0, 10).join(', ')}${list.length > 10 ? ', …' : ''}`;
}

/** Converts a value given as text (or any JSON) to what the field type needs on the wire. */
export function coerceFieldValue(
	this: IExecuteFunctions | IExecuteSingleFunctions,
	field: FieldMeta,
	value: unknown,
	itemIndex: number,
): unknown {
	// refused like the service would (INVALID_DATA on the field), see validation.ts
	const bad = (expected: string) =>
		fieldValueRefused(this.getNode(), field, expected, value, itemIndex);
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
		case 'picklist': {
			const text = String(value);
			const { list, set } = picklistValues(field);
			if (list.length && !set.has(text)) throw bad(`one of ${oneOf(list)}`);
			return text;
		}
		case 'multiselectpicklist': {
			const chosen = Array.isArray(value)
				? value.map(String)
				: String(value)
						.split(/[;,]/)
						.map((s) => s.trim())
						.filter(Boolean);
			// the service refuses the whole record for one unknown value: name it before sending
			const { list, set } = picklistValues(field);
			const unknown = chosen.find((v) => !set.has(v));
			if (list.length && unknown !== undefined)
				throw bad(`values from ${oneOf(list)} ("${unknown}" is not one)`);
			return chosen;
		}
		case 'subform': {
			// line items (e.g. Product_Details) are a list of objects; the mapper hands JSON text
			let rows = value;
			if (typeof rows === 'string') {
				try {
					rows = JSON.parse(rows);
				} catch {
					throw bad('a JSON list of line items, e.g. [{"product": {"id": "…"}, "quantity": 1}]');
				}
			}
			if (
				!Array.isArray(rows) ||
				!rows.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))
			) {
				throw bad('a list of line items (objects)');
			}
			return rows;
		}
		case 'lookup':
		case 'ownerlookup':
		case 'userlookup':
			if (typeof value === 'object') return value;
			if (typeof value === 'number')
				throw bad('a record ID as text (IDs exceed JavaScript number precision)');
			if (!isDigits(String(value).trim())) throw bad('a record ID (digits)');
			return { id: String(value).trim() };
		default:
			return typeof value === 'string' ? value : typeof value === 'object' ? value : String(value);
	}
}

/**
 * A picklist value outside its list, in a record given as raw JSON: the error the mapper and the
 * pairs give (naming the allowed values), or none.
 */
function checkPicklistValues(
	this: IExecuteFunctions | IExecuteSingleFunctions,
	record: IDataObject,
	itemIndex: number,
	meta: Map<string, FieldMeta>,
): void {
	for (const [name, value] of Object.entries(record)) {
		const field = meta.get(name);
		if (!field || (field.data_type !== 'picklist' && field.data_type !== 'multiselectpicklist'))
			continue;
		if (field.data_type === 'picklist' && typeof value !== 'string') continue;
		coerceFieldValue.call(this, field, value, itemIndex);
	}
}

/**
 * The CRM's refusal of a record for a value outside a picklist (INVALID_DATA on the field) names no
 * allowed values: this is the error the mapper and the pairs give before sending, which names them,
 * or undefined for any other refusal. Raw JSON is sent as given, so its picklist mistakes are named
 * after the CRM refused them, from metadata read only then.
 */
export function picklistRefusal(
	this: IExecuteFunctions,
	meta: Map<string, FieldMeta>,
	refusal: { code?: string; details?: IDataObject },
	record: IDataObject,
	itemIndex: number,
): NodeOperationError | undefined {
	const name = refusal.details?.api_name;
	if (refusal.code !== 'INVALID_DATA' || typeof name !== 'string' || !(name in record)) return;
	try {
		checkPicklistValues.call(this, { [name]: record[name] }, itemIndex, meta);
	} catch (error) {
		return error as NodeOperationError;
	}
	return;
}

/** The "Fields" name/value pairs of one item. */
type FieldPairs = Array<{ name: string; value: unknown }>;

/** The record body of one item from its "Fields" name/value pairs, typed by metadata. */
function recordFromFieldPairs(
	this: IExecuteFunctions | IExecuteSingleFunctions,
	pairs: FieldPairs,
	itemIndex: number,
	module: string,
	meta: Map<string, FieldMeta>,
): IDataObject {
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

/** How a write defines its fields: the metadata-driven mapper, the input item auto-mapped, name/value pairs, or raw JSON. */
type FieldsMode = 'mapper' | 'auto' | 'pairs' | 'json';

/** A parsed JSON parameter that must be an object (raw-JSON mode of record writes). */
export function jsonObjectParameter(
	this: IExecuteFunctions | IExecuteSingleFunctions,
	name: string,
	itemIndex: number,
	label: string,
): IDataObject {
	const raw = getParameter(this, name, itemIndex, '{}');
	let value: unknown = raw;
	if (typeof raw === 'string') {
		try {
			value = raw.trim() === '' ? {} : JSON.parse(raw);
		} catch {
			throw new NodeOperationError(this.getNode(), `${label} is not valid JSON`, {
				itemIndex,
				description: 'Give one JSON object, e.g. {"Last_Name": "Smith"}.',
			});
		}
	}
	if (!value || typeof value !== 'object' || Array.isArray(value)) {
		throw new NodeOperationError(this.getNode(), `${label} must be a JSON object`, {
			itemIndex,
			description: 'Give one JSON object, e.g. {"Last_Name": "Smith"}.',
		});
	}
	// an object value may be the one shared by every item (getParameter): each item gets its own
	return value === raw ? { ...(value as IDataObject) } : (value as IDataObject);
}

/** The mapper's values of one item: the fields defined below, or the input item's keys that are fields (auto-map). */
function mapperValues(
	this: IExecuteFunctions | IExecuteSingleFunctions,
	itemIndex: number,
	auto = false,
): { values: IDataObject; matchingColumns: string[] } {
	const columns = (
		auto ? {} : (getParameter(this, 'columns', itemIndex, {}) ?? {})
	) as Partial<ResourceMapperValue>;
	const matchingColumns = columns.matchingColumns ?? [];
	// "Map Input Fields Automatically", or a mapper saved in n8n's own auto mode
	if (auto || columns.mappingMode === 'autoMapInputData') {
		const json =
			'getItemIndex' in this
				? (this as IExecuteSingleFunctions).getInputData().json
				: (this as IExecuteFunctions).getInputData()[itemIndex].json;
		return { values: { ...json }, matchingColumns };
	}
	const values = (getParameter(this, 'columns.value', itemIndex, {}) ?? {}) as IDataObject;
	return { values: { ...values }, matchingColumns };
}

/** One item's record, and the mapper's matching columns (Update, Create or Update). */
interface RecordBody {
	record: IDataObject;
	matchingColumns: string[];
}

/**
 * `then` of the module's field metadata: synchronous when this run has read it already, else after
 * loadFieldMeta. A batched write builds every item before it sends anything: with the metadata read
 * for the first item, the others build without a promise each.
 */
function withFieldMeta<T>(
	ctx: IExecuteFunctions | IExecuteSingleFunctions,
	cache: Map<string, Map<string, FieldMeta>>,
	module: string,
	then: (meta: Map<string, FieldMeta>) => T,
): T | Promise<T> {
	return thenOrNow(cache.get(module.toLowerCase()) ?? loadFieldMeta.call(ctx, cache, module), then);
}

/**
 * The record body of one item in the chosen fields mode, typed by the module's field metadata
 * (mapper and pairs); raw JSON is sent as given (`checkJsonPicklists`: its picklist values checked
 * first). Empty mapper fields are left out. What an item gives wrong without the metadata is
 * refused before the metadata is read. A promise only while the metadata is not yet read
 * (withFieldMeta).
 */
export function recordBody(
	this: IExecuteFunctions | IExecuteSingleFunctions,
	itemIndex: number,
	module: string,
	cache: Map<string, Map<string, FieldMeta>>,
	options: { keep?: string[]; jsonLabel?: string; checkJsonPicklists?: boolean } = {},
): RecordBody | Promise<RecordBody> {
	const mode = getParameter(this, 'fieldsMode', itemIndex, 'mapper') as FieldsMode;
	if (mode === 'json') {
		// errors name the parameter as the form labels it ("Values JSON" on Mass Update)
		const record = jsonObjectParameter.call(
			this,
			'recordJson',
			itemIndex,
			options.jsonLabel ?? 'Record JSON',
		);
		if (!options.checkJsonPicklists) return { record, matchingColumns: [] };
		// batched writes name picklist mistakes after the CRM refused them (picklistRefusal)
		return withFieldMeta(this, cache, module, (meta) => {
			checkPicklistValues.call(this, record, itemIndex, meta);
			return { record, matchingColumns: [] };
		});
	}
	if (mode === 'pairs') {
		const pairs = (getParameter(this, 'fieldsUi.field', itemIndex, []) as FieldPairs) ?? [];
		return withFieldMeta(this, cache, module, (meta) => ({
			record: recordFromFieldPairs.call(this, pairs, itemIndex, module, meta),
			matchingColumns: [],
		}));
	}
	const keep = options.keep ?? [];
	let mapped: ReturnType<typeof mapperValues>;
	try {
		mapped = mapperValues.call(this, itemIndex, mode === 'auto');
	} catch (error) {
		// n8n's own check of the mapper's types failed ("Invalid input for 'Lead_Status' …"): the
		// unvalidated values get the same check as the other modes, so one mistake has one message
		const raw = (getParameter(this, 'columns.value', itemIndex, {}, { skipValidation: true }) ??
			{}) as IDataObject;
		return withFieldMeta(this, cache, module, (meta) => {
			for (const [name, value] of Object.entries(raw)) {
				const field = meta.get(name);
				if (field && value !== undefined && value !== null && !keep.includes(name)) {
					coerceFieldValue.call(this, field, value, itemIndex);
				}
			}
			throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		});
	}
	const { values, matchingColumns } = mapped;
	const auto =
		mode === 'auto' ||
		(getParameter(this, 'columns.mappingMode', itemIndex, 'defineBelow') as string) ===
			'autoMapInputData';
	return withFieldMeta(this, cache, module, (meta) => {
		const record: IDataObject = {};
		for (const name in values) {
			const value = values[name];
			if (value === undefined || value === null || (auto && value === '')) continue;
			const field = meta.get(name);
			if (!field) {
				if (auto) continue; // auto-mapping ignores input keys that are not fields of the module
				throw new NodeOperationError(
					this.getNode(),
					`Unknown field "${name}" in module ${module}`,
					{
						itemIndex,
						description:
							'Refresh the field list of the mapper; field names are API names such as Last_Name.',
					},
				);
			}
			if (keep.includes(name)) record[name] = String(value);
			else if (!field.read_only)
				record[name] = coerceFieldValue.call(this, field, value, itemIndex) as IDataObject[string];
		}
		return { record, matchingColumns };
	});
}
