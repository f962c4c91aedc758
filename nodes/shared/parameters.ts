// Reading node parameters: getParameter is the one way the package reads one, in every context
// (docs/contributing.md "The request path").
import type {
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IGetNodeParameterOptions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
	NodeParameterValueType,
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
const invariants = new WeakMap<
	object,
	{ parameters: unknown; values: Map<string, NodeParameterValueType | object> }
>();

/** Every n8n context the package reads parameters in. */
type ParameterContext =
	| IExecuteFunctions
	| IExecuteSingleFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IHookFunctions
	| ITriggerFunctions
	| IWebhookFunctions;

/** Freezes a value and everything in it, so a caller that would change a shared value fails loudly. */
function frozen<T>(value: T): T {
	if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const inner of Object.values(value)) frozen(inner);
	}
	return value;
}

/**
 * The package's one way to read a node parameter: n8n's getNodeParameter with the item index in
 * one place for every context. Only an execute context runs many items; the others are bound to
 * one item (routing hooks) or to none (triggers, pickers), and resolve for it whatever the index.
 * In an execute context a parameter whose raw value holds no expression resolves the same for
 * every item: it is read once per run and the value reused, frozen, since every item shares it.
 */
export function getParameter(
	ctx: ParameterContext,
	name: string,
	itemIndex: number,
	fallback?: unknown,
	options?: IGetNodeParameterOptions,
): NodeParameterValueType | object {
	if (!isExecute(ctx)) return ctx.getNodeParameter(name, fallback, options);
	// a read with other options (e.g. unvalidated) is neither cached nor served from the cache
	if (options) return ctx.getNodeParameter(name, itemIndex, fallback, options);
	let cache = invariants.get(ctx);
	if (!cache) {
		cache = { parameters: ctx.getNode().parameters, values: new Map() };
		invariants.set(ctx, cache);
	}
	if (cache.values.has(name)) return cache.values.get(name) as NodeParameterValueType | object;
	const raw = rawParameter(cache.parameters, name);
	if (raw === undefined || holdsExpression(raw))
		return ctx.getNodeParameter(name, itemIndex, fallback);
	const value = frozen(ctx.getNodeParameter(name, itemIndex, fallback));
	cache.values.set(name, value);
	return value;
}

/** The context of a run over many items: it has input items and is not bound to one of them. */
function isExecute(ctx: ParameterContext): ctx is IExecuteFunctions {
	return 'getInputData' in ctx && !('getItemIndex' in ctx);
}
