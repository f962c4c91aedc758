import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, pickedValue } from '../../../shared/description/properties';
import {
	allOrAnyOption,
	conditionsCollection,
	optionsField,
} from '../../../shared/description/collections';
import { toCrmDate, toCrmDateTime } from '../../../shared/formats/dates';
import { PICKLIST_MARK, criteriaFieldName } from '../../../shared/methods/loadOptions';
import { loadFieldMeta } from '../../../shared/records/fields';
import type { FieldMeta } from '../../../shared/records/fields';
import { crmRequest, writeResult } from '../../../shared/transport';
import { listOf } from '../../../shared/records/validation';
import {
	LIMITS,
	binaryItem,
	callbackOf,
	downloadFile,
	exportFileName,
	forEachJobItem,
	jobModule,
	jobOptionsField,
	jobPerItemNotice,
	moduleRef,
	pollOptions,
	pollUntil,
	resultOutputFields,
	typedReadRows,
	variantOf,
	waitForCompletionField,
	waitOptionsField,
	readResultRows,
} from '../shared';
import { getParameter } from '../../../shared/parameters';

/** CreateBulkReadJob — POST /crm/bulk/{v}/read; optionally polls GetBulkReadJobDetails and downloads the result (DownloadResult) */
export const operation: INodePropertyOptions = {
	name: 'Create Job',
	value: 'create',
	action: 'Create a bulk read job',
	description:
		'Export the records of a module that match criteria; optionally wait for the job and download the result',
};

export const returns =
	'the job with its id and state, or when waiting, the result zip as binary data or one item per exported record';

const COMPARATORS: INodePropertyOptions[] = [
	{ name: 'Between', value: 'between' },
	{ name: 'Contains', value: 'contains' },
	{ name: 'Ends With', value: 'ends_with' },
	{ name: 'Equal', value: 'equal' },
	{ name: 'Greater Than', value: 'greater_than' },
	{ name: 'Greater Than or Equal', value: 'greater_equal' },
	{ name: 'In', value: 'in' },
	{ name: 'Less Than', value: 'less_than' },
	{ name: 'Less Than or Equal', value: 'less_equal' },
	{ name: 'Not Between', value: 'not_between' },
	{ name: 'Not Contains', value: 'not_contains' },
	{ name: 'Not Equal', value: 'not_equal' },
	{ name: 'Not In', value: 'not_in' },
	{ name: 'Starts With', value: 'starts_with' },
];

const waiting = { waitForCompletion: [true] };

