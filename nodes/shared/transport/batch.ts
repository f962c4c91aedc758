import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { crmApiError, isErrorItem } from './errors';
import type { CrmErrorBody } from './errors';
import { writeResult } from './envelope';
import { crmApiRequest, isOutcomeUnknown } from './request';

/** Records per request for every write the service takes as a list (§6). */
export const BATCH_SIZE = 100;

/** One input item's part of a batched call. */
export interface BatchEntry {
	/** items with the same key share requests (e.g. the module) */
	key: string;
	payload: IDataObject;
}

export interface BatchOptions {
	/** builds an item's entry; throw NodeOperationError for bad input (reported before any request is sent) */
	build: (itemIndex: number) => BatchEntry | Promise<BatchEntry>;
	/** sends one chunk; answers one result item per payload, in order */
	send: (key: string, payloads: IDataObject[], firstItemIndex: number) => Promise<IDataObject[]>;
	batchSize?: number;
	/** output json of a successful result item */
	toJson?: (result: IDataObject, itemIndex: number) => IDataObject;
	/**
	 * Settles a chunk whose request failed with its outcome unknown (5xx, connection lost: see
	 * isOutcomeUnknown) in a way that cannot write twice, e.g. upsertUnknownOutcome(); answers one
	 * result per payload (an Error fails that item alone). Without it, or when it throws, every item
	 * of the chunk fails with the error.
	 */
	recover?: (key: string, payloads: IDataObject[], firstItemIndex: number, failure: NodeApiError) => Promise<BatchResult[]>;
}

/** One payload's result: the CRM's result item, or an error for that item alone. */
export type BatchResult = IDataObject | NodeApiError | NodeOperationError;

type Outcome = { json: IDataObject } | { error: NodeApiError | NodeOperationError };

/**
 * Output json of a failed item: n8n's error-item shape `{error, message, details}` (which its
 * "error output" recognises), with the CRM's code and details kept under `details`.
 */
function errorJson(error: NodeApiError | NodeOperationError): IDataObject {
	const crm = (error.context?.crm ?? {}) as IDataObject;
	return { error: error.message, message: error.description ?? '', details: { status: 'error', ...crm } };
}

/**
 * Sends input items in chunks of up to 100 per request and pairs every result with its input item,
 * in input order. Per-record errors in a 2xx (or all-failed 400) body fail only their item.
 * With "continue on fail" each failed item is output as an error item; otherwise the node fails
 * after the batch, and the error lists every failed item (the others were written).
 */
export async function runBatched(this: IExecuteFunctions, options: BatchOptions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const size = options.batchSize ?? BATCH_SIZE;
	const continueOnFail = this.continueOnFail();
	const outcomes: Outcome[] = new Array(items.length);
	const groups = new Map<string, Array<{ itemIndex: number; payload: IDataObject }>>();

	// build every item first: bad input is reported before anything is sent
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const entry = await options.build(itemIndex);
			const group = groups.get(entry.key) ?? [];
			group.push({ itemIndex, payload: entry.payload });
			groups.set(entry.key, group);
		} catch (error) {
			const nodeError =
				error instanceof NodeOperationError || (error as NodeApiError).name === 'NodeApiError'
					? (error as NodeOperationError)
					: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			if (!continueOnFail) throw nodeError;
			outcomes[itemIndex] = { error: nodeError };
		}
	}

	const settle = (chunk: Array<{ itemIndex: number }>, results: BatchResult[]) => {
		chunk.forEach(({ itemIndex }, i) => {
			const result = results[i];
			if (!result) {
				outcomes[itemIndex] = {
					error: new NodeOperationError(this.getNode(), 'The CRM answered no result for this item', { itemIndex }),
				};
			} else if (result instanceof Error) {
				outcomes[itemIndex] = { error: result };
			} else if (isErrorItem(result)) {
				outcomes[itemIndex] = { error: crmApiError(this.getNode(), result as CrmErrorBody, { itemIndex }) };
			} else {
				outcomes[itemIndex] = { json: options.toJson ? options.toJson(result, itemIndex) : writeResult(result) };
			}
		});
	};

	for (const [key, group] of groups) {
		for (let start = 0; start < group.length; start += size) {
			const chunk = group.slice(start, start + size);
			const payloads = chunk.map((c) => c.payload);
			try {
				settle(chunk, await options.send(key, payloads, chunk[0].itemIndex));
			} catch (error) {
				let failure = error as NodeApiError;
				if (options.recover && isOutcomeUnknown(error)) {
					try {
						settle(chunk, await options.recover(key, payloads, chunk[0].itemIndex, failure));
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

	const failed = outcomes.map((o, i) => ({ o, i })).filter(({ o }) => 'error' in o);
	if (failed.length && !continueOnFail) {
		const first = failed[0].o as { error: NodeApiError };
		const summary = failed
			.slice(0, 20)
			.map(({ o, i }) => `item ${i}: ${(o as { error: Error }).error.message}`)
			.join('; ');
		first.error.description = [
			first.error.description,
			`${failed.length} of ${items.length} items failed (${summary}${failed.length > 20 ? '; …' : ''}).`,
			failed.length < items.length ? 'The other items were written. Enable "Continue On Fail" to get one output item per input item.' : '',
		]
			.filter(Boolean)
			.join(' ');
		first.error.context.itemIndex = failed[0].i;
		throw first.error;
	}

	return [
		outcomes.map((outcome, itemIndex) =>
			'json' in outcome
				? { json: outcome.json, pairedItem: { item: itemIndex } }
				: { json: errorJson(outcome.error), pairedItem: { item: itemIndex } },
		),
	];
}

/** A scalar, non-empty value of a unique field: something an upsert can match a record by. */
function matchValue(value: unknown): boolean {
	return (typeof value === 'string' && value.trim() !== '') || (typeof value === 'number' && Number.isFinite(value));
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
		firstItemIndex: number;
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
			const itemIndex = request.firstItemIndex + i;
			const unique = request.uniqueFields.length ? request.uniqueFields.join(', ') : 'none in this module';
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
			const body = await crmApiRequest.call(this, {
				method: 'POST',
				path: `${request.path}/upsert`,
				body: { ...request.extras, duplicate_check_fields: [field], data: indexes.map((i) => request.payloads[i]) },
				headers: request.headers,
				itemListKey: 'data',
				idempotent: true,
			});
			const data = (body.data ?? []) as IDataObject[];
			indexes.forEach((i, n) => (results[i] = data[n]));
		} catch (error) {
			for (const i of indexes) results[i] = error as NodeApiError;
		}
	}
	return results;
}
