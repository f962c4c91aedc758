// JSON criteria of docs/protocol.md §3.12 (custom views, MassUpdate, bulk read, territory rules,
// blueprint process entry; search strings of §3.11 parse into them, search-criteria.ts): a pure
// matcher and a structural checker. No store, no HTTP: callers
// map a CriteriaProblem to their own error code (INVALID_DATA, INVALID_CRITERIA, …).
//
// Leaf:  {"field": "Lead_Source", "comparator": "equal", "value": "Web"}
//        field may also be {"api_name": "Lead_Source", "id": "…"} (custom views) or the leaf may
//        carry "api_name" instead of "field" (bulk read).
// Group: {"group_operator": "and" | "or", "group": [criterion, …]}
// A list of criteria (MassUpdate `criteria` List) means all of them (and).
//
// Matching rules (sandbox, **assumed** where the contract is silent):
// - text compares case-insensitively; numbers numerically (numeric strings too); Date and DateTime
//   values chronologically (§4 forms, offsets honoured); booleans also match "true"/"false";
// - lookups / owners (`{id, name}`) match on id (or on name when the value is not an id); a
//   criterion value `{id}` matches the id;
// - multi-select lists match when any element matches (`equal`, `in`, `contains`, …) and the
//   negated comparators hold when no element matches;
// - an empty record value (absent, null, "", []) matches `equal null`/`equal ""`, `not_equal x`
//   for non-empty x, and the negated comparators; never the ordering comparators or `between`;
// - the value `${CURRENTUSER}` stands for `options.currentUserId`; `${EMPTY}` for an empty value;
// - with `typed` (search strings, §3.11) the caller has typed the values by field: numbers compare
//   numerically, text by its exact characters (nothing read as a number or a date, no Unicode
//   folding), `""` is a value like any other and there are no placeholders.

export const COMPARATORS = [
	'equal',
	'not_equal',
	'in',
	'not_in',
	'less_than',
	'less_equal',
	'greater_than',
	'greater_equal',
	'contains',
	'not_contains',
	'starts_with',
	'ends_with',
	'between',
	'not_between',
] as const;

type Comparator = (typeof COMPARATORS)[number];

export interface JsonCriteriaLeaf {
	field?: string | { api_name: string; id?: string };
	api_name?: string;
	comparator: Comparator | string;
	value?: unknown;
}

interface JsonCriteriaGroup {
	group_operator: string;
	group: JsonCriterion[];
}

export type JsonCriterion = JsonCriteriaLeaf | JsonCriteriaGroup;

export interface MatchOptions {
	/** substituted for the value `${CURRENTUSER}` */
	currentUserId?: string;
	/** values already typed by field (numbers, epoch ms, lower-cased text): compare them as they are */
	typed?: boolean;
}

/** What is wrong with a criteria structure; `path` is a JSON path below the criteria root. */
interface CriteriaProblem {
	reason: 'shape' | 'field' | 'comparator' | 'group_operator' | 'value' | 'conditions' | 'values';
	path: string;
	api_name?: string;
	comparator?: string;
	group_operator?: string;
	/** the exceeded limit (`conditions`, `values`) */
	limit?: number;
	message: string;
}

interface CheckOptions {
	/** API names the criteria may use; unknown names are a `field` problem (case-sensitive) */
	fields?: Iterable<string>;
	/** at most this many leaves */
	maxConditions?: number;
	/** at most this many values per `in` / `not_in` */
	maxValues?: number;
}

const LIST_COMPARATORS = new Set(['in', 'not_in']);
const RANGE_COMPARATORS = new Set(['between', 'not_between']);
const NEGATED = new Set(['not_equal', 'not_in', 'not_contains', 'not_between']);

function isGroup(criterion: unknown): criterion is JsonCriteriaGroup {
	return (
		!!criterion &&
		typeof criterion === 'object' &&
		Array.isArray((criterion as JsonCriteriaGroup).group)
	);
}

