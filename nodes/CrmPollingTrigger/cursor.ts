import type { IDataObject } from 'n8n-workflow';

import type { StreamCursor } from '../shared/changes/changeStream';

/**
 * What the CRM Polling Trigger keeps in the workflow's static data ('node'), so that n8n saves it
 * with the poll (and, with durable poll cursors, commits it in the transaction that stores the
 * execution). docs/production.md "How the CRM Polling Trigger reads every change once" lists what is kept and how much.
 */
export interface PollState extends IDataObject {
	/** one cursor per module and time field: `Leads|Modified_Time`, `Leads|Created_Time`, `Leads|deleted` */
	streams?: Record<string, StreamCursor>;
	/** "Only When These Fields Change": per module, the watched fields' last seen values of recent records */
	values?: Record<string, Record<string, IDataObject>>;
}

/** Records whose watched values are kept per module (most recently changed first out of the list last). */
const VALUES_PER_MODULE = 1000;

/** Keeps `values` of one record, newest last, at most VALUES_PER_MODULE per module. */
export function remember(
	state: PollState,
	module: string,
	id: string,
	values: IDataObject | undefined,
): void {
	state.values ??= {};
	const ofModule = (state.values[module] ??= {});
	// a prefix keeps insertion order (digit-only keys would be ordered numerically)
	const key = `r${id}`;
	delete ofModule[key];
	if (values === undefined) return;
	ofModule[key] = values;
	const keys = Object.keys(ofModule);
	for (const old of keys.slice(0, Math.max(0, keys.length - VALUES_PER_MODULE)))
		delete ofModule[old];
}

export function recalled(state: PollState, module: string, id: string): IDataObject | undefined {
	return state.values?.[module]?.[`r${id}`];
}