const properties: INodeProperties[] = [
	jobPerItemNotice,
	moduleSelect,
	{
		displayName: 'Field Names or IDs',
		name: 'fields',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getFields', loadOptionsDependsOn: ['module'] },
		default: [],
		description:
			'Columns of the result CSV after "ID" (all fields when empty). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	optionsField(
		'Filter',
		'filterType',
		[
			{ name: 'None', value: 'none', description: 'Export every record of the module' },
			{
				name: 'Build Conditions',
				value: 'conditions',
				description: 'Combine field conditions with AND or OR',
			},
			{ name: 'JSON Criteria', value: 'json', description: 'A criteria object with nested groups' },
		],
		'none',
	),
	allOrAnyOption('Must Match', 'matchType', { show: { filterType: ['conditions'] } }),
	conditionsCollection(
		'At most 25 conditions; values are converted to the field type',
		{ show: { filterType: ['conditions'] } },
		[
			{
				displayName: 'Field Name or ID',
				name: 'field',
				type: 'options',
				// picklist values carry PICKLIST_MARK: their Value below is a dropdown of the picklist
				typeOptions: { loadOptionsMethod: 'getCriteriaFields', loadOptionsDependsOn: ['module'] },
				default: '',
				description:
					'Field API name; a lookup field may be followed with a dot (Account_Name.Account_Name). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				// display names sort as the condition reads (the lint alphabetizes fixedCollection items)
				displayName: 'Operator',
				name: 'comparator',
				type: 'options',
				options: COMPARATORS,
				default: 'equal',
			},
			{
				displayName: 'Value',
				name: 'value',
				type: 'string',
				default: '',
				description:
					'For In / Not In a comma-separated list (at most 50 values); for Between the lower bound',
				displayOptions: { hide: { field: [{ _cnd: { endsWith: PICKLIST_MARK } }] } },
			},
			{
				displayName: 'Value (Upper Bound)',
				name: 'valueTo',
				type: 'string',
				default: '',
				description: 'Upper bound (inclusive) for Between / Not Between; Value is the lower bound',
				displayOptions: { show: { comparator: ['between', 'not_between'] } },
			},
			{
				displayName: 'Value Name or ID',
				name: 'picklistValue',
				type: 'options',
				typeOptions: {
					loadOptionsMethod: 'getCriteriaValues',
					loadOptionsDependsOn: ['module', '&field'],
				},
				default: '',
				description:
					'A value of the picklist. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				displayOptions: {
					show: { field: [{ _cnd: { endsWith: PICKLIST_MARK } }] },
					hide: { comparator: ['in', 'not_in'] },
				},
			},
			{
				displayName: 'Value Names or IDs',
				name: 'picklistValues',
				type: 'multiOptions',
				typeOptions: {
					loadOptionsMethod: 'getCriteriaValues',
					loadOptionsDependsOn: ['module', '&field'],
				},
				default: [],
				description:
					'Values of the picklist (at most 50). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				displayOptions: {
					show: { field: [{ _cnd: { endsWith: PICKLIST_MARK } }], comparator: ['in', 'not_in'] },
				},
			},
		],
	),
	{
		displayName: 'Criteria (JSON)',
		name: 'criteriaJson',
		type: 'json',
		default:
			'{\n  "group_operator": "and",\n  "group": [\n    { "api_name": "Lead_Source", "comparator": "equal", "value": "Web" }\n  ]\n}',
		displayOptions: { show: { filterType: ['json'] } },
		description:
			'JSON criteria: a leaf {api_name, comparator, value} or a group {group_operator, group: [...]}',
	},
	waitForCompletionField,
	...resultOutputFields(waiting),
	{
		displayName: 'Read All Pages',
		name: 'allPages',
		type: 'boolean',
		default: false,
		displayOptions: { show: waiting },
		description:
			'Whether to create follow-up jobs (page + 1) while the result says more records exist (200,000 records per page)',
	},
	{ ...waitOptionsField, displayOptions: { show: waiting } },
	jobOptionsField('https://example.com/webhook/bulk-read', [
		{
			displayName: 'Custom View ID',
			name: 'cvid',
			type: 'string',
			default: '',
			description: 'Only records of this custom view',
		},
		optionsField('File Type', 'fileType', { CSV: 'csv', 'ICS (Events Only)': 'ics' }, 'csv'),
		{
			displayName: 'Page',
			name: 'page',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1,
			description: 'Page of 200,000 records to export; page 2 starts at record 200,001',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['bulkRead'], operation: ['create'] } },
	properties,
);

interface Condition {
	field?: string;
	comparator?: string;
	value?: unknown;
	/** the dropdown(s) shown instead of Value for a picklist field */
	picklistValue?: unknown;
	picklistValues?: unknown;
	valueTo?: unknown;
}

/** A criteria value typed from the field's metadata (numbers, booleans, §4 dates, lookups by id). */
function criterionValue(
	this: IExecuteFunctions,
	meta: FieldMeta | undefined,
	raw: unknown,
	field: string,
	itemIndex: number,
): unknown {
	if (raw === null || raw === undefined || typeof raw !== 'string' || !meta) return raw;
	const text = raw.trim();
	const bad = (expected: string) =>
		new NodeOperationError(
			this.getNode(),
			`Condition on "${field}" expects ${expected}, got "${text}"`,
			{ itemIndex },
		);
	switch (meta.data_type) {
		case 'integer':
		case 'bigint':
		case 'double':
		case 'currency':
		case 'percent': {
			if (meta.api_name === 'id') return text;
			const n = Number(text);
			if (text === '' || !Number.isFinite(n)) throw bad('a number');
			return n;
		}
		case 'boolean':
			if (!/^(true|false)$/i.test(text)) throw bad('true or false');
			return text.toLowerCase() === 'true';
		case 'date': {
			const date = toCrmDate(text);
			if (!date) throw bad('a date (yyyy-MM-dd)');
			return date;
		}
		case 'datetime': {
			const dateTime = toCrmDateTime(text);
			if (!dateTime) throw bad('a date and time (ISO 8601)');
			return dateTime;
		}
		default:
			return text;
	}
}

