import type {
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { outputBinaryField } from '../../../shared/description/binaryOutputField';
import { responseFile } from '../../../shared/formats/download';
import { downloadedFileItems } from '../shared';
import { crmRouting, noneWithId } from '../../../shared/transport';
import { getParameter } from '../../../shared/parameters';

/** postReceive: the stored file as a binary item with its name and type. */
async function fileToBinary(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const id = String(getParameter(this, 'fileId', this.getItemIndex(), '')).trim();
	return await downloadedFileItems.call(
		this,
		{ id },
		responseFile(response, id, 'application/octet-stream'),
	);
}

/** GetFile — GET /crm/{v}/files?id= (file download) */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a file from the file store',
	description: 'Download a file of the shared file store as a binary',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '/files',
				qs: { id: '={{ String($parameter.fileId).trim() }}' },
				encoding: 'arraybuffer',
				json: false,
				headers: { Accept: 'application/x-download' },
			},
			output: { postReceive: [fileToBinary] },
		},
		{ notFound: noneWithId('file', 'fileId') },
	),
};

export const returns =
	'the file as binary data, with its id, name, type and size (an error when no file has the ID)';

const properties: INodeProperties[] = [
	{
		displayName: 'File ID',
		name: 'fileId',
		type: 'string',
		default: '',
		required: true,
		description: 'The ID answered by Upload',
	},
	outputBinaryField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['file'], operation: ['get'] } },
	properties,
);
