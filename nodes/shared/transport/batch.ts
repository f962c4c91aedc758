import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { crmApiError, isErrorItem } from './errors';
import type { CrmErrorBody } from './errors';
import { writeResult } from './envelope';
import { crmRequest, isOutcomeUnknown } from './request';
import type { CrmListRequest } from './request';

/** Records per request for every write the service takes as a list (§6). */
export const BATCH_SIZE = 100;

/** One input item's part of a batched call. */
export interface BatchEntry<K = string> {
	/**
	 * items with equal keys share requests (e.g. the module and the write options); a key is plain
	 * data (strings, numbers, booleans, arrays and objects of them), compared by value
	 */
	key: K;
	payload: IDataObject;
}

/**
 * `then` applied to a value or, once it settles, to a promise of it: a step that needs a request
 * only sometimes (field metadata, read once per run) stays synchronous otherwise.
 */
export function thenOrNow<T, U>(value: T | Promise<T>, then: (value: T) => U): U | Promise<U> {
	return value instanceof Promise ? value.then(then) : then(value);
}

interface BatchOptions<K = string> {
	/**
	 * builds an item's entry; throw NodeOperationError for bad input (reported before any request is
	 * sent). Answer the entry itself when it needs no request: no promise per item (see `thenOrNow`).
	 */
	build: (itemIndex: number) => BatchEntry<K> | Promise<BatchEntry<K>>;
	/**
	 * the request of one chunk, answered with one result per payload, in order (`itemIndexes[i]` is
	 * payload i's input item); runBatched sends it with crmRequest
	 */
	request?: (key: K, payloads: IDataObject[], itemIndexes: number[]) => CrmListRequest;
	/** in place of `request`, for a chunk that takes more than one call (e.g. mails whose attachments are uploaded first) */
	send?: (key: K, payloads: IDataObject[], itemIndexes: number[]) => Promise<BatchResult[]>;
	batchSize?: number;
	/** output json of a successful result item */
	toJson?: (result: IDataObject, itemIndex: number) => IDataObject;
	/**
	 * Settles a chunk whose request failed with its outcome unknown (5xx, connection lost: see
	 * isOutcomeUnknown) in a way that cannot write twice, e.g. upsertUnknownOutcome(); answers one
	 * result per payload (an Error fails that item alone). Without it, or when it throws, every item
	 * of the chunk fails with the error.
	 */
	recover?: (
		key: K,
		payloads: IDataObject[],
		itemIndexes: number[],
		failure: NodeApiError,
	) => Promise<BatchResult[]>;
	/**
	 * The error of an item the CRM refused (a per-record error in its answer), e.g. naming fields by
	 * their labels or adding what the CRM's error leaves out; by default the CRM's error as it is.
	 */
	refused?: (
		key: K,
		refusal: CrmErrorBody,
		payload: IDataObject,
		itemIndex: number,
	) => Promise<NodeApiError | NodeOperationError>;
}

/** One payload's result: the CRM's result item, or an error for that item alone. */
type BatchResult = IDataObject | NodeApiError | NodeOperationError;

type Outcome = { json: IDataObject } | { error: NodeApiError | NodeOperationError };

/**
 * Output json of a failed item: n8n's error-item shape `{error, message, details}` (which its
 * "error output" recognises), with the CRM's code and details kept under `details`.
 */
export function errorJson(error: NodeApiError | NodeOperationError): IDataObject {
	const crm = (error.context?.crm ?? {}) as IDataObject;
	return {
		error: error.message,
		message: error.description ?? '',
		details: { status: 'error', ...crm },
	};
}

/** An error as the NodeApiError / NodeOperationError of its input item. */
export function asNodeError(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeOperationError || (error as NodeApiError).name === 'NodeApiError') {
		const known = error as NodeApiError | NodeOperationError;
		if (known.context && known.context.itemIndex === undefined) known.context.itemIndex = itemIndex;
		return known;
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/**
 * Runs `work` for every input item in order, pairing its outputs with the item: for operations
 * whose request is an item's own (a job, a file, the list an item holds). With "continue on fail" a
 * failing item yields one error item, the shape runBatched gives; otherwise the node fails.
 */
export async function runPerItem(
	ctx: IExecuteFunctions,
	work: (itemIndex: number) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[][]> {
	const out: INodeExecutionData[] = [];
	const items = ctx.getInputData();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			for (const item of await work(itemIndex))
				out.push({ ...item, pairedItem: { item: itemIndex } });
		} catch (error) {
			const nodeError = asNodeError(ctx, error, itemIndex);
			if (!ctx.continueOnFail()) throw nodeError;
			out.push({ json: errorJson(nodeError), pairedItem: { item: itemIndex } });
		}
	}
	return [out];
}

