import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { executeRecordsAction, tagActionProperties } from './shared';

/** AddTagsToMultipleRecords — POST /crm/{v}/{module}/actions/add_tags?tag_names=…&ids=…, up to 100 records per request (custom operation) */
export const operation: INodePropertyOptions = {
	name: 'Add to Many Records',
	value: 'addToRecords',
	action: 'Add tags to many records',
	description: 'Add tags to records',
};

export const returns =
	'one item per record: its id and status, with its tags after the change under details';

export const description = updateDisplayOptions(
	{ show: { resource: ['tag'], operation: ['addToRecords'] } },
	tagActionProperties('add', false),
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await executeRecordsAction.call(this, 'add');
}
