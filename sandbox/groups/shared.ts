// Helpers the operation groups share (not a group itself): once-per-database seeding of a group's
// own settings data, and the one per-item loop of the list writes (`{key: […]}` in, one result
// item per input item out, §3.5).
import { errorItem } from '../errors.ts';
import type { ErrorBody } from '../errors.ts';
import { writeStatus } from '../records.ts';
import type { Json } from '../store.ts';
import type { Ctx, Reply, Sandbox } from '../types.ts';
import { wrapperList } from '../wire.ts';

type Seeder = (sandbox: Sandbox) => void;

/**
 * A numeric knob (types.ts `Knobs`), or `fallback` when it is unset or not a finite number (knobs
 * also come from untyped settings: JSON, a test's `Object.assign`).
 */
export function knobOr(value: number | undefined, fallback: number): number {
	return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/**
 * Seeds a group's own data once per database: groups call it from their register function
 * (e.g. `seedOnce(sandbox, 'pipelines', seedPipelines)`), so a file-backed store is seeded on
 * first start only and keeps its changes across restarts.
 */
export function seedOnce(sandbox: Sandbox, name: string, seeder: Seeder): void {
	const key = `seeded:${name}`;
	if (sandbox.store.getMeta(key)) return;
	sandbox.store.transaction(() => {
		seeder(sandbox);
		sandbox.store.setMeta(key, sandbox.formatTime());
	});
}

/** One result item of a list write: the success item or the item's error. */
export type ItemOutcome = Json | ErrorBody;

/** An item's error thrown from deep inside its validation; the per-item loop answers it as that item's result. */
export class ItemError extends Error {
	readonly body: ErrorBody;
	constructor(body: ErrorBody) {
		super(body.message);
		this.body = body;
	}
}

/** The reply of a list write: the results under `key`; 400 when every item failed, else `status` (§3.5). */
export function resultsReply(key: string, status: number, results: ItemOutcome[]): Reply {
	return { status: writeStatus(results, status), body: { [key]: results } };
}

/**
 * Runs `write` for each entry, in input order, inside one store transaction; an ItemError becomes
 * that entry's result, anything else fails the request.
 */
export function eachItem<T>(
	ctx: Ctx,
	entries: T[],
	write: (entry: T, index: number) => ItemOutcome,
): ItemOutcome[] {
	return ctx.sandbox.store.transaction(() =>
		entries.map((entry, index) => {
			try {
				return write(entry, index);
			} catch (error) {
				if (error instanceof ItemError) return error.body;
				throw error;
			}
		}),
	);
}

/**
 * The list write of `{key: [1..max items]}`: one `write` per item (eachItem), answered as
 * resultsReply with the same key.
 */
export function writeEach(
	ctx: Ctx,
	key: string,
	max: number,
	status: number,
	write: (item: unknown, index: number) => ItemOutcome,
): Reply {
	const items = wrapperList(ctx, key, max);
	return resultsReply(key, status, eachItem(ctx, items, write));
}

/** The success item of a write (§3.5): `SUCCESS` with the id the item created or changed. */
export function successItem(id: unknown, message: string): Json {
	return { code: 'SUCCESS', details: { id }, message, status: 'success' };
}

/**
 * An item's error in a list write (§3.5): the `extra` details, then `api_name` and, in v2.1, its
 * `json_path` `$.<list>[<index>].<api_name>`.
 */
export function itemError(
	ctx: Pick<Ctx, 'v'>,
	list: string,
	index: number,
	code: string,
	apiName: string | undefined,
	message?: string,
	extra: Json = {},
): ErrorBody {
	const details: Json = { ...extra };
	if (apiName) {
		details.api_name = apiName;
		if (ctx.v === 'v2.1') details.json_path = `$.${list}[${index}].${apiName}`;
	}
	return errorItem(code, details, message);
}

/** `itemError` of the list `list`, as `(ctx, index, code, apiName, message?, extra?)`. */
export const itemErrors =
	(list: string) =>
	(
		ctx: Pick<Ctx, 'v'>,
		index: number,
		code: string,
		apiName: string | undefined,
		message?: string,
		extra: Json = {},
	): ErrorBody =>
		itemError(ctx, list, index, code, apiName, message, extra);

/** A name given as a string or as `{api_name}` (a module, a field); undefined otherwise. */
export function nameOf(value: unknown): unknown {
	if (typeof value === 'string') return value;
	return value && typeof value === 'object' ? (value as Json).api_name : undefined;
}

/** Absent, null, or a string of blanks. */
export const isBlank = (v: unknown) =>
	v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