/**
 * Sends input items in chunks of up to 100 per request and pairs every result with its input item,
 * in input order. Per-record errors in a 2xx (or all-failed 400) body fail only their item.
 * With "continue on fail" each failed item is output as an error item; otherwise the node fails
 * after the batch, and the error states which items were written and which failed.
 */
export async function runBatched<K = string>(
	ctx: IExecuteFunctions,
	options: BatchOptions<K>,
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	const size = options.batchSize ?? BATCH_SIZE;
	const continueOnFail = ctx.continueOnFail();
	const outcomes: Outcome[] = new Array(items.length);
	// equal keys by value: the serialized key identifies the group, the key itself is kept typed
	const groups = new Map<
		string,
		{ key: K; members: Array<{ itemIndex: number; payload: IDataObject }> }
	>();

	// build every item first: bad input is reported before anything is sent
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const built = options.build(itemIndex);
			const entry = built instanceof Promise ? await built : built;
			const id = JSON.stringify(entry.key);
			const group = groups.get(id) ?? { key: entry.key, members: [] };
			group.members.push({ itemIndex, payload: entry.payload });
			groups.set(id, group);
		} catch (error) {
			const nodeError = asNodeError(ctx, error, itemIndex);
			if (!continueOnFail) throw nodeError;
			outcomes[itemIndex] = { error: nodeError };
		}
	}

	const settle = async (
		key: K,
		chunk: Array<{ itemIndex: number; payload: IDataObject }>,
		results: BatchResult[],
	) => {
		for (const [i, { itemIndex, payload }] of chunk.entries()) {
			const result = results[i];
			if (!result) {
				outcomes[itemIndex] = {
					error: new NodeOperationError(ctx.getNode(), 'The CRM answered no result for this item', {
						itemIndex,
					}),
				};
			} else if (result instanceof Error) {
				outcomes[itemIndex] = { error: result };
			} else if (isErrorItem(result)) {
				const refusal = result as CrmErrorBody;
				outcomes[itemIndex] = {
					error: options.refused
						? await options.refused(key, refusal, payload, itemIndex)
						: crmApiError(ctx.getNode(), refusal, { itemIndex }),
				};
			} else {
				outcomes[itemIndex] = {
					json: options.toJson ? options.toJson(result, itemIndex) : writeResult(result),
				};
			}
		}
	};

	for (const { key, members } of groups.values()) {
		for (let start = 0; start < members.length; start += size) {
			// a chunk's items need not be consecutive (groups interleave): each payload keeps its own item index
			const chunk = members.slice(start, start + size);
			const payloads = chunk.map((c) => c.payload);
			const itemIndexes = chunk.map((c) => c.itemIndex);
			try {
				await settle(
					key,
					chunk,
					options.request
						? await crmRequest(ctx, options.request(key, payloads, itemIndexes))
						: await options.send!(key, payloads, itemIndexes),
				);
			} catch (error) {
				let failure = error as NodeApiError;
				if (options.recover && isOutcomeUnknown(error)) {
					try {
						await settle(key, chunk, await options.recover(key, payloads, itemIndexes, failure));
						continue;
					} catch (recoverError) {
						failure = recoverError as NodeApiError;
					}
				}
				// the whole request failed (after retries): every item of the chunk shares the error
				for (const { itemIndex } of chunk) outcomes[itemIndex] = { error: failure };
			}
		}
	}

	const failed = outcomes.flatMap((o, i) => ('error' in o ? [i] : []));
	if (failed.length && !continueOnFail) throw batchFailure(outcomes, failed);

	return [
		outcomes.map((outcome, itemIndex) =>
			'json' in outcome
				? { json: outcome.json, pairedItem: { item: itemIndex } }
				: { json: errorJson(outcome.error), pairedItem: { item: itemIndex } },
		),
	];
}

/** Item indexes as compact ranges: [0,1,2,5,7,8] → "0–2, 5, 7–8". */
export function indexRanges(indexes: number[]): string {
	const parts: string[] = [];
	for (let i = 0; i < indexes.length; i++) {
		const start = indexes[i];
		while (i + 1 < indexes.length && indexes[i + 1] === indexes[i] + 1) i++;
		parts.push(start === indexes[i] ? String(start) : `${start}–${indexes[i]}`);
	}
	return parts.join(', ');
}

/** Distinct failure messages spelled out in a batch's stop error; further ones are listed by item. */
const MAX_FAILURE_KINDS = 10;

/** "item 4" / "items 0–41, 43–99" */
const itemsLabel = (indexes: number[]) =>
	`${indexes.length === 1 ? 'item' : 'items'} ${indexRanges(indexes)}`;

/**
 * The error a batched write stops with (Continue On Fail off): its message states which items were
 * written and which failed, as ranges and counts; its description lists every distinct failure with
 * the items it hit. A single-item run keeps the item's own error as it is.
 */
