import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { crmRequest, runPerItem } from '../../../shared/transport';
import { binaryItem, downloadFile, resultOutputFields, zipRecords } from '../shared';
import { writeJobIdField } from './get';
import { getParameter } from '../../../shared/parameters';

/** DownloadBulkWriteResult — GET result.download_url (absolute, as GetBulkWriteJobDetails gives it) */
export const operation: INodePropertyOptions = {
	name: 'Download Result',
	value: 'downloadResult',
	action: 'Download a bulk write result',
	description:
		'Download the result file of a finished bulk write job, with the outcome of each row, as a binary or as parsed records',
};

export const returns =
	'the result zip as binary data, or one item per row with its status, record id and errors when parsing is on';

const properties: INodeProperties[] = [writeJobIdField, ...resultOutputFields({})];

export const description = updateDisplayOptions(
	{ show: { resource: ['bulkWrite'], operation: ['downloadResult'] } },
	properties,
);

/** The job's result file as output items: one binary item (the job JSON + zip) or one item per CSV row. */
export async function downloadWriteResult(
	this: IExecuteFunctions,
	job: IDataObject,
	itemIndex: number,
	binaryParameter: string,
): Promise<INodeExecutionData[]> {
	const jobId = String(job.id ?? '');
	const url = (job.result as IDataObject | undefined)?.download_url;
	if (typeof url !== 'string' || !url) {
		throw new NodeOperationError(
			this.getNode(),
			`Bulk write job ${jobId} has no result file yet (status ${String(job.status)})`,
			{
				itemIndex,
				description:
					'The result file exists once the job is COMPLETED (or FAILED after processing rows). Try again later.',
			},
		);
	}
	const file = await downloadFile.call(this, url, itemIndex, `${jobId}.zip`);
	if (getParameter(this, 'output', itemIndex, 'binary') === 'records') {
		return zipRecords(this.getNode(), file.data, itemIndex).map((json) => ({ json }));
	}
	const property = getParameter(this, binaryParameter, itemIndex, 'data') as string;
	return [await binaryItem(this.helpers, job, property, file)];
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runPerItem(this, async (itemIndex) => {
		const jobId = String(getParameter(this, 'jobId', itemIndex)).trim();
		if (!jobId) throw new NodeOperationError(this.getNode(), 'Job ID is required', { itemIndex });
		const job = await crmRequest(this, {
			method: 'GET',
			path: `/write/${encodeURIComponent(jobId)}`,
			root: 'bulk',
			itemIndex,
		});
		return await downloadWriteResult.call(this, job, itemIndex, 'binaryPropertyName');
	});
}
