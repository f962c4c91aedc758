import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { itemListRequest } from '../../shared/transport/itemListRequest';
import { runBatched } from '../../shared/transport';
import { checkDigits } from '../../shared/records/validation';
import { pickedValue } from '../../shared/description/properties';
import { getParameter } from '../../shared/parameters';

/** `fields` query option as comma-separated text (for lists the node cannot load field choices for). */
export const fieldsTextOption = (placeholder: string, description: string): INodeProperties => ({
	displayName: 'Fields',
	name: 'fields',
	type: 'string',
	default: '',
	placeholder,
	description,
	routing: { send: { type: 'query', property: 'fields', value: '={{ $value || undefined }}' } },
});

/** A list the service writes by ID: notes, contact roles (docs/protocol.md §6: up to 100 per request). */
export interface IdListTarget {
	/** node parameter holding the item's ID */
	idParameter: string;
	/** its name in error messages */
	label: string;
	path: string;
	/** key of the list in request and response bodies */
	listKey: string;
	batchSize?: number;
}

function idOf(this: IExecuteFunctions, target: IdListTarget, itemIndex: number): string {
	const id = pickedValue(this, target.idParameter, itemIndex);
	checkDigits(this.getNode(), id, target.label, { itemIndex });
	return id;
}

/** DELETE {path}?ids=…, the item IDs batched. */
export async function deleteByIds(
	this: IExecuteFunctions,
	target: IdListTarget,
): Promise<INodeExecutionData[][]> {
	return await runBatched(this, {
		batchSize: target.batchSize,
		build: (itemIndex) => ({
			key: target.path,
			payload: { id: idOf.call(this, target, itemIndex) },
		}),
		request: (_key, payloads) => ({
			method: 'DELETE',
			path: target.path,
			qs: { ids: payloads.map((p) => p.id).join(',') },
			itemListKey: target.listKey,
		}),
	});
}

/** PUT {path} with the items' "Update Fields" (at least one) and IDs, batched. */
export async function updateByIds(
	this: IExecuteFunctions,
	target: IdListTarget,
): Promise<INodeExecutionData[][]> {
	return await runBatched(this, {
		batchSize: target.batchSize,
		build: (itemIndex) => {
			const id = idOf.call(this, target, itemIndex);
			const fields = getParameter(this, 'updateFields', itemIndex, {}) as IDataObject;
			if (Object.keys(fields).length === 0) {
				throw new NodeOperationError(
					this.getNode(),
					'Nothing to update: add a field under "Update Fields"',
					{ itemIndex },
				);
			}
			return { key: target.path, payload: { id, ...fields } };
		},
		request: (_key, items) =>
			itemListRequest({ method: 'PUT', path: target.path }, target.listKey, items),
	});
}
