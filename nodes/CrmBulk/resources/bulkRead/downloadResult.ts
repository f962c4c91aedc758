import type {
	IDataObject,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { crmRequest, crmRouting } from '../../../shared/transport';
import { responseFile } from '../../../shared/formats/download';
import {
	BULK_BASE_URL,
	downloadedFileItems,
	exportFileName,
	jobModule,
	resultOutputFields,
	typedReadRows,
	readResultRows,
} from '../shared';
import { jobIdField } from './get';
import { getParameter } from '../../../shared/parameters';

/** postReceive: the result zip as a binary item, or its CSV rows as items. */
async function resultToItems(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const itemIndex = this.getItemIndex();
	const jobId = String(getParameter(this, 'jobId', itemIndex, '')).trim();
	const file = responseFile(response, `${jobId}.zip`, 'application/zip');
	// the job names the module whose field types the rows take, and the file (GetBulkReadJobDetails, GET /crm/bulk/{v}/read/{jobId})
	const jobOf = async () => {
		const { data: jobs = [] } = (await crmRequest(this, {
			method: 'GET',
			root: 'bulk',
			path: `/read/${encodeURIComponent(jobId)}`,
		})) as {
			data?: IDataObject[];
		};
		return jobs[0] ?? {};
	};
	if (getParameter(this, 'output', itemIndex, 'binary') === 'records') {
		const rows = readResultRows(this.getNode(), file.data, itemIndex);
		if (rows.length === 0) return [];
		const rowsOf = await typedReadRows.call(this, rows, jobModule(await jobOf()));
		return rowsOf.map((json) => ({ json }));
	}
	return await downloadedFileItems.call(
		this,
		{ jobId },
		{ ...file, fileName: exportFileName(await jobOf()) },
	);
}

/** DownloadResult — GET /crm/bulk/{v}/read/{jobId}/result (zip) */
export const operation: INodePropertyOptions = {
	name: 'Download Result',
	value: 'downloadResult',
	action: 'Download a bulk read result',
	description:
		'Download the result zip of a completed bulk read job, as a binary or as parsed records',
	routing: crmRouting({
		request: {
			method: 'GET',
			baseURL: BULK_BASE_URL,
			url: '=/read/{{ toPathSegment(String($parameter.jobId).trim()) }}/result',
			encoding: 'arraybuffer',
			json: false,
			headers: { Accept: 'application/x-download' },
		},
		output: { postReceive: [resultToItems] },
	}),
};

export const returns =
	'the result zip as binary data, or one item per exported record when parsing is on';

const properties: INodeProperties[] = [jobIdField, ...resultOutputFields({})];

export const description = updateDisplayOptions(
	{ show: { resource: ['bulkRead'], operation: ['downloadResult'] } },
	properties,
);
