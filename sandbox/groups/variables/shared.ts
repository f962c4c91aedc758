// Helpers shared by the variable operations (docs/protocol.md §5.9): the seed, lookups by id or
// API name, the checks of a variable item and the one-variable update and delete.
import type { ErrorBody } from '../../errors.ts';
import { HttpError, errorItem } from '../../errors.ts';
import type { Ctx } from '../../router.ts';
import type { Json } from '../../store.ts';
import { isDate, parseDateTime } from '../../time.ts';
import type { Sandbox } from '../../types.ts';
import { requiredQuery } from '../../wire.ts';
import { isBlank, itemErrors, successItem } from '../shared.ts';

export const VARIABLES_SCOPES = [['CRM.settings.variables.{ACCESS}']];
export const GROUPS_SCOPES = [['CRM.settings.variable_groups.READ']];
export const VARIABLES = 'variables';
const GROUPS = 'variable_groups';

export const VARIABLE_TYPES = [
	'text',
	'textarea',
	'integer',
	'long',
	'decimal',
	'currency',
	'percent',
	'email',
	'phone',
	'website',
	'date',
	'datetime',
	'checkbox',
] as const;

interface VariableGroupDoc extends Json {
	id: string;
	api_name: string;
	name: string;
	display_label: string;
	description: string;
}

export interface VariableDoc extends Json {
	id: string;
	api_name: string;
	name: string;
	description: string | null;
	type: string;
	value: unknown;
	variable_group: { id: string; api_name: string };
	source: string;
}

const GROUP_GENERAL = { id: '4876876000000391001', api_name: 'General' };
const GROUP_INTEGRATIONS = { id: '4876876000000391003', api_name: 'Integrations' };

export function seedVariables(sandbox: Sandbox): void {
	const groups: VariableGroupDoc[] = [
		{
			...GROUP_GENERAL,
			name: 'General',
			display_label: 'General',
			description: 'Organisation-wide values',
		},
		{
			...GROUP_INTEGRATIONS,
			name: 'Integrations',
			display_label: 'Integrations',
			description: 'Endpoints and switches of connected systems',
		},
	];
	for (const g of groups) sandbox.store.putDoc(GROUPS, g.id, g);
	const v = (
		id: string,
		api_name: string,
		type: string,
		value: unknown,
		group: { id: string; api_name: string },
		description: string,
	): VariableDoc => ({
		id,
		api_name,
		name: api_name.replace(/_/g, ' '),
		description,
		type,
		value,
		variable_group: { ...group },
		source: 'crm',
	});
	const variables = [
		v(
			'4876876000000391101',
			'Company_Tagline',
			'text',
			'Tools that sell themselves',
			GROUP_GENERAL,
			'Footer line of customer mails',
		),
		v(
			'4876876000000391103',
			'Discount_Limit',
			'integer',
			15,
			GROUP_GENERAL,
			'Highest discount in percent a rep may grant',
		),
		v(
			'4876876000000391105',
			'Fiscal_Year_Start',
			'date',
			'2025-04-01',
			GROUP_GENERAL,
			'First day of the fiscal year',
		),
		v(
			'4876876000000391107',
			'ERP_Endpoint',
			'website',
			'https://erp.sandbox.example/api',
			GROUP_INTEGRATIONS,
			'Base URL of the ERP',
		),
		v(
			'4876876000000391109',
			'Sync_Enabled',
			'checkbox',
			true,
			GROUP_INTEGRATIONS,
			'Whether the nightly ERP sync runs',
		),
	];
	for (const variable of variables) sandbox.store.putDoc(VARIABLES, variable.id, variable);
}

export const groups = (sandbox: Sandbox) => sandbox.store.docs<VariableGroupDoc>(GROUPS);
export const variables = (sandbox: Sandbox) => sandbox.store.docs<VariableDoc>(VARIABLES);
const DIGITS = /^\d+$/;