/** The field API name of a leaf (`field` string, `field.api_name`, or `api_name`). */
function leafField(leaf: JsonCriteriaLeaf): string | undefined {
	if (typeof leaf.field === 'string') return leaf.field;
	if (leaf.field && typeof leaf.field === 'object' && typeof leaf.field.api_name === 'string')
		return leaf.field.api_name;
	return typeof leaf.api_name === 'string' ? leaf.api_name : undefined;
}

/** Every leaf of the criteria, depth first. */
export function criteriaLeaves(criteria: unknown): JsonCriteriaLeaf[] {
	if (Array.isArray(criteria)) return criteria.flatMap((c) => criteriaLeaves(c));
	if (isGroup(criteria)) return criteria.group.flatMap((c) => criteriaLeaves(c));
	return criteria && typeof criteria === 'object' ? [criteria as JsonCriteriaLeaf] : [];
}

/** Field API names the criteria use (deduplicated, in first-use order). */
export function criteriaFields(criteria: unknown): string[] {
	return [
		...new Set(
			criteriaLeaves(criteria)
				.map(leafField)
				.filter((f): f is string => !!f),
		),
	];
}

/** Checks the structure of criteria (and the optional limits); undefined when well-formed. */
export function checkJsonCriteria(
	criteria: unknown,
	options: CheckOptions = {},
): CriteriaProblem | undefined {
	const known = options.fields ? new Set(options.fields) : undefined;
	let leaves = 0;
	const visit = (c: unknown, path: string): CriteriaProblem | undefined => {
		if (Array.isArray(c)) {
			if (c.length === 0) return { reason: 'shape', path, message: 'criteria list is empty' };
			for (let i = 0; i < c.length; i++) {
				const problem = visit(c[i], `${path}[${i}]`);
				if (problem) return problem;
			}
			return undefined;
		}
		if (!c || typeof c !== 'object')
			return { reason: 'shape', path, message: 'a criterion must be an object' };
		if (isGroup(c)) {
			const op = String(c.group_operator ?? '').toLowerCase();
			if (op !== 'and' && op !== 'or') {
				return {
					reason: 'group_operator',
					path: `${path}.group_operator`,
					group_operator: String(c.group_operator),
					message: 'group_operator must be and or or',
				};
			}
			if (c.group.length === 0)
				return {
					reason: 'shape',
					path: `${path}.group`,
					message: 'a group needs at least one criterion',
				};
			for (let i = 0; i < c.group.length; i++) {
				const problem = visit(c.group[i], `${path}.group[${i}]`);
				if (problem) return problem;
			}
			return undefined;
		}
		const leaf = c as JsonCriteriaLeaf;
		leaves++;
		if (options.maxConditions !== undefined && leaves > options.maxConditions) {
			return {
				reason: 'conditions',
				path,
				limit: options.maxConditions,
				message: `at most ${options.maxConditions} conditions are allowed`,
			};
		}
		const field = leafField(leaf);
		if (!field)
			return { reason: 'field', path: `${path}.field`, message: 'the criterion names no field' };
		if (known && !known.has(field))
			return {
				reason: 'field',
				path: `${path}.field`,
				api_name: field,
				message: `unknown field ${field}`,
			};
		const comparator = String(leaf.comparator ?? '');
		if (!(COMPARATORS as readonly string[]).includes(comparator)) {
			return {
				reason: 'comparator',
				path: `${path}.comparator`,
				api_name: field,
				comparator,
				message: `comparator ${comparator || '(none)'} is not supported`,
			};
		}
		if (!('value' in leaf))
			return {
				reason: 'value',
				path: `${path}.value`,
				api_name: field,
				comparator,
				message: 'the criterion has no value',
			};
		if (LIST_COMPARATORS.has(comparator)) {
			if (!Array.isArray(leaf.value) || leaf.value.length === 0) {
				return {
					reason: 'value',
					path: `${path}.value`,
					api_name: field,
					comparator,
					message: `${comparator} needs a non-empty list value`,
				};
			}
			if (options.maxValues !== undefined && leaf.value.length > options.maxValues) {
				return {
					reason: 'values',
					path: `${path}.value`,
					api_name: field,
					comparator,
					limit: options.maxValues,
					message: `at most ${options.maxValues} values are allowed`,
				};
			}
		}
		if (
			RANGE_COMPARATORS.has(comparator) &&
			(!Array.isArray(leaf.value) || leaf.value.length !== 2)
		) {
			return {
				reason: 'value',
				path: `${path}.value`,
				api_name: field,
				comparator,
				message: `${comparator} needs a [from, to] value`,
			};
		}
		return undefined;
	};
	return visit(criteria, '$');
}

