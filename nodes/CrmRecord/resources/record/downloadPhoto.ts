import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { outputBinaryField } from '../../../shared/description/binaryOutputField';
import { moduleSelect, recordIdField } from '../../../shared/description/properties';
import { photoToBinary, validateRecordId } from './hooks';
import { crmRouting } from '../../../shared/transport';

/** GetPhoto — GET /crm/{v}/{module}/{id}/photo (file download) */
export const operation: INodePropertyOptions = {
	name: 'Download Photo',
	value: 'downloadPhoto',
	action: 'Download a record photo',
	description: 'Get the photo of a record as a binary with its file name',
	routing: crmRouting({
		request: {
			method: 'GET',
			url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment(String($parameter.recordId).trim()) }}/photo',
			encoding: 'arraybuffer',
			headers: { Accept: 'application/x-download' },
		},
		send: { preSend: [validateRecordId] },
		output: { postReceive: [photoToBinary] },
	}),
};

export const returns =
	'the photo as binary data (property "data" by default) with its file name and size; hasPhoto false if none';

const properties: INodeProperties[] = [moduleSelect, recordIdField, outputBinaryField];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['downloadPhoto'] } },
	properties,
);
