// Object query (COQL, docs/protocol.md §3.13): a tokenizer and recursive-descent parser for exactly
// the contract's subset, a resolver that checks the statement against module metadata and the
// limits (columns, conditions, in-values, joins, LIMIT), and an evaluator over the record store.
// Every refusal is an HttpError with the contract's codes: SYNTAX_ERROR {near, line, column,
// clause}, INVALID_QUERY {column_name, reason, operator, data_type, expected_data_type},
// LIMIT_EXCEEDED {by, limit}, INVALID_MODULE {module}.
import { HttpError } from './errors.ts';
import type { FieldDef, ModuleDef } from './catalogue/modules.ts';
import type { Sandbox } from './types.ts';
import type { Json, StoredRecord } from './store.ts';
import { isDate, parseDateTime } from './time.ts';

export const COQL_LIMITS = { perCall: 200, select: 50, where: 25, inValues: 50, joins: 2 };

/**
 * Deepest bracket nesting the parser accepts. 25 conditions nested pairwise need about 25 levels;
 * the margin allows redundant brackets, the bound keeps the recursive parser off the stack limit.
 */
const COQL_MAX_NESTING = 64;

// ---- tokens ---------------------------------------------------------------------------------

type TokenKind = 'ident' | 'number' | 'string' | 'punct' | 'op' | 'end';

export interface Token {
	kind: TokenKind;
	/** source text (strings: with quotes) */
	text: string;
	/** string literal content (unescaped) */
	value?: string;
	line: number;
	column: number;
	offset: number;
}

type Clause = 'select' | 'from' | 'where' | 'order by' | 'limit';

const KEYWORDS = new Set([
	'select',
	'from',
	'where',
	'order',
	'by',
	'asc',
	'desc',
	'limit',
	'offset',
	'and',
	'or',
	'not',
	'in',
	'like',
	'is',
	'null',
	'between',
	'true',
	'false',
]);

function syntaxError(
	token: Token,
	clause: Clause,
	message = 'error while parsing the query',
): HttpError {
	return new HttpError(
		'SYNTAX_ERROR',
		{ near: token.text, line: token.line, column: token.column, clause },
		message,
	);
}

/** Splits a statement into tokens with 1-based line and column positions. */
export function tokenize(source: string): Token[] {
	const tokens: Token[] = [];
	let i = 0;
	let line = 1;
	let lineStart = 0;
	const at = (offset: number) => ({ line, column: offset - lineStart + 1, offset });
	const identStart = (c: string | undefined) => !!c && /[A-Za-z_$]/.test(c);
	const identPart = (c: string | undefined) => !!c && /[A-Za-z0-9_$]/.test(c);
	// the clause a stray character is reported in: the last clause keyword seen
	let clause: Clause = 'select';
	while (i < source.length) {
		const c = source[i];
		if (c === '\n') {
			i++;
			line++;
			lineStart = i;
			continue;
		}
		if (/\s/.test(c)) {
			i++;
			continue;
		}
		const start = at(i);
		if (identStart(c)) {
			let j = i + 1;
			for (;;) {
				while (identPart(source[j])) j++;
				if (source[j] === '.' && identStart(source[j + 1])) {
					j += 2;
					continue;
				}
				break;
			}
			const text = source.slice(i, j);
			const lower = text.toLowerCase();
			if (lower === 'select' || lower === 'from' || lower === 'where' || lower === 'limit')
				clause = lower;
			if (lower === 'order') clause = 'order by';
			tokens.push({ kind: 'ident', text, ...start });
			i = j;
			continue;
		}
		if (/\d/.test(c) || (c === '-' && /\d/.test(source[i + 1] ?? ''))) {
			const m = /^-?\d+(\.\d+)?/.exec(source.slice(i))!;
			tokens.push({ kind: 'number', text: m[0], ...start });
			i += m[0].length;
			continue;
		}
		if (c === "'") {
			let j = i + 1;
			let value = '';
			for (;;) {
				if (j >= source.length) {
					throw syntaxError(
						{ kind: 'string', text: source.slice(i, i + 20), ...start },
						clause,
						'unterminated string literal',
					);
				}
				if (source[j] === "'") {
					if (source[j + 1] === "'") {
						value += "'";
						j += 2;
						continue;
					}
					j++;
					break;
				}
				if (source[j] === '\n') {
					line++;
					lineStart = j + 1;
				}
				value += source[j];
				j++;
			}
			tokens.push({ kind: 'string', text: source.slice(i, j), value, ...start });
			i = j;
			continue;
		}
		if (c === '(' || c === ')' || c === ',' || c === '*' || c === ';') {
			tokens.push({ kind: 'punct', text: c, ...start });
			i++;
			continue;
		}
		const two = source.slice(i, i + 2);
		if (two === '!=' || two === '>=' || two === '<=' || two === '<>') {
			tokens.push({ kind: 'op', text: two, ...start });
			i += 2;
			continue;
		}
		if (c === '=' || c === '>' || c === '<') {
			tokens.push({ kind: 'op', text: c, ...start });
			i++;
			continue;
		}
		throw syntaxError({ kind: 'punct', text: c, ...start }, clause);
	}
	tokens.push({ kind: 'end', text: tokens[tokens.length - 1]?.text ?? '', ...at(i) });
	return tokens;
}

