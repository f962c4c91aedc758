// Query (docs/protocol.md §5.12, §3.13): POST /crm/{v}/coql with {"select_query": "…"}, answered by
// the COQL parser and evaluator of ../coql.ts. Both API versions serve it.
import { moduleScopeName } from '../auth.ts';
import { compileCoql, evaluateCoql, parseCoql } from '../coql.ts';
import type { ColumnRef, Expr, Statement } from '../coql.ts';
import { HttpError } from '../errors.ts';
import type { Ctx, Router } from '../router.ts';
import { operation } from '../router.ts';
import type { ModuleDef } from '../catalogue/modules.ts';

/** The statement of the body; MANDATORY_NOT_FOUND / INVALID_DATA for a missing or non-string one. */
function selectQuery(ctx: Ctx): string {
	const value = ctx.json().select_query;
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
		throw HttpError.mandatory('select_query');
	}
	if (typeof value !== 'string')
		throw HttpError.invalidData({ api_name: 'select_query', expected_data_type: 'string' });
	return value;
}

/** The statement when the body parses, for the scope rule; undefined otherwise. */
function parsedStatement(ctx: Ctx): Statement | undefined {
	try {
		return parseCoql(selectQuery(ctx));
	} catch {
		return undefined;
	}
}

function whereColumns(expr: Expr): ColumnRef[] {
	return expr.kind === 'cond'
		? [expr.column]
		: [...whereColumns(expr.left), ...whereColumns(expr.right)];
}

/**
 * CRM.coql.READ and a read scope of the queried module (§2.3), and of every module a lookup
 * relation (`Account_Name.Account_Name`) reads from: a join must not reveal a module the token
 * cannot read. When the module cannot be read from the statement (syntax error, unknown module)
 * only CRM.coql.READ is checked here, and the handler answers the statement's own error.
 */
function coqlScopes(ctx: Ctx): string[][] {
	const required = [['CRM.coql.READ']];
	const statement = parsedStatement(ctx);
	const module = statement ? ctx.sandbox.module(statement.module.name) : undefined;
	if (!statement || !module) return required;
	const readScope = (m: ModuleDef) => `CRM.modules.${moduleScopeName({ ...ctx, module: m })}.READ`;
	const modules = new Map<string, ModuleDef>([[module.api_name, module]]);
	const columns = [
		...statement.columns,
		...whereColumns(statement.where),
		...statement.orderBy.map((o) => o.column),
	];
	for (const column of columns) {
		const [lookup, sub] = column.text.split('.');
		if (sub === undefined) continue;
		const field = module.fields.find((f) => f.api_name.toLowerCase() === lookup.toLowerCase());
		const target =
			field?.data_type === 'lookup' && field.lookup_module
				? ctx.sandbox.module(field.lookup_module)
				: undefined;
		if (target) modules.set(target.api_name, target);
	}
	for (const m of modules.values()) required.push([readScope(m)]);
	return required;
}

export const query = operation('POST', '/coql', { scopes: coqlScopes }, (ctx) => {
	const { sandbox } = ctx;
	const statement = parseCoql(selectQuery(ctx));
	const { rows, more } = evaluateCoql(sandbox, compileCoql(sandbox, statement));
	if (rows.length === 0) return { status: 204 };
	return { body: { data: rows, info: { count: rows.length, more_records: more } } };
});

export function registerQuery(router: Router): void {
	router.register([query]);
}
