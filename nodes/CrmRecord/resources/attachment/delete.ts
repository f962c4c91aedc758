import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, pickedValue, recordIdField } from '../../../shared/description/properties';
import { runBatched } from '../../../shared/transport';
import { checkDigits } from '../../../shared/records/validation';
import { attachmentIdField } from './shared';

/** DeleteAttachments — DELETE /crm/{v}/{module}/{recordId}/Attachments?ids=…, up to 100 IDs per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete an attachment',
	description: 'Delete attachments of a record',
};

export const returns = 'one item per deleted attachment: its id and status';

const properties: INodeProperties[] = [moduleSelect, recordIdField, attachmentIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['attachment'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched(this, {
		build: (itemIndex) => {
			const module = pickedValue(this, 'module', itemIndex);
			const recordId = pickedValue(this, 'recordId', itemIndex);
			const id = pickedValue(this, 'attachmentId', itemIndex);
			checkDigits(this.getNode(), recordId, 'Record ID', { itemIndex });
			checkDigits(this.getNode(), id, 'Attachment ID', { itemIndex });
			return { key: { module, recordId }, payload: { id } };
		},
		request: ({ module, recordId }, payloads) => ({
			method: 'DELETE',
			path: `/${encodeURIComponent(module)}/${encodeURIComponent(recordId)}/Attachments`,
			qs: { ids: payloads.map((p) => p.id).join(',') },
			itemListKey: 'data',
		}),
	});
}
