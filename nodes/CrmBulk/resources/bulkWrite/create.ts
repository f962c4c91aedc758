import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { optionsField } from '../../../shared/description/collections';
import { moduleSelect, pickedValue } from '../../../shared/description/properties';
import { crmRequest, writeResult } from '../../../shared/transport';
import {
	LIMITS,
	bulkWriteZip,
	callbackOf,
	forEachJobItem,
	jobOptionsField,
	jobPerItemNotice,
	moduleRef,
	orgXgid,
	pollOptions,
	pollUntil,
	resultOutputFields,
	uploadBulkWriteZip,
	variantOf,
	waitForCompletionField,
	waitOptionsField,
} from '../shared';
import { fileFormatField, inputBinaryField } from './uploadFile';
import { downloadWriteResult } from './downloadResult';
import { getParameter } from '../../../shared/parameters';

/** CreateBulkWriteJob — POST /crm/bulk/{v}/write; with a binary source UploadFile first; optionally waits and downloads the result */
export const operation: INodePropertyOptions = {
	name: 'Create Job',
	value: 'create',
	action: 'Create a bulk write job',
	description:
		'Insert, update or upsert records from a CSV or zip file; optionally wait for the job and download the result',
};

export const returns =
	'the job with its id and file id, or when waiting, the result zip as binary data or one item per row';

const fromBinary = { source: ['binary'] };
const waiting = { waitForCompletion: [true] };

const properties: INodeProperties[] = [
	jobPerItemNotice,
	{
		displayName: 'Write Operation',
		name: 'writeOperation',
		type: 'options',
		options: [
			{ name: 'Insert', value: 'insert', description: 'Create a record per row' },
			{
				name: 'Update',
				value: 'update',
				description: 'Update the record matched by "Find By"; unmatched rows are skipped',
			},
			{
				name: 'Create or Update',
				value: 'upsert',
				description: 'Create a new record, or update the current one if it already exists (upsert)',
			},
		],
		default: 'insert',
	},
	moduleSelect,
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		options: [
			{
				name: 'Binary File',
				value: 'binary',
				description: 'Upload a CSV or zip from the input item first (UploadFile)',
			},
			{
				name: 'Uploaded File ID',
				value: 'fileId',
				description: 'A file ID answered by Bulk Write → Upload File',
			},
		],
		default: 'binary',
	},
	{ ...inputBinaryField, displayOptions: { show: fromBinary } },
	{ ...fileFormatField, displayOptions: { show: fromBinary } },
	{
		displayName: 'File ID',
		name: 'fileId',
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: { source: ['fileId'] } },
		description: 'The file_id of an uploaded bulk-write zip',
	},
	{
		displayName: 'Find By',
		name: 'findBy',
		type: 'string',
		default: 'id',
		required: true,
		placeholder: 'Email',
		displayOptions: { show: { writeOperation: ['update', 'upsert'] } },
		description:
			'Field that identifies existing records: the record ID, or a unique or external-ID field such as Email; it must be mapped',
	},
	{
		displayName: 'Column Mapping',
		name: 'mappingMode',
		type: 'options',
		options: [
			{
				name: 'CSV Header Names Are Field Names',
				value: 'header',
				description: 'Each header is a field API name (ID for the record ID)',
			},
			{
				name: 'Define Field Mappings',
				value: 'mappings',
				description: 'Map CSV columns (0-based) to fields',
			},
		],
		default: 'header',
	},
	{
		displayName: 'Field Mappings',
		name: 'fieldMappings',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Mapping',
		default: {},
		displayOptions: { show: { mappingMode: ['mappings'] } },
		description: 'At most 200 mapped fields',
		options: [
			{
				displayName: 'Mapping',
				name: 'mapping',
				values: [
					{
						displayName: 'Column Index',
						name: 'index',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 0,
						description: 'Position of the CSV column, starting at 0',
					},
					{
						displayName: 'Default Value',
						name: 'defaultValue',
						type: 'string',
						default: '',
						description: 'Value used when the cell is empty',
					},
					{
						displayName: 'Field Name or ID',
						name: 'apiName',
						type: 'options',
						typeOptions: { loadOptionsMethod: 'getFields', loadOptionsDependsOn: ['module'] },
						default: '',
						description:
							'Field API name (ID for the record ID). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					{
						displayName: 'Format',
						name: 'format',
						type: 'string',
						default: '',
						placeholder: 'MM/dd/yyyy',
						description:
							'Date or date-time pattern of the column (default MM/dd/yyyy and MM/dd/yyyy HH:mm:ss)',
					},
					{
						displayName: 'Lookup Find By',
						name: 'findBy',
						type: 'string',
						default: '',
						description:
							'For a lookup field: the field of the looked-up module that the column holds (the record ID when empty)',
					},
				],
			},
		],
	},
	waitForCompletionField,
	...resultOutputFields(waiting, 'resultBinaryPropertyName'),
	{ ...waitOptionsField, displayOptions: { show: waiting } },
	jobOptionsField('https://example.com/webhook/bulk-write', [
		optionsField(
			'Character Encoding',
			'characterEncoding',
			{ 'UTF-8': 'UTF-8', 'ISO-8859-1': 'ISO-8859-1' },
			'UTF-8',
		),
		{
			displayName: 'Ignore Empty Cells',
			name: 'ignoreEmpty',
			type: 'boolean',
			default: false,
			description:
				'Whether empty cells leave fields unchanged on update (otherwise they clear them)',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['bulkWrite'], operation: ['create'] } },
	properties,
);