// ---- syntax tree ----------------------------------------------------------------------------

export interface ColumnRef {
	/** as written: `Account_Name.Account_Name` */
	text: string;
	token: Token;
}

export interface Literal {
	kind: 'string' | 'number' | 'boolean';
	/** string content, number text (ids keep their digits), `true` / `false` */
	text: string;
	token: Token;
}

export type Operator =
	| '='
	| '!='
	| '>'
	| '<'
	| '>='
	| '<='
	| 'is null'
	| 'is not null'
	| 'between'
	| 'in'
	| 'not in'
	| 'like'
	| 'not like';

export interface Condition {
	kind: 'cond';
	column: ColumnRef;
	op: Operator;
	values: Literal[];
	token: Token;
}

export type Expr = Condition | { kind: 'and' | 'or'; left: Expr; right: Expr };

interface OrderItem {
	column: ColumnRef;
	desc: boolean;
}

export interface Statement {
	columns: ColumnRef[];
	module: { name: string; token: Token };
	where: Expr;
	orderBy: OrderItem[];
	limit?: { count: number; offset: number; token: Token };
}

// ---- parser ---------------------------------------------------------------------------------

class Parser {
	private readonly tokens: Token[];
	private pos = 0;
	private clause: Clause = 'select';
	private depth = 0;

	constructor(tokens: Token[]) {
		this.tokens = tokens;
	}

	private get tok(): Token {
		return this.tokens[this.pos];
	}

	private isKeyword(word: string, token = this.tok): boolean {
		return token.kind === 'ident' && token.text.toLowerCase() === word;
	}

	private fail(message?: string): never {
		throw syntaxError(this.tok, this.clause, message);
	}

	private expectKeyword(word: string, message?: string): Token {
		if (!this.isKeyword(word)) this.fail(message);
		return this.tokens[this.pos++];
	}

	private acceptKeyword(word: string): boolean {
		if (!this.isKeyword(word)) return false;
		this.pos++;
		return true;
	}

	private acceptPunct(p: string): boolean {
		if (this.tok.kind !== 'punct' || this.tok.text !== p) return false;
		this.pos++;
		return true;
	}

	private expectPunct(p: string): Token {
		if (this.tok.kind !== 'punct' || this.tok.text !== p) this.fail();
		return this.tokens[this.pos++];
	}

	private column(): ColumnRef {
		const token = this.tok;
		if (token.kind !== 'ident' || KEYWORDS.has(token.text.toLowerCase())) this.fail();
		this.pos++;
		return { text: token.text, token };
	}

