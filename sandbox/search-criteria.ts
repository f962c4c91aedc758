// Search criteria strings of docs/protocol.md §3.11 (SearchRecords, RecordCount), parsed into the
// JSON criteria of §3.12 so that criteria.ts is the one matcher of both. Syntax and operators only:
// the caller types each condition against its module as the parser reaches it, so errors come in
// the order of the text.
//
//   criteria  = group
//   group     = "(" ( condition | group *( ( "and" / "or" ) group ) ) ")"   and/or in any case, left to right
//   condition = field ":" operator ":" value *( "," value )                 `\` escapes the next character
//
// Several values mean any of them (`not_equal`: none of them).

import type { JsonCriteriaLeaf, JsonCriterion } from './criteria.ts';

const SEARCH_MAX_CONDITIONS = 10;

/** Search operator → JSON comparator ("search strings say `equals`; JSON criteria say `equal`"). */
const COMPARATOR_OF: Record<string, string> = {
	equals: 'equal',
	starts_with: 'starts_with',
	not_equal: 'not_equal',
	greater_than: 'greater_than',
	greater_equal: 'greater_equal',
	less_than: 'less_than',
	less_equal: 'less_equal',
};

const TEXT_OPERATORS = ['equals', 'starts_with'];
const ORDERED_OPERATORS = Object.keys(COMPARATOR_OF);

/** The operators a field takes: text fields `equals`, `starts_with`; ordered ones (numbers, dates) all. */
export function searchOperators(ordered: boolean): readonly string[] {
	return ordered ? ORDERED_OPERATORS : TEXT_OPERATORS;
}

/** One condition as written: field API name, operator in lower case, values unescaped and trimmed. */
export interface SearchCondition {
	api_name: string;
	operator: string;
	values: string[];
}

/**
 * What is wrong with a search string: `syntax` (the message says what and where, `api_name` when the
 * field is known) or `conditions` (more than `limit`).
 */
interface SearchProblem {
	reason: 'syntax' | 'conditions';
	message: string;
	api_name?: string;
	limit?: number;
}

interface SearchParseOptions {
	/** checks a condition (field, operator: see searchOperators) and answers its values in the form the matcher compares; throws when invalid */
	typeCondition(condition: SearchCondition): unknown[];
	/** the caller's error for a malformed string, thrown as it is */
	fail(problem: SearchProblem): Error;
}

interface Parser extends SearchParseOptions {
	text: string;
	pos: number;
	conditions: number;
}

const syntax = (p: Parser, message: string, apiName?: string): Error =>
	p.fail(
		apiName === undefined
			? { reason: 'syntax', message }
			: { reason: 'syntax', message, api_name: apiName },
	);

function expectChar(p: Parser, ch: string): void {
	if (p.text[p.pos] !== ch) throw syntax(p, `expected "${ch}" at position ${p.pos}`);
	p.pos++;
}

function parseGroup(p: Parser): JsonCriterion {
	expectChar(p, '(');
	let result: JsonCriterion;
	if (p.text[p.pos] === '(') {
		result = parseGroup(p);
		let chain: string | undefined;
		for (;;) {
			const rest = p.text.slice(p.pos).toLowerCase();
			const op = rest.startsWith('and(') ? 'and' : rest.startsWith('or(') ? 'or' : undefined;
			if (!op) break;
			p.pos += op.length;
			const right = parseGroup(p);
			if (chain === op) (result as { group: JsonCriterion[] }).group.push(right);
			else result = { group_operator: op, group: [result, right] };
			chain = op;
		}
	} else {
		result = parseCondition(p);
	}
	expectChar(p, ')');
	return result;
}

function parseCondition(p: Parser): JsonCriterion {
	p.conditions++;
	if (p.conditions > SEARCH_MAX_CONDITIONS) {
		throw p.fail({
			reason: 'conditions',
			message: `at most ${SEARCH_MAX_CONDITIONS} conditions are allowed`,
			limit: SEARCH_MAX_CONDITIONS,
		});
	}
	// the field and operator end at the next `:`; the values run to the next unescaped `)`
	const fieldEnd = p.text.indexOf(':', p.pos);
	if (fieldEnd === -1) throw syntax(p, 'condition must be field:operator:value');
	const apiName = p.text.slice(p.pos, fieldEnd).trim();
	const opEnd = p.text.indexOf(':', fieldEnd + 1);
	if (opEnd === -1) throw syntax(p, 'condition must be field:operator:value', apiName);
	const operator = p.text
		.slice(fieldEnd + 1, opEnd)
		.trim()
		.toLowerCase();
	p.pos = opEnd + 1;
	const values: string[] = [];
	let current = '';
	while (p.pos < p.text.length && p.text[p.pos] !== ')') {
		const ch = p.text[p.pos];
		if (ch === '\\' && p.pos + 1 < p.text.length) {
			current += p.text[p.pos + 1];
			p.pos += 2;
			continue;
		}
		if (ch === ',') {
			values.push(current.trim());
			current = '';
		} else {
			current += ch;
		}
		p.pos++;
	}
	values.push(current.trim());
	const typed = p.typeCondition({ api_name: apiName, operator, values });
	return leafOf(apiName, operator, typed);
}

/** The JSON criterion of one condition: one value a leaf; several `in` / `not_in`, or an `or` of leaves. */
function leafOf(apiName: string, operator: string, values: unknown[]): JsonCriterion {
	const comparator = COMPARATOR_OF[operator];
	if (values.length === 1) return { field: apiName, comparator, value: values[0] };
	if (comparator === 'equal') return { field: apiName, comparator: 'in', value: values };
	if (comparator === 'not_equal') return { field: apiName, comparator: 'not_in', value: values };
	return {
		group_operator: 'or',
		group: values.map((value): JsonCriteriaLeaf => ({ field: apiName, comparator, value })),
	};
}

/** Parses a search `criteria` string into JSON criteria (§3.12), condition by condition in text order. */
export function parseSearchCriteria(criteria: string, options: SearchParseOptions): JsonCriterion {
	const p: Parser = {
		text: criteria.trim(),
		pos: 0,
		conditions: 0,
		typeCondition: options.typeCondition,
		fail: options.fail,
	};
	const tree = parseGroup(p);
	if (p.pos !== p.text.length) throw syntax(p, `unexpected text at position ${p.pos}`);
	return tree;
}
