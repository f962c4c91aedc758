import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { executeRecordsAction, tagActionProperties } from './shared';

/** RemoveTagsFromMultipleRecords — POST /crm/{v}/{module}/actions/remove_tags?tag_names=…&ids=…, up to 100 records per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Remove From Many Records',
	value: 'removeFromRecords',
	action: 'Remove tags from many records',
	description: 'Remove tags from records',
};

export const returns =
	'one item per record: its id and status, with its tags after the change under details';

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['removeFromRecords'] } },
	tagActionProperties('remove', false),
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await executeRecordsAction.call(this, 'remove');
}