/** A group by id or API name (case-insensitive), from a string or `{id}` / `{api_name}`. */
export function findGroup(sandbox: Sandbox, key: unknown): VariableGroupDoc | undefined {
	let id: string | undefined;
	let apiName: string | undefined;
	if (typeof key === 'string' || typeof key === 'number') {
		if (DIGITS.test(String(key))) id = String(key);
		else apiName = String(key);
	} else if (key && typeof key === 'object' && !Array.isArray(key)) {
		const obj = key as Json;
		if (obj.id !== undefined && obj.id !== null) id = String(obj.id);
		else if (typeof obj.api_name === 'string') apiName = obj.api_name;
	}
	return groups(sandbox).find((g) =>
		id !== undefined
			? g.id === id
			: apiName !== undefined && g.api_name.toLowerCase() === apiName.toLowerCase(),
	);
}

/** A variable by path segment: digits = id, otherwise API name (case-insensitive). */
export function findVariable(sandbox: Sandbox, key: string): VariableDoc | undefined {
	if (DIGITS.test(key)) return sandbox.store.doc<VariableDoc>(VARIABLES, key);
	const lower = key.toLowerCase();
	return variables(sandbox).find((v) => v.api_name.toLowerCase() === lower);
}

export function variableJson(variable: VariableDoc, v: string): Json {
	const out: Json = { ...variable };
	if (v !== 'v2.1') delete out.source;
	return out;
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const WEBSITE_RE = /^(https?:\/\/)?[^\s/$.?#][^\s]*\.[^\s]+$/i;

/** A value checked and normalised for a variable type; `undefined` when it cannot be parsed. */
function parseValue(type: string, value: unknown): { value: unknown } | undefined {
	if (value === null || value === '') return { value: null };
	const num =
		typeof value === 'number'
			? value
			: typeof value === 'string' && value.trim() !== ''
				? Number(value)
				: NaN;
	switch (type) {
		case 'integer':
		case 'long':
			return Number.isSafeInteger(num) ? { value: num } : undefined;
		case 'decimal':
		case 'currency':
		case 'percent':
			return Number.isFinite(num) ? { value: num } : undefined;
		case 'checkbox':
			if (typeof value === 'boolean') return { value };
			return value === 'true' || value === 'false' ? { value: value === 'true' } : undefined;
		case 'date':
			return isDate(value) ? { value } : undefined;
		case 'datetime':
			return parseDateTime(value) !== undefined ? { value } : undefined;
		case 'email':
			return typeof value === 'string' && EMAIL_RE.test(value) ? { value } : undefined;
		case 'website':
			return typeof value === 'string' && WEBSITE_RE.test(value) ? { value } : undefined;
		case 'text':
			return typeof value === 'string' && value.length <= 255 && !value.includes('\n')
				? { value }
				: typeof value === 'number'
					? { value: String(value) }
					: undefined;
		case 'textarea':
			return typeof value === 'string' && value.length <= 32_000 ? { value } : undefined;
		case 'phone':
			return typeof value === 'string' && value.length <= 30 ? { value } : undefined;
		default:
			return undefined;
	}
}

function apiNameFrom(name: string): string {
	const base = name
		.trim()
		.replace(/[^A-Za-z0-9]+/g, '_')
		.replace(/^_+|_+$/g, '');
	return /^[A-Za-z]/.test(base) ? base : `V_${base}`;
}

const API_NAME_RE = /^[A-Za-z][A-Za-z0-9_]{0,49}$/;
export const fail = itemErrors('variables');

/**
 * Validates one item against `target` (a new or existing variable) and applies it.
 * `claimed` holds lower-case API names taken by other variables and earlier items of the request.
 */
export function applyVariable(
	sandbox: Sandbox,
	ctx: Ctx,
	index: number,
	input: Json,
	target: VariableDoc,
	creating: boolean,
	claimed: Set<string>,
): ErrorBody | undefined {
	if (creating) {
		for (const key of ['name', 'type', 'variable_group']) {
			if (isBlank(input[key]))
				return fail(ctx, index, 'INVALID_DATA', key, 'required field not found');
		}
	}
	if (
		input.name !== undefined &&
		(typeof input.name !== 'string' || input.name.trim() === '' || input.name.length > 50)
	) {
		return fail(ctx, index, 'INVALID_DATA', 'name', 'invalid data', { maximum_length: 50 });
	}
	if (
		input.type !== undefined &&
		!(VARIABLE_TYPES as readonly string[]).includes(String(input.type))
	) {
		return fail(ctx, index, 'INVALID_DATA', 'type', 'invalid data');
	}
	let group: VariableGroupDoc | undefined;
	if (input.variable_group !== undefined) {
		group = findGroup(sandbox, input.variable_group);
		if (!group)
			return fail(
				ctx,
				index,
				'INVALID_DATA',
				'variable_group',
				'the given variable group is invalid',
			);
	}
	if (
		input.description !== undefined &&
		input.description !== null &&
		(typeof input.description !== 'string' || input.description.length > 255)
	) {
		return fail(ctx, index, 'INVALID_DATA', 'description', 'invalid data', { maximum_length: 255 });
	}
	let apiName: string | undefined;
	if (
		input.api_name !== undefined &&
		!(typeof input.api_name === 'string' && !creating && input.api_name === target.api_name)
	) {
		if (typeof input.api_name !== 'string' || !API_NAME_RE.test(input.api_name))
			return fail(ctx, index, 'INVALID_DATA', 'api_name', 'invalid data');
		apiName = input.api_name;
	} else if (creating) {
		apiName = apiNameFrom(String(input.name));
	}
	if (apiName !== undefined && claimed.has(apiName.toLowerCase())) {
		return fail(ctx, index, 'DUPLICATE_DATA', 'api_name', 'duplicate data');
	}
	const type = String(input.type ?? target.type);
	let value = target.value;
	if (input.value !== undefined || input.type !== undefined) {
		const parsed = parseValue(type, input.value !== undefined ? input.value : target.value);
		if (!parsed)
			return fail(
				ctx,
				index,
				'UNABLE_TO_PARSE_DATA_TYPE',
				'value',
				`the value cannot be read as ${type}`,
				{ expected_data_type: type },
			);
		value = parsed.value;
	}

	if (input.name !== undefined) target.name = String(input.name).trim();
	if (apiName !== undefined) target.api_name = apiName;
	if (input.description !== undefined) target.description = input.description as string | null;
	if (group) target.variable_group = { id: group.id, api_name: group.api_name };
	target.type = type;
	target.value = value;
	return undefined;
}

// ---- variables ----------------------------------------------------------------------------

export function groupParam(ctx: Ctx): VariableGroupDoc {
	const key = requiredQuery(ctx, 'group');
	const group = findGroup(ctx.sandbox, key);
	if (!group) {
		throw HttpError.invalidData(
			ctx.v === 'v2.1' ? { param: 'group', param_name: 'group' } : { param: 'group' },
			'the given variable group is invalid',
		);
	}
	return group;
}

/** Lower-case API names of every variable but `id`. */
export function claimedExcept(sandbox: Sandbox, id?: string): Set<string> {
	return new Set(
		variables(sandbox)
			.filter((v) => v.id !== id)
			.map((v) => v.api_name.toLowerCase()),
	);
}

export function updateOne(
	ctx: Ctx,
	raw: unknown,
	index: number,
	existing: VariableDoc | undefined,
	key: string | undefined,
): Json {
	if (!raw || typeof raw !== 'object' || Array.isArray(raw))
		return fail(ctx, index, 'INVALID_DATA', 'variables', 'invalid data');
	if (!key) return fail(ctx, index, 'INVALID_DATA', 'id', 'required field not found');
	if (!existing)
		return fail(ctx, index, 'INVALID_DATA', 'id', 'the id given seems to be invalid', { id: key });
	const next = structuredClone(existing);
	const input = { ...(raw as Json) };
	delete input.id;
	const error = applyVariable(
		ctx.sandbox,
		ctx,
		index,
		input,
		next,
		false,
		claimedExcept(ctx.sandbox, existing.id),
	);
	if (error) return error;
	ctx.sandbox.store.putDoc(VARIABLES, next.id, next);
	return successItem(next.id, 'variable updated');
}

export function deleteOne(sandbox: Sandbox, key: string): Json {
	const existing = findVariable(sandbox, key);
	if (!existing) return errorItem('INVALID_DATA', { id: key }, 'the id given seems to be invalid');
	sandbox.store.deleteDoc(VARIABLES, existing.id);
	return successItem(existing.id, 'variable deleted');
}