// ---- matching -------------------------------------------------------------------------------

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const NUMBER_RE = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;

type Scalar = string | number | boolean;

function isEmpty(value: unknown, options: MatchOptions): boolean {
	if (value === undefined || value === null || (Array.isArray(value) && value.length === 0))
		return true;
	return !options.typed && (value === '' || value === '${EMPTY}');
}

/** The comparable scalars of a record value: list elements, lookup id and name. */
function recordScalars(value: unknown, options: MatchOptions): Scalar[] {
	if (isEmpty(value, options)) return [];
	if (Array.isArray(value)) return value.flatMap((v) => recordScalars(v, options));
	if (typeof value === 'object') {
		const obj = value as Record<string, unknown>;
		return [obj.id, obj.name].filter(
			(v): v is Scalar => typeof v === 'string' || typeof v === 'number',
		);
	}
	return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
		? [value]
		: [];
}

function criterionScalar(value: unknown, options: MatchOptions): Scalar | null {
	if (value === '${CURRENTUSER}' && !options.typed) return options.currentUserId ?? null;
	if (isEmpty(value, options)) return null;
	if (typeof value === 'object' && value !== null) {
		const obj = value as Record<string, unknown>;
		const key = obj.id ?? obj.name ?? obj.api_name;
		return typeof key === 'string' || typeof key === 'number' ? key : null;
	}
	return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
		? value
		: null;
}

function asTime(value: Scalar): number | undefined {
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (DATE_RE.test(text)) return Date.parse(`${text}T00:00:00Z`);
	if (DATETIME_RE.test(text)) return Date.parse(text);
	return undefined;
}

function asNumber(value: Scalar): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && NUMBER_RE.test(value.trim())) return Number(value);
	return undefined;
}

const INTEGER_RE = /^-?\d+$/;

/** Orders two scalars: numbers (long integers such as ids exactly), then times, then case-insensitive text. */
function compareLoose(a: Scalar, b: Scalar): number {
	const ia = String(a).trim();
	const ib = String(b).trim();
	if (
		typeof a !== 'boolean' &&
		typeof b !== 'boolean' &&
		INTEGER_RE.test(ia) &&
		INTEGER_RE.test(ib) &&
		Math.max(ia.length, ib.length) > 15
	) {
		const diff = BigInt(ia) - BigInt(ib);
		return diff === 0n ? 0 : diff < 0n ? -1 : 1;
	}
	const na = asNumber(a);
	const nb = asNumber(b);
	if (na !== undefined && nb !== undefined) return na - nb;
	const ta = asTime(a);
	const tb = asTime(b);
	if (ta !== undefined && tb !== undefined) return ta - tb;
	return String(a).toLowerCase().localeCompare(String(b).toLowerCase());
}

/** Orders two typed scalars: numbers numerically, anything else by its characters. */
function compareTyped(a: Scalar, b: Scalar): number {
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	const x = String(a);
	const y = String(b);
	return x < y ? -1 : x > y ? 1 : 0;
}

