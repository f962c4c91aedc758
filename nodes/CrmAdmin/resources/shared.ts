// Helpers shared by the CRM Admin operations: ID checks, write-result output, body building
// from collections, and the chunk-of-one rule for writes that have a single-item form.
import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { writeResult } from '../../shared/transport';
import { checkDigits } from '../../shared/validation';

/** An API name in a path: anything but an all-digit segment, which the service reads as an ID (§3.10). */
export const API_NAME_RE = /^(?!\d+$)\S+$/;

/** A numeric ID parameter, trimmed; NodeOperationError naming the parameter otherwise. */
export function idParameter(this: IExecuteFunctions, name: string, label: string, itemIndex: number): string {
	const raw = this.getNodeParameter(name, itemIndex);
	if (typeof raw === 'number') {
		throw new NodeOperationError(this.getNode(), `${label} must be given as text`, {
			itemIndex,
			description: 'IDs exceed JavaScript number precision; pass them as strings, e.g. "4876876000000225013".',
		});
	}
	const id = String(raw ?? '').trim();
	checkDigits(this.getNode(), id, label, {
		itemIndex,
		description: `Set "${label}" to a numeric ID such as 4876876000000225013.`,
	});
	return id;
}

/**
 * `postReceive` for declarative writes: the result items of the body (a wrapper list, or a wrapper
 * object such as `base_currency`), each with its `id` first. Error items stay error items (the
 * request runner turns them into node errors).
 */
export async function writeResults(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const body = (response.body ?? {}) as IDataObject;
	if (typeof body.status === 'string') return [{ json: writeResult(body) }];
	for (const value of Object.values(body)) {
		if (Array.isArray(value)) return (value as IDataObject[]).map((item) => ({ json: writeResult(item) }));
		if (value && typeof value === 'object' && typeof (value as IDataObject).status === 'string') {
			return [{ json: writeResult(value as IDataObject) }];
		}
	}
	return [{ json: body }];
}

/** The set keys of a collection parameter (empty strings dropped). */
export function collectionValues(values: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(values ?? {})) {
		if (value === undefined || value === null || value === '') continue;
		out[key] = value;
	}
	return out;
}

/** `{ "id": "<id>" }` for a lookup given as an ID. */
export const lookup = (id: unknown): IDataObject => ({ id: String(id).trim() });

/** A collection that must hold at least one field (update operations). */
export function requireSome(this: IExecuteFunctions | IExecuteSingleFunctions, values: IDataObject, label: string, itemIndex: number): void {
	if (Object.keys(values).length === 0) {
		throw new NodeOperationError(this.getNode(), `Add at least one field to "${label}"`, { itemIndex });
	}
}