	parse(): Statement {
		this.expectKeyword('select');
		const columns = [this.column()];
		while (this.acceptPunct(',')) columns.push(this.column());

		this.clause = 'from';
		this.expectKeyword('from');
		const moduleToken = this.tok;
		if (
			moduleToken.kind !== 'ident' ||
			moduleToken.text.includes('.') ||
			KEYWORDS.has(moduleToken.text.toLowerCase())
		)
			this.fail();
		this.pos++;

		this.clause = 'where';
		// WHERE is required (§3.13, assumed)
		this.expectKeyword('where', 'missing clause');
		const where = this.expr();

		const orderBy: OrderItem[] = [];
		if (this.isKeyword('order')) {
			this.clause = 'order by';
			this.pos++;
			this.expectKeyword('by');
			do {
				const column = this.column();
				let desc = false;
				if (this.acceptKeyword('desc')) desc = true;
				else this.acceptKeyword('asc');
				orderBy.push({ column, desc });
			} while (this.acceptPunct(','));
		}

		let limit: Statement['limit'];
		if (this.isKeyword('limit')) {
			this.clause = 'limit';
			const token = this.tok;
			this.pos++;
			const first = this.integer();
			if (this.acceptPunct(',')) {
				limit = { offset: first, count: this.integer(), token };
			} else if (this.acceptKeyword('offset')) {
				limit = { count: first, offset: this.integer(), token };
			} else {
				limit = { count: first, offset: 0, token };
			}
		}
		if (this.tok.kind !== 'end') this.fail();
		return {
			columns,
			module: { name: moduleToken.text, token: moduleToken },
			where,
			orderBy,
			limit,
		};
	}

	private integer(): number {
		const token = this.tok;
		if (token.kind !== 'number' || !/^\d+$/.test(token.text)) this.fail();
		this.pos++;
		return Number(token.text);
	}

	/** expr := term [(and|or) term]: more than two conditions need brackets, nesting pairwise */
	private expr(): Expr {
		const left = this.term();
		if (this.isKeyword('and') || this.isKeyword('or')) {
			const kind = this.tok.text.toLowerCase() as 'and' | 'or';
			this.pos++;
			const right = this.term();
			if (this.isKeyword('and') || this.isKeyword('or')) {
				this.fail('brackets are mandatory when there are more than two conditions');
			}
			return { kind, left, right };
		}
		return left;
	}

	private term(): Expr {
		if (this.tok.kind === 'punct' && this.tok.text === '(') {
			if (this.depth >= COQL_MAX_NESTING)
				this.fail(`brackets are nested more than ${COQL_MAX_NESTING} levels deep`);
			this.pos++;
			this.depth++;
			const inner = this.expr();
			this.expectPunct(')');
			this.depth--;
			return inner;
		}
		return this.condition();
	}

	private literal(): Literal {
		const token = this.tok;
		if (token.kind === 'string') {
			this.pos++;
			return { kind: 'string', text: token.value ?? '', token };
		}
		if (token.kind === 'number') {
			this.pos++;
			return { kind: 'number', text: token.text, token };
		}
		if (this.isKeyword('true') || this.isKeyword('false')) {
			this.pos++;
			return { kind: 'boolean', text: token.text.toLowerCase(), token };
		}
		return this.fail();
	}

	private condition(): Condition {
		const column = this.column();
		const token = this.tok;
		if (token.kind === 'op') {
			if (token.text === '<>') this.fail();
			this.pos++;
			return { kind: 'cond', column, op: token.text as Operator, values: [this.literal()], token };
		}
		if (this.acceptKeyword('is')) {
			const negated = this.acceptKeyword('not');
			this.expectKeyword('null');
			return { kind: 'cond', column, op: negated ? 'is not null' : 'is null', values: [], token };
		}
		const negated = this.acceptKeyword('not');
		if (this.acceptKeyword('in')) {
			this.expectPunct('(');
			const values = [this.literal()];
			while (this.acceptPunct(',')) values.push(this.literal());
			this.expectPunct(')');
			return { kind: 'cond', column, op: negated ? 'not in' : 'in', values, token };
		}
		if (this.acceptKeyword('like')) {
			const pattern = this.literal();
			return { kind: 'cond', column, op: negated ? 'not like' : 'like', values: [pattern], token };
		}
		if (!negated && this.acceptKeyword('between')) {
			const from = this.literal();
			this.expectKeyword('and');
			const to = this.literal();
			return { kind: 'cond', column, op: 'between', values: [from, to], token };
		}
		return this.fail();
	}
}