/** How scalars order, equal and read as text: guessed from their form, or as the caller typed them. */
interface Semantics {
	compare(a: Scalar, b: Scalar): number;
	equal(a: Scalar, b: Scalar): boolean;
	text(v: Scalar): string;
}

const LOOSE: Semantics = {
	compare: compareLoose,
	equal: (a, b) =>
		typeof a === 'boolean' || typeof b === 'boolean'
			? String(a).toLowerCase() === String(b).toLowerCase()
			: compareLoose(a, b) === 0,
	text: (v) => String(v).toLowerCase(),
};

const TYPED: Semantics = {
	compare: compareTyped,
	equal: (a, b) => compareTyped(a, b) === 0,
	text: (v) => String(v),
};

function positive(
	comparator: string,
	values: Scalar[],
	raw: unknown,
	options: MatchOptions,
): boolean {
	const { compare, equal, text } = options.typed ? TYPED : LOOSE;
	const list = Array.isArray(raw)
		? raw.map((v) => criterionScalar(v, options))
		: [criterionScalar(raw, options)];
	const wanted = list.filter((v): v is Scalar => v !== null);
	const wantsEmpty = list.some((v) => v === null);
	const any = (test: (v: Scalar, w: Scalar) => boolean) =>
		values.some((v) => wanted.some((w) => test(v, w)));
	switch (comparator) {
		case 'equal':
		case 'not_equal':
		case 'in':
		case 'not_in':
			if (values.length === 0) return wantsEmpty;
			return any(equal);
		case 'contains':
		case 'not_contains':
			return any((v, w) => text(v).includes(text(w)));
		case 'starts_with':
			return any((v, w) => text(v).startsWith(text(w)));
		case 'ends_with':
			return any((v, w) => text(v).endsWith(text(w)));
		case 'less_than':
			return any((v, w) => compare(v, w) < 0);
		case 'less_equal':
			return any((v, w) => compare(v, w) <= 0);
		case 'greater_than':
			return any((v, w) => compare(v, w) > 0);
		case 'greater_equal':
			return any((v, w) => compare(v, w) >= 0);
		case 'between':
		case 'not_between': {
			if (!Array.isArray(raw) || raw.length !== 2) return false;
			const from = criterionScalar(raw[0], options);
			const to = criterionScalar(raw[1], options);
			if (from === null || to === null) return false;
			return values.some((v) => compare(v, from) >= 0 && compare(v, to) <= 0);
		}
		default:
			return false;
	}
}

function matchLeaf(
	record: Record<string, unknown>,
	leaf: JsonCriteriaLeaf,
	options: MatchOptions,
): boolean {
	const field = leafField(leaf);
	if (!field) return false;
	const comparator = String(leaf.comparator ?? '');
	if (!(COMPARATORS as readonly string[]).includes(comparator)) return false;
	const values = recordScalars(record[field], options);
	const hit = positive(comparator, values, leaf.value, options);
	return NEGATED.has(comparator) ? !hit : hit;
}

/**
 * Whether a record satisfies JSON criteria (§3.12). `undefined`/`null` criteria match every record;
 * a list is an `and` of its items. Malformed parts never match (check them with checkJsonCriteria).
 */
export function matchJsonCriteria(
	record: Record<string, unknown>,
	criteria: unknown,
	options: MatchOptions = {},
): boolean {
	if (criteria === undefined || criteria === null) return true;
	if (Array.isArray(criteria)) return criteria.every((c) => matchJsonCriteria(record, c, options));
	if (isGroup(criteria)) {
		const op = String(criteria.group_operator ?? '').toLowerCase();
		if (op === 'and') return criteria.group.every((c) => matchJsonCriteria(record, c, options));
		if (op === 'or') return criteria.group.some((c) => matchJsonCriteria(record, c, options));
		return false;
	}
	if (typeof criteria !== 'object') return false;
	return matchLeaf(record, criteria as JsonCriteriaLeaf, options);
}
