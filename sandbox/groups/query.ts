 
// Query (wire-contract §5.12, §3.13): POST /crm/{v}/coql with {"select_query": "…"}, answered by
// the COQL parser and evaluator of ../coql.ts. Both API versions serve it.
import { moduleScopeName } from '../auth.ts';
import { compileCoql, evaluateCoql, parseCoql } from '../coql.ts';
import type { Statement } from '../coql.ts';
import { HttpError } from '../errors.ts';
import type { Ctx, Router } from '../router.ts';
import type { Sandbox } from '../sandbox.ts';

/** The statement of the body; MANDATORY_NOT_FOUND / INVALID_DATA for a missing or non-string one. */
function selectQuery(ctx: Ctx): string {
	const value = ctx.json().select_query;
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
		throw HttpError.mandatory('select_query');
	}
	if (typeof value !== 'string') throw HttpError.invalidData({ api_name: 'select_query', expected_data_type: 'string' });
	return value;
}

/** The statement's module when the body parses, for the scope rule; undefined otherwise. */
function queriedModule(ctx: Ctx): Statement['module'] | undefined {
	try {
		return parseCoql(selectQuery(ctx)).module;
	} catch {
		return undefined;
	}
}

/**
 * CRM.coql.READ and a read scope of the queried module (§2.3). When the module cannot be read
 * from the statement (syntax error, unknown module) only CRM.coql.READ is checked here, and the
 * handler answers the statement's own error.
 */
function coqlScopes(ctx: Ctx): string[][] {
	const required = [['CRM.coql.READ']];
	const name = queriedModule(ctx)?.name;
	const module = name ? ctx.sandbox.module(name) : undefined;
	if (module) required.push([`CRM.modules.${moduleScopeName({ ...ctx, module })}.READ`]);
	return required;
}

export function registerQuery(router: Router, sandbox: Sandbox): void {
	router.post(
		'/coql',
		(ctx) => {
			const statement = parseCoql(selectQuery(ctx));
			const { rows, more } = evaluateCoql(sandbox, compileCoql(sandbox, statement));
			if (rows.length === 0) return { status: 204 };
			return { body: { data: rows, info: { count: rows.length, more_records: more } } };
		},
		{ scopes: coqlScopes },
	);
}