interface MappingInput {
	apiName?: string;
	index?: number;
	format?: string;
	findBy?: string;
	defaultValue?: string;
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const variant = await variantOf.call(this);
	let xgid: string | undefined; // GetOrganization once per execution
	return await forEachJobItem.call(this, 'bulk write', async (itemIndex, track) => {
		const writeOperation = getParameter(this, 'writeOperation', itemIndex) as
			| 'insert'
			| 'update'
			| 'upsert';
		const module = pickedValue(this, 'module', itemIndex);
		const source = getParameter(this, 'source', itemIndex) as 'binary' | 'fileId';
		const options = getParameter(this, 'options', itemIndex, {}) as {
			callbackUrl?: string;
			characterEncoding?: string;
			ignoreEmpty?: boolean;
		};
		const fail = (message: string, description?: string) =>
			new NodeOperationError(this.getNode(), message, { itemIndex, description });

		// everything is checked before the upload
		const resource: IDataObject = { type: 'data', module: moduleRef(variant, module) };
		if (writeOperation !== 'insert') {
			const findBy = String(getParameter(this, 'findBy', itemIndex, '')).trim();
			if (!findBy)
				throw fail(
					`Find By is required for ${writeOperation}`,
					'Name the field that identifies records: id, or a unique field such as Email.',
				);
			resource.find_by = /^id$/i.test(findBy) ? 'id' : findBy;
		}
		if (options.ignoreEmpty !== undefined) resource.ignore_empty = options.ignoreEmpty;
		if (getParameter(this, 'mappingMode', itemIndex, 'header') === 'mappings') {
			const mappings =
				(getParameter(this, 'fieldMappings.mapping', itemIndex, []) as MappingInput[]) ?? [];
			if (mappings.length === 0)
				throw fail(
					'Field Mappings is empty',
					'Add at least one mapping, or choose "CSV Header Names Are Field Names".',
				);
			if (mappings.length > LIMITS.writeMappings)
				throw fail(
					`Field Mappings has ${mappings.length} entries; bulk write allows at most 200 mapped fields`,
				);
			resource.field_mappings = mappings.map((m, i) => {
				const named = String(m.apiName ?? '').trim();
				const apiName = /^id$/i.test(named) ? 'id' : named;
				if (!apiName) throw fail(`Field mapping ${i + 1} has no field`);
				const index = Number(m.index ?? 0);
				if (!Number.isInteger(index) || index < 0)
					throw fail(
						`Field mapping ${i + 1} (${apiName}) needs a column index of 0 or more, got ${m.index}`,
					);
				const mapping: IDataObject = { api_name: apiName, index };
				if (m.format?.trim()) mapping.format = m.format.trim();
				if (m.findBy?.trim()) mapping.find_by = m.findBy.trim();
				if (m.defaultValue !== undefined && m.defaultValue !== '')
					mapping.default_value = { value: m.defaultValue };
				return mapping;
			});
		}
		const callback = callbackOf.call(this, options.callbackUrl, itemIndex);

		let upload: IDataObject | undefined;
		if (source === 'binary') {
			const property = getParameter(this, 'binaryPropertyName', itemIndex) as string;
			const format = getParameter(this, 'fileFormat', itemIndex, 'auto') as 'auto' | 'csv' | 'zip';
			const { zip, fileName } = await bulkWriteZip.call(this, itemIndex, property, format);
			xgid ??= await orgXgid.call(this, itemIndex);
			upload = await uploadBulkWriteZip.call(this, zip, fileName, xgid, itemIndex);
			resource.file_id = (upload.details as IDataObject | undefined)?.file_id;
		} else {
			const fileId = String(getParameter(this, 'fileId', itemIndex, '')).trim();
			if (!fileId)
				throw fail('File ID is required', 'Upload the file with Bulk Write → Upload File first.');
			resource.file_id = fileId;
		}

		const body: IDataObject = { operation: writeOperation, resource: [resource] };
		if (options.characterEncoding) body.character_encoding = options.characterEncoding;
		if (callback) body.callback = callback;
		const poll = pollOptions.call(this, itemIndex);
		const created = await crmRequest(this, {
			method: 'POST',
			path: '/write',
			root: 'bulk',
			body,
			itemIndex,
			// a job waits for a slot (open jobs, §7) as long as it may take to finish
			slotWaitMs: poll.timeoutMs,
		});
		track(created);
		const jobId = String((created.details as IDataObject | undefined)?.id ?? '');
		if (!getParameter(this, 'waitForCompletion', itemIndex, true)) {
			return [{ json: { ...writeResult(created), file_id: resource.file_id } }];
		}

		const job = await pollUntil.call(
			this,
			async () =>
				await crmRequest(this, {
					method: 'GET',
					path: `/write/${encodeURIComponent(jobId)}`,
					root: 'bulk',
					itemIndex,
				}),
			(j) => j.status === 'COMPLETED' || j.status === 'FAILED',
			poll,
			{ itemIndex, what: `Bulk write job ${jobId}` },
		);
		track(job);
		if (job.status !== 'COMPLETED') {
			const url = (job.result as IDataObject | undefined)?.download_url;
			throw fail(
				`Bulk write job ${jobId} ended in status ${String(job.status)}`,
				`Rows processed before the failure are reported in the result file${url ? ` (Bulk Write → Download Result, job ${jobId})` : ''}.`,
			);
		}
		return await downloadWriteResult.call(this, job, itemIndex, 'resultBinaryPropertyName');
	});
}