function batchFailure(outcomes: Outcome[], failed: number[]): NodeApiError | NodeOperationError {
	const first = (outcomes[failed[0]] as { error: NodeApiError | NodeOperationError }).error;
	if (outcomes.length === 1) return first;
	const written = outcomes.flatMap((o, i) => ('json' in o ? [i] : []));
	const byMessage = new Map<string, number[]>();
	for (const i of failed) {
		const message = (outcomes[i] as { error: Error }).error.message;
		byMessage.set(message, [...(byMessage.get(message) ?? []), i]);
	}
	// "written" = confirmed by the CRM; a failed request may still have written (outcome unknown)
	const head = written.length
		? `${itemsLabel(written).replace(/^i/, 'I')} written (${written.length}); `
		: 'No item confirmed written; ';
	const failures =
		byMessage.size === 1 && failed.length === 1
			? `item ${failed[0]} failed: ${first.message}`
			: `${itemsLabel(failed)} failed (${failed.length}): ${byMessage.size === 1 ? first.message : `first, item ${failed[0]}: ${first.message}`}`;
	// every failed item is named: the first kinds of failure in full, the rest as ranges
	const kinds = [...byMessage];
	const shown = kinds
		.slice(0, MAX_FAILURE_KINDS)
		.map(([message, items]) => `${itemsLabel(items)}: ${message}`);
	const rest = kinds
		.slice(MAX_FAILURE_KINDS)
		.flatMap(([, items]) => items)
		.sort((a, b) => a - b);
	if (rest.length) shown.push(`${itemsLabel(rest)}: other errors (${rest.length})`);
	const list = byMessage.size > 1 ? shown.join('; ') : '';
	first.description = [
		list ? `Failures: ${list}.` : '',
		first.description,
		'Enable "Continue On Fail" (Settings → On Error) to get one output item per input item, failed ones included.',
	]
		.filter(Boolean)
		.join(' ');
	first.message = `${head}${failures}`;
	// an item's own error already names its item; an error a whole chunk shares gets the first one
	first.context.itemIndex ??= failed[0];
	return first;
}

/** A scalar, non-empty value of a unique field: something an upsert can match a record by. */
function matchValue(value: unknown): boolean {
	return (
		(typeof value === 'string' && value.trim() !== '') ||
		(typeof value === 'number' && Number.isFinite(value))
	);
}

/**
 * Settles a create chunk whose outcome is unknown (runBatched `recover`). Every payload carrying a
 * value of one of `uniqueFields` (the module's fields marked unique) is re-sent once through
 * UpsertRecords (`POST {path}/upsert`, `duplicate_check_fields` = that field): a record the lost
 * request created is found and updated with the same values, a missing one is created, so the
 * re-send is idempotent and is itself retried on 5xx. A payload without such a value cannot be
 * settled without risking a second record: it is never re-sent and fails with "outcome unknown".
 */
export async function upsertUnknownOutcome(
	this: IExecuteFunctions,
	request: {
		/** the create path; `/upsert` is appended */
		path: string;
		payloads: IDataObject[];
		uniqueFields: string[];
		/** input item of each payload */
		itemIndexes: number[];
		failure: NodeApiError;
		/** sibling keys of `data` (trigger, process, lar_id) */
		extras?: IDataObject;
		headers?: IDataObject;
	},
): Promise<BatchResult[]> {
	const results: BatchResult[] = new Array(request.payloads.length);
	const byField = new Map<string, number[]>();
	request.payloads.forEach((payload, i) => {
		const field = request.uniqueFields.find((name) => matchValue(payload[name]));
		if (field === undefined) {
			const itemIndex = request.itemIndexes[i];
			const unique = request.uniqueFields.length
				? request.uniqueFields.join(', ')
				: 'none in this module';
			results[i] = new NodeOperationError(
				this.getNode(),
				`Outcome unknown: the create request failed (${request.failure.message}) and this record may or may not have been created`,
				{
					itemIndex,
					description: `It was not sent again, since that could create it twice: the record has no value in a unique field of the module (${unique}) to match it by. Check the CRM for it before running this item again.`,
				},
			);
			return;
		}
		byField.set(field, [...(byField.get(field) ?? []), i]);
	});
	for (const [field, indexes] of byField) {
		try {
			const data = await crmRequest(this, {
				method: 'POST',
				path: `${request.path}/upsert`,
				body: {
					...request.extras,
					duplicate_check_fields: [field],
					data: indexes.map((i) => request.payloads[i]),
				},
				headers: request.headers,
				itemListKey: 'data',
				idempotent: true,
			});
			indexes.forEach((i, n) => (results[i] = data[n]));
		} catch (error) {
			for (const i of indexes) results[i] = error as NodeApiError;
		}
	}
	return results;
}