/** The JSON criteria of the item (§3.12), checked against the limits of §6 before sending. */
async function criteriaOf(
	this: IExecuteFunctions,
	itemIndex: number,
	module: string,
	cache: Map<string, Map<string, FieldMeta>>,
): Promise<IDataObject | undefined> {
	const filterType = getParameter(this, 'filterType', itemIndex, 'none') as string;
	if (filterType === 'json') {
		const raw = getParameter(this, 'criteriaJson', itemIndex, '') as string | IDataObject;
		let criteria: unknown = raw;
		if (typeof raw === 'string') {
			if (!raw.trim()) return undefined;
			try {
				criteria = JSON.parse(raw);
			} catch {
				throw new NodeOperationError(this.getNode(), 'Criteria (JSON) is not valid JSON', {
					itemIndex,
				});
			}
		}
		if (!criteria || typeof criteria !== 'object' || Array.isArray(criteria)) {
			throw new NodeOperationError(
				this.getNode(),
				'Criteria (JSON) must be an object: a leaf or a group',
				{ itemIndex },
			);
		}
		const leaves = JSON.stringify(criteria).match(/"comparator"/g)?.length ?? 0;
		if (leaves > LIMITS.criteriaConditions) {
			throw new NodeOperationError(
				this.getNode(),
				`Criteria (JSON) has ${leaves} conditions; bulk read allows at most 25`,
				{ itemIndex },
			);
		}
		return criteria as IDataObject;
	}
	if (filterType !== 'conditions') return undefined;
	const conditions =
		(getParameter(this, 'conditions.condition', itemIndex, []) as Condition[]) ?? [];
	if (conditions.length === 0) return undefined;
	if (conditions.length > LIMITS.criteriaConditions) {
		throw new NodeOperationError(
			this.getNode(),
			`Conditions has ${conditions.length} entries; bulk read allows at most 25`,
			{ itemIndex },
		);
	}
	const meta = await loadFieldMeta.call(this, cache, module);
	const leaves = conditions.map((c, i) => {
		const picklist = String(c.field ?? '').endsWith(PICKLIST_MARK);
		const field = criteriaFieldName(c.field);
		if (!field)
			throw new NodeOperationError(this.getNode(), `Condition ${i + 1} has no field`, {
				itemIndex,
			});
		const comparator = c.comparator ?? 'equal';
		const fieldMeta = meta.get(field);
		const typed = (v: unknown) => criterionValue.call(this, fieldMeta, v, field, itemIndex);
		let value: unknown;
		if (comparator === 'in' || comparator === 'not_in') {
			const given = picklist ? c.picklistValues : c.value;
			const list = listOf(given);
			if (list.length === 0)
				throw new NodeOperationError(
					this.getNode(),
					`Condition ${i + 1} (${field} ${comparator}) needs at least one value`,
					{ itemIndex },
				);
			if (list.length > LIMITS.criteriaValues) {
				throw new NodeOperationError(
					this.getNode(),
					`Condition ${i + 1} (${field} ${comparator}) has ${list.length} values; at most 50 are allowed`,
					{
						itemIndex,
					},
				);
			}
			value = list.map(typed);
		} else if (comparator === 'between' || comparator === 'not_between') {
			if (String(c.value ?? '') === '' || String(c.valueTo ?? '') === '') {
				throw new NodeOperationError(
					this.getNode(),
					`Condition ${i + 1} (${field} ${comparator}) needs Value and Value (Upper Bound)`,
					{ itemIndex },
				);
			}
			value = [typed(c.value), typed(c.valueTo)];
		} else {
			value = typed(picklist ? c.picklistValue : c.value);
		}
		return { api_name: field, comparator, value } as IDataObject;
	});
	if (leaves.length === 1) return leaves[0];
	return {
		group_operator: getParameter(this, 'matchType', itemIndex, 'and') as string,
		group: leaves,
	};
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const variant = await variantOf.call(this);
	const fieldCache = new Map<string, Map<string, FieldMeta>>();
	return await forEachJobItem.call(this, 'bulk read', async (itemIndex, track) => {
		const module = pickedValue(this, 'module', itemIndex);
		const fields = (getParameter(this, 'fields', itemIndex, []) as string[]).filter(Boolean);
		const options = getParameter(this, 'options', itemIndex, {}) as {
			callbackUrl?: string;
			cvid?: string;
			fileType?: 'csv' | 'ics';
			page?: number;
		};
		const wait = getParameter(this, 'waitForCompletion', itemIndex, true) as boolean;
		const output = wait ? (getParameter(this, 'output', itemIndex, 'binary') as string) : 'none';
		const fileType = options.fileType ?? 'csv';
		const firstPage = options.page ?? 1;
		if (!Number.isInteger(firstPage) || firstPage < 1) {
			throw new NodeOperationError(
				this.getNode(),
				`Page must be a whole number of at least 1, got ${firstPage}`,
				{ itemIndex },
			);
		}
		if (fileType === 'ics' && output === 'records') {
			throw new NodeOperationError(this.getNode(), 'Parsed Records output needs File Type CSV', {
				itemIndex,
				description: 'ICS results are calendar files; choose the "Zip File" output for them.',
			});
		}
		const callback = callbackOf.call(this, options.callbackUrl, itemIndex);
		const criteria = await criteriaOf.call(this, itemIndex, module, fieldCache);
		// a job waits for a slot (open jobs, downloads a minute: §7) as long as it may take to finish
		const poll = pollOptions.call(this, itemIndex);

		const createJob = async (page: number): Promise<IDataObject> => {
			const query: IDataObject = { module: moduleRef(variant, module) };
			if (fields.length) query.fields = fields;
			if (criteria) query.criteria = criteria;
			if (options.cvid?.trim()) query.cvid = options.cvid.trim();
			query.page = page;
			const body: IDataObject = { query, file_type: fileType };
			if (callback) body.callback = callback;
			const response = await crmRequest(this, {
				method: 'POST',
				path: '/read',
				root: 'bulk',
				body,
				itemIndex,
				slotWaitMs: poll.timeoutMs,
			});
			const created = ((response.data as IDataObject[] | undefined) ?? [])[0] ?? response;
			track(created);
			return created;
		};

		const created = await createJob(firstPage);
		if (!wait) return [{ json: writeResult(created) }];

		const out: INodeExecutionData[] = [];
		const allPages = getParameter(this, 'allPages', itemIndex, false) as boolean;
		let page = firstPage;
		let jobId = String((created.details as IDataObject | undefined)?.id ?? '');
		for (;;) {
			const job = await pollUntil.call(
				this,
				async () => {
					const response = await crmRequest(this, {
						method: 'GET',
						path: `/read/${encodeURIComponent(jobId)}`,
						root: 'bulk',
						itemIndex,
					});
					return ((response.data as IDataObject[] | undefined) ?? [])[0] ?? {};
				},
				(j) => j.state === 'COMPLETED' || j.state === 'FAILURE',
				poll,
				{ itemIndex, what: `Bulk read job ${jobId}` },
			);
			track(job);
			if (job.state !== 'COMPLETED') {
				throw new NodeOperationError(
					this.getNode(),
					`Bulk read job ${jobId} ended in state ${String(job.state)}`,
					{
						itemIndex,
						description:
							'The CRM could not extract the records. Check the criteria and fields, then create the job again.',
					},
				);
			}
			const result = (job.result ?? {}) as IDataObject;
			const file = {
				...(await downloadFile.call(
					this,
					String(result.download_url),
					itemIndex,
					`${jobId}.zip`,
					poll.timeoutMs,
				)),
				fileName: exportFileName(job),
			};
			if (output === 'records') {
				// typed like Get Many's records (shared.ts typedReadRows)
				const rows = await typedReadRows.call(
					this,
					readResultRows(this.getNode(), file.data, itemIndex),
					jobModule(job),
				);
				for (const row of rows) out.push({ json: row });
			} else {
				const property = getParameter(this, 'binaryPropertyName', itemIndex, 'data') as string;
				out.push(await binaryItem(this.helpers, job, property, file));
			}
			if (!allPages || result.more_records !== true) break;
			page++;
			const next = await createJob(page);
			jobId = String((next.details as IDataObject | undefined)?.id ?? '');
		}
		return out;
	});
}
