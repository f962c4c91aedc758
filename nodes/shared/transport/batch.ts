import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { crmApiError, isErrorItem } from './errors';
import type { CrmErrorBody } from './errors';
import { writeResult } from './envelope';

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
}

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

	for (const [key, group] of groups) {
		for (let start = 0; start < group.length; start += size) {
			const chunk = group.slice(start, start + size);
			try {
				const results = await options.send(
					key,
					chunk.map((c) => c.payload),
					chunk[0].itemIndex,
				);
				chunk.forEach(({ itemIndex }, i) => {
					const result = results[i];
					if (!result) {
						outcomes[itemIndex] = {
							error: new NodeOperationError(this.getNode(), 'The CRM answered no result for this item', { itemIndex }),
						};
					} else if (isErrorItem(result)) {
						outcomes[itemIndex] = { error: crmApiError(this.getNode(), result as CrmErrorBody, { itemIndex }) };
					} else {
						outcomes[itemIndex] = { json: options.toJson ? options.toJson(result, itemIndex) : writeResult(result) };
					}
				});
			} catch (error) {
				// the whole request failed (after retries): every item of the chunk shares the error
				for (const { itemIndex } of chunk) outcomes[itemIndex] = { error: error as NodeApiError };
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