/** Parses a statement; throws SYNTAX_ERROR with the position of the offending token. */
export function parseCoql(source: string): Statement {
	return new Parser(tokenize(source)).parse();
}

// ---- resolution against metadata ------------------------------------------------------------

/** Comparison family of a column: decides operators, literal conversion and ordering. */
type Family = 'text' | 'number' | 'date' | 'datetime' | 'boolean' | 'id' | 'multi';

const USER_FIELDS: Record<string, Family> = {
	id: 'id',
	first_name: 'text',
	last_name: 'text',
	full_name: 'text',
	email: 'text',
	status: 'text',
};

interface Resolved {
	/** canonical output key: `Last_Name` or `Account_Name.Account_Name` */
	key: string;
	field: FieldDef;
	/** relation: the target field (records) or user key (users) */
	sub?: { module?: ModuleDef; field?: FieldDef; userKey?: string };
	family: Family;
	/** the data type of the compared value */
	dataType: string;
	textarea: boolean;
}

function invalidQuery(details: Json, message = 'invalid query formed'): HttpError {
	return new HttpError('INVALID_QUERY', details, message);
}

function familyOf(field: FieldDef): Family | undefined {
	if (field.api_name === 'id') return 'id';
	switch (field.data_type) {
		case 'text':
		case 'textarea':
		case 'email':
		case 'phone':
		case 'website':
		case 'picklist':
		case 'autonumber':
			return 'text';
		case 'integer':
		case 'bigint':
		case 'double':
		case 'currency':
		case 'percent':
			return 'number';
		case 'date':
			return 'date';
		case 'datetime':
			return 'datetime';
		case 'boolean':
			return 'boolean';
		case 'lookup':
		case 'ownerlookup':
		case 'userlookup':
			return 'id';
		case 'multiselectpicklist':
			return 'multi';
		default:
			return undefined;
	}
}

const isLookup = (f: FieldDef) =>
	f.data_type === 'lookup' || f.data_type === 'ownerlookup' || f.data_type === 'userlookup';

function findField(module: ModuleDef, name: string): FieldDef | undefined {
	const lower = name.toLowerCase();
	return module.fields.find((f) => f.api_name.toLowerCase() === lower);
}

function resolveColumn(
	sandbox: Sandbox,
	module: ModuleDef,
	ref: ColumnRef,
	joins: Set<string>,
): Resolved {
	const parts = ref.text.split('.');
	const unknown = () => invalidQuery({ column_name: ref.text, reason: 'invalid column name' });
	const field = findField(module, parts[0]);
	if (!field) throw unknown();
	if (parts.length === 1) {
		const family = familyOf(field);
		if (!family)
			throw invalidQuery({
				column_name: ref.text,
				data_type: field.data_type,
				reason: 'the field type is not supported in queries',
			});
		return {
			key: field.api_name,
			field,
			family,
			dataType: field.data_type,
			textarea: field.data_type === 'textarea' || field.textarea === true,
		};
	}
	if (parts.length > 2) {
		throw invalidQuery({
			column_name: ref.text,
			reason: 'only one level of relation is supported',
		});
	}
	if (!isLookup(field)) {
		throw invalidQuery({
			column_name: ref.text,
			data_type: field.data_type,
			reason: 'relations are allowed only on lookup fields',
		});
	}
	joins.add(field.api_name);
	if (field.data_type !== 'lookup') {
		const userKey = Object.keys(USER_FIELDS).find((k) => k === parts[1].toLowerCase());
		if (!userKey) throw unknown();
		return {
			key: `${field.api_name}.${userKey}`,
			field,
			sub: { userKey },
			family: USER_FIELDS[userKey],
			dataType: userKey === 'id' ? 'bigint' : 'text',
			textarea: false,
		};
	}
	const target = field.lookup_module ? sandbox.module(field.lookup_module) : undefined;
	if (!target)
		throw invalidQuery({
			column_name: ref.text,
			reason: 'relations are not supported on multi-module lookups',
		});
	const subField = findField(target, parts[1]);
	if (!subField) throw unknown();
	const family = familyOf(subField);
	if (!family || isLookup(subField)) {
		throw invalidQuery({
			column_name: ref.text,
			data_type: subField.data_type,
			reason: 'the field type is not supported in queries',
		});
	}
	return {
		key: `${field.api_name}.${subField.api_name}`,
		field,
		sub: { module: target, field: subField },
		family,
		dataType: subField.data_type,
		textarea: subField.data_type === 'textarea' || subField.textarea === true,
	};
}

