import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, recordIdField } from '../../../shared/description/properties';
import { validateRecordId } from './hooks';
import { crmRouting } from '../../../shared/transport';

/** DeletePhoto — DELETE /crm/{v}/{module}/{id}/photo */
export const operation: INodePropertyOptions = {
	name: 'Delete Photo',
	value: 'deletePhoto',
	action: 'Delete a record photo',
	description: 'Remove the photo of a record',
	routing: crmRouting({
		request: {
			method: 'DELETE',
			url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment(String($parameter.recordId).trim()) }}/photo',
		},
		send: { preSend: [validateRecordId] },
	}),
};

export const returns = 'the result: its status and message';

const properties: INodeProperties[] = [moduleSelect, recordIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['deletePhoto'] } },
	properties,
);
