// Form inputs typed from a module's field metadata (GetFields, docs/protocol.md §5.7): picklists
// as selects, lookups as pickers of the target module's records, users from the user list, dates
// and date-times as date pickers; and the way back from the posted strings to the API's JSON values.
import type { FieldDef, ModuleDef } from '../catalogue/modules.ts';
import { recordName } from '../records.ts';
import type { Sandbox } from '../sandbox.ts';
import type { Json } from '../store.ts';
import { callApi } from './api.ts';
import { h, Html } from './html.ts';

/** Field types a page shows but does not edit (computed, files, line items). */
const SHOWN_ONLY = new Set([
	'autonumber',
	'formula',
	'subform',
	'fileupload',
	'imageupload',
	'profileimage',
]);

export function editable(field: FieldDef): boolean {
	return !field.read_only && !SHOWN_ONLY.has(field.data_type);
}

const isUserField = (field: FieldDef) =>
	field.data_type === 'ownerlookup' || field.data_type === 'userlookup';

/** A stored value as the strings a form holds for it (one per selected option). */
export function formValue(field: FieldDef, value: unknown): string[] {
	if (field.data_type === 'boolean') return [value === true ? 'true' : 'false'];
	if (value === undefined || value === null) return [''];
	if (Array.isArray(value)) return value.map(String);
	if (typeof value === 'object') return [String((value as Json).id ?? '')];
	if (field.data_type === 'datetime') return [String(value).slice(0, 19)];
	return [String(value)];
}

/** The posted strings of a field as the API's JSON value (`null` for an emptied field). */
function apiValue(field: FieldDef, posted: string[]): unknown {
	if (field.data_type === 'multiselectpicklist') return posted.filter(Boolean);
	const text = (posted[0] ?? '').trim();
	if (field.data_type === 'boolean') return text === 'true';
	if (text === '') return null;
	switch (field.data_type) {
		case 'lookup':
		case 'ownerlookup':
		case 'userlookup':
			return { id: text };
		case 'integer':
		case 'bigint':
		case 'double':
		case 'currency':
		case 'percent':
			// a number, or the text as typed so that the service names what is wrong with it
			return Number.isFinite(Number(text)) ? Number(text) : text;
		case 'datetime':
			// the sandbox organisation's time zone is UTC, `+00:00` (docs/protocol.md §4)
			return `${text.length === 16 ? `${text}:00` : text}+00:00`;
		default:
			return text;
	}
}

/**
 * The changes a posted form makes: every editable field of the form whose value differs from the
 * record's (all filled ones when creating).
 */
export function changesOf(module: ModuleDef, form: URLSearchParams, record?: Json): Json {
	const changes: Json = {};
	for (const field of module.fields) {
		if (!editable(field) || !form.has(`has:${field.api_name}`)) continue;
		const posted = form.getAll(field.api_name);
		const value = apiValue(field, posted);
		if (record) {
			const before = formValue(field, record[field.api_name]).join('\n');
			if (before !== formValue(field, value).join('\n')) changes[field.api_name] = value;
		} else if (value !== null && !(Array.isArray(value) && value.length === 0)) {
			changes[field.api_name] = value;
		}
	}
	return changes;
}

type Options = Array<{ value: string; label: string }>;

/** Choices of the pickers a form needs, read once per page: users and lookup targets' records. */
export class Choices {
	private readonly cache = new Map<string, Options>();
	private readonly sandbox: Sandbox;

	constructor(sandbox: Sandbox) {
		this.sandbox = sandbox;
	}

	/** Options of a picker field (picklist values, users, or up to 200 records of the lookup module). */
	async of(field: FieldDef): Promise<Options | undefined> {
		if (field.pick_list_values) return field.pick_list_values.map((v) => ({ value: v, label: v }));
		const key = isUserField(field) ? ':users' : field.lookup_module;
		if (!key) return undefined;
		let options = this.cache.get(key);
		if (!options) {
			options = isUserField(field) ? this.users() : await this.records(key);
			this.cache.set(key, options);
		}
		return options;
	}

	private users(): Options {
		return this.sandbox.store
			.docs<{ id: string; full_name: string }>('users')
			.map((u) => ({ value: u.id, label: u.full_name }));
	}

	private async records(moduleName: string): Promise<Options> {
		const module = this.sandbox.module(moduleName);
		if (!module) return [];
		const answer = await callApi(this.sandbox, 'GET', `/${module.api_name}?per_page=200`);
		const records: Json[] = answer.status === 200 ? answer.body.data : [];
		return records
			.map((r) => ({ value: String(r.id), label: recordName(module, r) }))
			.sort((a, b) => a.label.localeCompare(b.label));
	}
}

function select(name: string, options: Options, chosen: string[], multiple: boolean): Html {
	// a chosen value the list does not hold (a record beyond the first 200) stays selectable
	const all = [...options];
	for (const value of chosen)
		if (value && !all.some((o) => o.value === value)) all.push({ value, label: value });
	return h`<select name="${name}" id="f-${name}"${multiple ? new Html(' multiple') : ''}>${
		multiple ? '' : h`<option value="">—</option>`
	}${all.map((o) => h`<option value="${o.value}"${chosen.includes(o.value) ? new Html(' selected') : ''}>${o.label}</option>`)}</select>`;
}

const INPUT_TYPES: Partial<Record<FieldDef['data_type'], string>> = {
	date: 'date',
	datetime: 'datetime-local',
	email: 'email',
	phone: 'tel',
	integer: 'number',
	bigint: 'number',
	double: 'number',
	currency: 'number',
	percent: 'number',
};

/** The labelled input of one field holding `values` (formValue's strings, or what was posted). */
export async function fieldInput(
	field: FieldDef,
	values: string[],
	choices: Choices,
): Promise<Html> {
	const name = field.api_name;
	const value = values[0] ?? '';
	const label = h`<label for="f-${name}">${field.field_label}${field.mandatory ? ' *' : ''} <span class="muted">${name}</span></label><input type="hidden" name="has:${name}" value="1">`;
	if (field.data_type === 'boolean')
		return h`${label}${select(
			name,
			[
				{ value: 'true', label: 'Yes' },
				{ value: 'false', label: 'No' },
			],
			values,
			false,
		)}`;
	const options = await choices.of(field);
	if (options)
		return h`${label}${select(name, options, values, field.data_type === 'multiselectpicklist')}`;
	if (field.data_type === 'textarea')
		return h`${label}<textarea name="${name}" id="f-${name}" rows="3">${value}</textarea>`;
	const type = INPUT_TYPES[field.data_type] ?? 'text';
	const step =
		type === 'number'
			? field.data_type === 'integer' || field.data_type === 'bigint'
				? '1'
				: 'any'
			: type === 'datetime-local'
				? '1'
				: '';
	return h`${label}<input type="${type}" name="${name}" id="f-${name}" value="${value}"${step ? h` step="${step}"` : ''}>`;
}

/** A stored value as text (read-only fields, record lists). */
export function shown(value: unknown): string {
	if (value === undefined || value === null) return '';
	if (Array.isArray(value))
		return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
	if (typeof value === 'object') {
		const obj = value as Json;
		return String(obj.name ?? obj.full_name ?? obj.id ?? JSON.stringify(obj));
	}
	return String(value);
}