/** Operators of the text families (text, multi). */
const TEXT_OPERATORS: ReadonlySet<Operator> = new Set<Operator>([
	'=',
	'!=',
	'like',
	'not like',
	'in',
	'not in',
	'is null',
	'is not null',
]);

/** Operators of the ordered families (number, date). */
const ORDERED_OPERATORS: ReadonlySet<Operator> = new Set<Operator>([
	'=',
	'!=',
	'>',
	'<',
	'>=',
	'<=',
	'between',
	'in',
	'not in',
	'is null',
	'is not null',
]);

const OPERATORS: Record<Family, ReadonlySet<Operator>> = {
	text: TEXT_OPERATORS,
	multi: TEXT_OPERATORS,
	number: ORDERED_OPERATORS,
	date: ORDERED_OPERATORS,
	datetime: new Set(['=', '!=', '>', '<', '>=', '<=', 'between', 'is null', 'is not null']),
	boolean: new Set(['=', '!=', 'is null', 'is not null']),
	id: new Set(['=', '!=', '>', '<', '>=', '<=', 'in', 'not in', 'is null', 'is not null']),
};

const EXPECTED: Record<Family, string> = {
	text: 'string',
	multi: 'string',
	number: 'number',
	date: 'date',
	datetime: 'datetime',
	boolean: 'boolean',
	id: 'bigint',
};

/** A literal converted for comparison with one family. */
type Value = string | number | boolean | bigint;

function convertLiteral(lit: Literal, col: Resolved, op: Operator): Value {
	const bad = () =>
		invalidQuery(
			{
				column_name: col.key,
				operator: op,
				data_type: lit.kind,
				expected_data_type: EXPECTED[col.family],
				reason: 'invalid value for the column',
			},
			'column or value invalid',
		);
	switch (col.family) {
		case 'text':
		case 'multi':
			if (lit.kind === 'boolean') throw bad();
			return lit.text.toLowerCase();
		case 'number': {
			if (lit.kind === 'boolean') throw bad();
			const n = Number(lit.text);
			if (lit.text.trim() === '' || !Number.isFinite(n)) throw bad();
			return n;
		}
		case 'date':
			if (lit.kind !== 'string' || !isDate(lit.text)) throw bad();
			return lit.text;
		case 'datetime': {
			const ms = lit.kind === 'string' ? parseDateTime(lit.text) : undefined;
			if (ms === undefined) throw bad();
			return ms;
		}
		case 'boolean':
			if (
				lit.kind === 'boolean' ||
				(lit.kind === 'string' && (lit.text === 'true' || lit.text === 'false'))
			)
				return lit.text === 'true';
			throw bad();
		case 'id':
			if (lit.kind === 'boolean' || !/^\d+$/.test(lit.text)) throw bad();
			return BigInt(lit.text);
	}
}

interface CompiledCondition {
	col: Resolved;
	op: Operator;
	values: Value[];
	like?: (value: string) => boolean;
}

type CompiledExpr =
	| { kind: 'cond'; cond: CompiledCondition }
	| { kind: 'and' | 'or'; left: CompiledExpr; right: CompiledExpr };

interface CompiledQuery {
	module: ModuleDef;
	columns: Resolved[];
	where: CompiledExpr;
	orderBy: Array<{ col: Resolved; desc: boolean }>;
	count: number;
	offset: number;
}

/**
 * A `like` pattern (`%` = any run of characters) as a matcher that runs in linear time: the fixed
 * pieces between `%` are found left to right with indexOf, so no pattern can cause backtracking.
 * Case-insensitive: values and pattern are compared in lower case.
 */
