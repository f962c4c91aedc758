import { moduleSelect, pickedValue, recordIdField } from '../../../shared/description/properties';
import { runBatched } from '../../../shared/transport';
import { pickedDigits } from '../../../shared/records/validation';
import { attachmentIdField } from './shared';
import { writeOperation } from '../../../shared/description/nodeDescription';

/** DeleteAttachments — DELETE /crm/{v}/{module}/{recordId}/Attachments?ids=…, up to 100 IDs per request (custom operation) */
export const { operation, returns, description, execute } = writeOperation('delete', {
	resource: 'attachment',
	thing: 'attachment',
	description: 'Delete attachments of a record',
	properties: [moduleSelect, recordIdField, attachmentIdField],
	async execute() {
		return await runBatched(this, {
			build: (itemIndex) => {
				const module = pickedValue(this, 'module', itemIndex);
				const recordId = pickedDigits(this, 'recordId', 'Record ID', itemIndex);
				const id = pickedDigits(this, 'attachmentId', 'Attachment ID', itemIndex);
				return { key: { module, recordId }, payload: { id } };
			},
			request: ({ module, recordId }, payloads) => ({
				method: 'DELETE',
				path: `/${encodeURIComponent(module)}/${encodeURIComponent(recordId)}/Attachments`,
				qs: { ids: payloads.map((p) => p.id).join(',') },
				itemListKey: 'data',
			}),
		});
	},
});
