// Reading node parameters in custom operations: getParameter is the one way the package reads a
// parameter per item where n8n's per-call cost shows (batched writes, pickers), README "The request path".
import type {
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IGetNodeParameterOptions,
} from 'n8n-workflow';
import { isExpression } from 'n8n-workflow';

/** Whether a raw parameter value holds an n8n expression anywhere (n8n's own test: a string starting with `=`). */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return isExpression(value);
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object')
		return Object.values(value).some(holdsExpression);
	return false;
}

/** The raw (unresolved) value at a dotted parameter path of the node, as saved in the workflow. */
function rawParameter(parameters: unknown, name: string): unknown {
	let value = parameters;
	for (const part of name.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<string, unknown>)[part];
	}
	return value;
}

/**
 * Per execute context (one per node run; the WeakMap lets it go with the context): the node's raw
 * parameters (getNode() deep-copies the node on every call) and the resolved values of its
 * item-invariant parameters. n8n resolves and schema-validates a parameter on every
 * getNodeParameter call, which would dominate the node's own per-item cost in batched
 * writes.
 */
const invariants = new WeakMap<object, { parameters: unknown; values: Map<string, unknown> }>();

/**
 * getNodeParameter for both execute contexts (the single-item one takes no item index). A
 * parameter whose raw value holds no expression resolves the same for every item: it is read
 * once per run and the value reused (callers must not mutate it).
 */
export function getParameter(
	ctx: IExecuteFunctions | IExecuteSingleFunctions,
	name: string,
	itemIndex: number,
	fallback?: unknown,
	options?: IGetNodeParameterOptions,
): unknown {
	if ('getItemIndex' in ctx)
		return (ctx as IExecuteSingleFunctions).getNodeParameter(name, fallback, options);
	const execute = ctx as IExecuteFunctions;
	// a read with other options (e.g. unvalidated) is neither cached nor served from the cache
	if (options) return execute.getNodeParameter(name, itemIndex, fallback, options);
	let cache = invariants.get(execute);
	if (!cache) {
		cache = { parameters: execute.getNode().parameters, values: new Map() };
		invariants.set(execute, cache);
	}
	if (cache.values.has(name)) return cache.values.get(name);
	const raw = rawParameter(cache.parameters, name);
	if (raw === undefined || holdsExpression(raw))
		return execute.getNodeParameter(name, itemIndex, fallback);
	const value = execute.getNodeParameter(name, itemIndex, fallback);
	cache.values.set(name, value);
	return value;
}