function likeMatcher(pattern: string): (value: string) => boolean {
	const parts = pattern.toLowerCase().split('%');
	if (parts.length === 1) return (value) => value === parts[0];
	const first = parts[0];
	const last = parts[parts.length - 1];
	const middle = parts.slice(1, -1).filter(Boolean);
	return (value) => {
		if (
			value.length < first.length + last.length ||
			!value.startsWith(first) ||
			!value.endsWith(last)
		)
			return false;
		const end = value.length - last.length;
		let pos = first.length;
		for (const piece of middle) {
			const at = value.indexOf(piece, pos);
			if (at === -1 || at + piece.length > end) return false;
			pos = at + piece.length;
		}
		return true;
	};
}

function countConditions(expr: Expr): number {
	return expr.kind === 'cond' ? 1 : countConditions(expr.left) + countConditions(expr.right);
}

function compileExpr(
	sandbox: Sandbox,
	module: ModuleDef,
	expr: Expr,
	joins: Set<string>,
): CompiledExpr {
	if (expr.kind !== 'cond') {
		return {
			kind: expr.kind,
			left: compileExpr(sandbox, module, expr.left, joins),
			right: compileExpr(sandbox, module, expr.right, joins),
		};
	}
	const col = resolveColumn(sandbox, module, expr.column, joins);
	if (col.textarea) {
		throw invalidQuery({
			column_name: col.key,
			data_type: 'textarea',
			reason: 'multi-line fields are not allowed in the where clause',
		});
	}
	if (!OPERATORS[col.family].has(expr.op)) {
		throw invalidQuery({
			column_name: col.key,
			operator: expr.op,
			data_type: col.dataType,
			reason: 'the operator is not supported for the field',
		});
	}
	if ((expr.op === 'in' || expr.op === 'not in') && expr.values.length > COQL_LIMITS.inValues) {
		throw new HttpError(
			'LIMIT_EXCEEDED',
			{ by: 'in', limit: COQL_LIMITS.inValues },
			'values limit exceeded in the in clause',
		);
	}
	const values = expr.values.map((v) => convertLiteral(v, col, expr.op));
	const cond: CompiledCondition = { col, op: expr.op, values };
	if (expr.op === 'like' || expr.op === 'not like') cond.like = likeMatcher(expr.values[0].text);
	return { kind: 'cond', cond };
}

/** Checks a parsed statement against metadata and limits; throws the contract's errors. */
export function compileCoql(sandbox: Sandbox, statement: Statement): CompiledQuery {
	const module = sandbox.module(statement.module.name);
	if (!module || !module.api_supported) {
		throw new HttpError(
			'INVALID_MODULE',
			{ module: statement.module.name },
			'the module name given seems to be invalid',
		);
	}
	if (statement.columns.length > COQL_LIMITS.select) {
		throw new HttpError(
			'LIMIT_EXCEEDED',
			{ by: 'select', limit: COQL_LIMITS.select },
			'select columns limit exceeded',
		);
	}
	if (countConditions(statement.where) > COQL_LIMITS.where) {
		throw new HttpError(
			'LIMIT_EXCEEDED',
			{ by: 'where', limit: COQL_LIMITS.where },
			'where conditions limit exceeded',
		);
	}
	if (statement.limit && statement.limit.count > COQL_LIMITS.perCall) {
		throw new HttpError(
			'LIMIT_EXCEEDED',
			{ by: 'limit', limit: COQL_LIMITS.perCall },
			'limit exceeded',
		);
	}
	if (statement.limit && statement.limit.count < 1) {
		throw invalidQuery({ reason: 'the limit must be between 1 and 200', column_name: 'limit' });
	}
	const joins = new Set<string>();
	const columns = statement.columns.map((c) => resolveColumn(sandbox, module, c, joins));
	const where = compileExpr(sandbox, module, statement.where, joins);
	const orderBy = statement.orderBy.map((o) => ({
		col: resolveColumn(sandbox, module, o.column, joins),
		desc: o.desc,
	}));
	if (joins.size > COQL_LIMITS.joins) {
		throw new HttpError(
			'LIMIT_EXCEEDED',
			{ by: 'join', limit: COQL_LIMITS.joins },
			'join limit exceeded',
		);
	}
	return {
		module,
		columns,
		where,
		orderBy,
		count: statement.limit?.count ?? COQL_LIMITS.perCall,
		offset: statement.limit?.offset ?? 0,
	};
}

