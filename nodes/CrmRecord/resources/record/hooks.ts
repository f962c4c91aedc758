// preSend / postReceive hooks of the declarative record operations: validation before sending,
// headers (If-Modified-Since, X-EXTERNAL), bodies built from parameters, binary photo in and out.
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { responseFile } from '../../../shared/formats/download';
import { searchQuery } from '../../../shared/records/criteria';
import { toCrmDateTime } from '../../../shared/formats/dates';
import { unwrapBody } from '../../../shared/transport';
import { checkDigits } from '../../../shared/records/validation';
import { idListOf } from './shared';
import { pickedValue } from '../../../shared/description/properties';
import { getParameter } from '../../../shared/parameters';

/** Record ID parameter (`recordId` unless the operation addresses the record by external ID) must be digits. */
export async function validateRecordId(
	this: IExecuteSingleFunctions,
	request: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const itemIndex = this.getItemIndex();
	const by = getParameter(this, 'getBy', itemIndex, 'id') as string;
	if (by === 'externalId') return request;
	const id = pickedValue(this, 'recordId');
	checkDigits(this.getNode(), id, 'Record ID', {
		itemIndex,
		description: 'Set "Record ID" to the numeric ID of the record (e.g. 4876876000000611001).',
	});
	return request;
}

/** X-EXTERNAL for an operation addressing its record by external value (§3.9). */
export async function externalHeader(
	this: IExecuteSingleFunctions,
	request: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const itemIndex = this.getItemIndex();
	if ((getParameter(this, 'getBy', itemIndex, 'id') as string) !== 'externalId') return request;
	const module = pickedValue(this, 'module');
	const field = getParameter(this, 'externalField', itemIndex) as string;
	const value = String(getParameter(this, 'externalValue', itemIndex, '') ?? '').trim();
	if (!value)
		throw new NodeOperationError(this.getNode(), 'External ID Value is empty', {
			itemIndex,
		});
	request.headers = { ...request.headers, 'X-EXTERNAL': `${module}.${field}` };
	return request;
}

/** Read options that need code: If-Modified-Since in the contract's DateTime form, `ids` bounds. */
export async function readOptions(
	this: IExecuteSingleFunctions,
	request: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const itemIndex = this.getItemIndex();
	const options = getParameter(this, 'options', itemIndex, {}) as IDataObject;
	if (options.ifModifiedSince) {
		const value = toCrmDateTime(options.ifModifiedSince);
		if (!value) {
			throw new NodeOperationError(
				this.getNode(),
				`Modified Since is not a date and time: "${String(options.ifModifiedSince)}"`,
				{
					itemIndex,
				},
			);
		}
		request.headers = { ...request.headers, 'If-Modified-Since': value };
	}
	if (options.ids !== undefined && String(options.ids).trim() !== '') {
		const ids = idListOf.call(this, options.ids, itemIndex, 'Record IDs', 100);
		request.qs = { ...request.qs, ids: ids.join(',') };
	}
	for (const name of ['startDateTime', 'endDateTime']) {
		if (!options[name]) continue;
		const value = toCrmDateTime(options[name]);
		if (!value)
			throw new NodeOperationError(this.getNode(), `${name} is not a date and time`, {
				itemIndex,
			});
		request.qs = { ...request.qs, [name]: value };
	}
	return request;
}

export async function searchPreSend(
	this: IExecuteSingleFunctions,
	request: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	request.qs = { ...request.qs, ...searchQuery.call(this, false) };
	return request;
}

export async function countPreSend(
	this: IExecuteSingleFunctions,
	request: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	request.qs = { ...request.qs, ...searchQuery.call(this, true) };
	return request;
}

// ---- photos ---------------------------------------------------------------------------------------

/** GetPhoto's bytes as a binary with the file name and type the CRM gave; 204 (no photo) as `hasPhoto: false`. */
export async function photoToBinary(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const id = pickedValue(this, 'recordId');
	const body = response.body as unknown;
	if (response.statusCode === 204 || !body || (Buffer.isBuffer(body) && body.length === 0)) {
		return [{ json: { id, hasPhoto: false } }];
	}
	const {
		data: buffer,
		fileName,
		mimeType,
	} = responseFile(response, `${id}.jpg`, 'application/octet-stream');
	const property = getParameter(this, 'binaryPropertyName', this.getItemIndex(), 'data') as string;
	const binary = await this.helpers.prepareBinaryData(buffer, fileName, mimeType);
	return [
		{
			json: { id, hasPhoto: true, fileName, mimeType, size: buffer.length },
			binary: { [property]: binary },
		},
	];
}

// ---- mass update ----------------------------------------------------------------------------------

/** Puts `job_id` beside each result item of MassUpdate. */
export async function jobIdFirst(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return items.flatMap((item) =>
		unwrapBody(item.json, 'data').items.map((json) => ({
			json: { job_id: (json.details as IDataObject | undefined)?.job_id, ...json },
		})),
	);
}