// ---- evaluation -----------------------------------------------------------------------------

class RowReader {
	private readonly sandbox: Sandbox;
	private related = new Map<string, Json | undefined>();

	constructor(sandbox: Sandbox) {
		this.sandbox = sandbox;
	}

	/** Raw value of a column for one record (lookups: the id for comparisons, the object for output). */
	raw(record: StoredRecord, col: Resolved): unknown {
		const value = record[col.field.api_name];
		if (!col.sub) return value;
		const id = value && typeof value === 'object' ? (value as Json).id : undefined;
		if (id === undefined || id === null) return null;
		const target = this.target(col, String(id));
		if (!target) return null;
		return col.sub.userKey ? target[col.sub.userKey] : target[col.sub.field!.api_name];
	}

	private target(col: Resolved, id: string): Json | undefined {
		const key = `${col.sub!.module?.api_name ?? 'users'}:${id}`;
		if (!this.related.has(key)) {
			const found = col.sub!.module
				? this.sandbox.store.getRecord(col.sub!.module.api_name, id)
				: this.sandbox.store.doc<Json>('users', id);
			this.related.set(key, found);
		}
		return this.related.get(key);
	}

	/** Value in the comparison domain of the column's family; undefined when empty. */
	comparable(record: StoredRecord, col: Resolved): Value | Value[] | undefined {
		const value = this.raw(record, col);
		if (value === undefined || value === null || value === '') return undefined;
		switch (col.family) {
			case 'text':
				// `Tag` holds a list of tags: compared as their comma-joined names
				if (Array.isArray(value)) {
					return value.length
						? value.map((v) => String((v as Json)?.name ?? v).toLowerCase()).join(',')
						: undefined;
				}
				return String(value).toLowerCase();
			case 'multi':
				return Array.isArray(value) && value.length
					? value.map((v) => String(v).toLowerCase())
					: undefined;
			case 'number':
				return typeof value === 'number' ? value : Number(value);
			case 'date':
				return String(value);
			case 'datetime':
				return parseDateTime(value);
			case 'boolean':
				return value === true;
			case 'id': {
				const id = typeof value === 'object' ? (value as Json).id : value;
				return id !== undefined && id !== null && /^\d+$/.test(String(id))
					? BigInt(String(id))
					: undefined;
			}
		}
	}
}

function cmp(a: Value, b: Value): number {
	if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
	const sa = String(a);
	const sb = String(b);
	return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/**
 * One condition. Empty values never satisfy a comparison; the negated operators (`!=`, `not in`,
 * `not like`) do match records whose value is empty (sandbox choice, **assumed**).
 */
function test(reader: RowReader, record: StoredRecord, c: CompiledCondition): boolean {
	const value = reader.comparable(record, c.col);
	if (c.op === 'is null') return value === undefined;
	if (c.op === 'is not null') return value !== undefined;
	const negated = c.op === '!=' || c.op === 'not in' || c.op === 'not like';
	if (value === undefined) return negated;
	const list = Array.isArray(value) ? value : [value];
	const any = (pred: (v: Value) => boolean) => list.some(pred);
	switch (c.op) {
		case '=':
			return any((v) => cmp(v, c.values[0]) === 0);
		case '!=':
			return !any((v) => cmp(v, c.values[0]) === 0);
		case '>':
			return any((v) => cmp(v, c.values[0]) > 0);
		case '<':
			return any((v) => cmp(v, c.values[0]) < 0);
		case '>=':
			return any((v) => cmp(v, c.values[0]) >= 0);
		case '<=':
			return any((v) => cmp(v, c.values[0]) <= 0);
		case 'between':
			return any((v) => cmp(v, c.values[0]) >= 0 && cmp(v, c.values[1]) <= 0);
		case 'in':
			return any((v) => c.values.some((x) => cmp(v, x) === 0));
		case 'not in':
			return !any((v) => c.values.some((x) => cmp(v, x) === 0));
		case 'like':
			return any((v) => c.like!(String(v)));
		case 'not like':
			return !any((v) => c.like!(String(v)));
		default:
			return false;
	}
}

function matches(reader: RowReader, record: StoredRecord, expr: CompiledExpr): boolean {
	if (expr.kind === 'cond') return test(reader, record, expr.cond);
	if (expr.kind === 'and')
		return matches(reader, record, expr.left) && matches(reader, record, expr.right);
	return matches(reader, record, expr.left) || matches(reader, record, expr.right);
}

/** Sort key order: empty values first ascending (last descending), then the family's order. */
function compareRows(
	reader: RowReader,
	a: StoredRecord,
	b: StoredRecord,
	orderBy: CompiledQuery['orderBy'],
): number {
	for (const { col, desc } of orderBy) {
		const va = reader.comparable(a, col);
		const vb = reader.comparable(b, col);
		const xa = Array.isArray(va) ? va.join(';') : va;
		const xb = Array.isArray(vb) ? vb.join(';') : vb;
		let r: number;
		if (xa === undefined && xb === undefined) r = 0;
		else if (xa === undefined) r = -1;
		else if (xb === undefined) r = 1;
		else r = cmp(xa, xb);
		if (r !== 0) return desc ? -r : r;
	}
	return 0;
}

interface CoqlResult {
	rows: Json[];
	more: boolean;
}

/** Fields whose lower bounds bound the store's `modified` column (never before either: store.ts). */
const MODIFIED_BOUNDED = new Set(['Modified_Time', 'Created_Time']);

/**
 * The earliest time (epoch ms) a record matching `expr` can have been modified, when the WHERE
 * says: a condition `Modified_Time` / `Created_Time` `>`, `>=`, `=` or `between` bounds it; `and`
 * takes the later bound of its sides, `or` the earlier and only when both sides have one. The
 * service answers such queries from an index; so does the sandbox, which then decodes only the
 * rows at or after the bound (a polling trigger's query on a large module).
 */
function modifiedFloor(expr: CompiledExpr): number | undefined {
	if (expr.kind === 'cond') {
		const { col, op, values } = expr.cond;
		const bounded =
			!col.sub && col.family === 'datetime' && MODIFIED_BOUNDED.has(col.field.api_name);
		return bounded && ['>', '>=', '=', 'between'].includes(op) ? Number(values[0]) : undefined;
	}
	const left = modifiedFloor(expr.left);
	const right = modifiedFloor(expr.right);
	if (expr.kind === 'or')
		return left === undefined || right === undefined ? undefined : Math.min(left, right);
	if (left === undefined) return right;
	return right === undefined ? left : Math.max(left, right);
}

/** Runs a compiled query over the store: filter, order (stable, insertion order), offset, count. */
export function evaluateCoql(sandbox: Sandbox, q: CompiledQuery): CoqlResult {
	const reader = new RowReader(sandbox);
	const matched: StoredRecord[] = [];
	const needed = q.offset + q.count + 1;
	const modifiedFrom = modifiedFloor(q.where);
	for (const record of sandbox.store.iterateRecords(q.module.api_name, { modifiedFrom })) {
		// converted leads are hidden from record reads by default; queries follow suit (assumed)
		if (record.$converted === true) continue;
		if (!matches(reader, record, q.where)) continue;
		matched.push(record);
		if (q.orderBy.length === 0 && matched.length >= needed) break;
	}
	if (q.orderBy.length) matched.sort((a, b) => compareRows(reader, a, b, q.orderBy));
	const page = matched.slice(q.offset, q.offset + q.count);
	const rows = page.map((record) => {
		const row: Json = {};
		for (const col of q.columns) {
			const value = col.sub ? reader.raw(record, col) : record[col.field.api_name];
			row[col.key] = value === undefined ? null : value;
		}
		row.id = record.id;
		return row;
	});
	return { rows, more: matched.length > q.offset + q.count };
}

/** Parses, checks and runs a statement. */
export function runCoql(sandbox: Sandbox, source: string): CoqlResult {
	return evaluateCoql(sandbox, compileCoql(sandbox, parseCoql(source)));
}
