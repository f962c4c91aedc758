import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
	NodeApiError,
	NodeHint,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { responseFile } from '../../shared/formats/download';
import { countCsvRecords, csvToObjects } from '../../shared/formats/csv';
import { toCrmDate } from '../../shared/formats/dates';
import { multipartBody } from '../../shared/formats/multipart';
import { optionsCollection } from '../../shared/description/optionsCollection';
import { loadFieldMeta } from '../../shared/records/fields';
import {
	asNodeError,
	baseUrlExpression,
	crmRequest,
	errorJson,
	indexRanges,
} from '../../shared/transport';
import { createZip, isZip, readZip } from '../../shared/formats/zip';
import { getParameter } from '../../shared/parameters';

// ---- limits of docs/protocol.md §6 (checked before anything is sent) ------------------------------

export const LIMITS = {
	/** UploadFiles: files per call and bytes per file */
	filesPerUpload: 10,
	fileBytes: 20 * 1024 * 1024,
	/** bulk-write upload: zip size, CSV records, mapped fields */
	writeZipBytes: 25 * 1024 * 1024,
	writeRows: 25_000,
	writeMappings: 200,
	/** bulk-read criteria: conditions and values per `in` */
	criteriaConditions: 25,
	criteriaValues: 50,
};

/** Base URL of the bulk routes (§1.2) for declarative operations: `{api_domain}/crm/bulk/{v}`. */
export const BULK_BASE_URL = baseUrlExpression('bulk');

/** The credential's API variant (the transport's one rule, under the name the bulk operations use). */
export { credentialVariant as variantOf } from '../../shared/transport';

/** `query.module` / `resource[].module` in the variant's form (§13): String in v2, `{api_name}` in v2.1. */
export function moduleRef(variant: 'v2' | 'v2.1', module: string): string | IDataObject {
	return variant === 'v2' ? module : { api_name: module };
}

export function megabytes(bytes: number): string {
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

// ---- one job per input item ---------------------------------------------------------------------

/**
 * What the job operations show first: n8n runs them once per input item, each item its own job.
 * A notice is static text in n8n's editor (its expressions are not resolved), so it cannot count the
 * input items; it says where to see them.
 */
export const jobPerItemNotice: INodeProperties = {
	displayName:
		"One job per input item: this node runs once for every item it receives, and each item starts its own job. The editor cannot count the items here: the input pane shows how many the previous node gave in its last run (a hint says so when there are several). Jobs start within the CRM's limits (open jobs, result downloads per minute): when they are reached, the node waits for a free slot. For a single job (one export) after a node that outputs many items, turn on <b>Execute Once</b> in the node's Settings.",
	name: 'jobPerItemNotice',
	type: 'notice',
	default: '',
};

/**
 * The count the notice cannot give: a hint n8n shows in the node's panes when the input it last
 * received (the previous node's output) holds more than one item, the case where a job operation
 * starts several jobs. n8n resolves a hint's condition, not its message.
 */
export const jobPerItemHint: NodeHint = {
	message:
		"The input holds more than one item (the input pane shows how many): this node will start one job for each. For a single job, turn on <b>Execute Once</b> in the node's Settings.",
	type: 'info',
	location: 'ndv',
	whenToDisplay: 'beforeExecution',
	displayCondition:
		'={{ $parameter.operation === "create" && ["bulkRead", "bulkWrite"].includes($parameter.resource) && $input.all().length > 1 }}',
};

/** What an item's output or error says of a job it started: its ID, last known state and result. */
function jobSummary(job: IDataObject): IDataObject {
	const details = (job.details ?? {}) as IDataObject;
	const summary: IDataObject = { id: String(job.id ?? details.id ?? '') };
	// a create answer's `status` is the envelope's ('success'), its job state is in `details`
	const state = job.state ?? details.state ?? (job.status === 'success' ? undefined : job.status);
	if (state !== undefined) summary.state = state;
	if (job.result !== undefined) summary.result = job.result;
	return summary;
}

/** "job 123 (COMPLETED, 6 records)" */
function jobText(job: IDataObject): string {
	const result = (job.result ?? {}) as IDataObject;
	const facts = [job.state, result.count !== undefined ? `${result.count} records` : undefined]
		.filter((fact) => fact !== undefined)
		.map(String);
	return `job ${String(job.id)}${facts.length ? ` (${facts.join(', ')})` : ''}`;
}

/**
 * The error a job operation stops with (Continue On Fail off) after every item ran: the first
 * failed item's error, its message naming the failed items, its description and `context.jobs`
 * every job the items started (ID, state, result), so that no job paid for is lost.
 */
function jobFailure(
	kind: string,
	failures: Array<NodeApiError | NodeOperationError>,
	jobs: IDataObject[][],
): NodeApiError | NodeOperationError {
	const first = failures[0];
	const failed = failures.map((error) => Number(error.context.itemIndex));
	const started = jobs.flatMap((list, item) => list.map((job) => ({ item, ...job })));
	if (jobs.length > 1) {
		first.message = `${failed.length} of ${jobs.length} items failed (${failed.length === 1 ? 'item' : 'items'} ${indexRanges(failed)}); first, item ${failed[0]}: ${first.message}`;
	}
	if (started.length) {
		const list = started.map((job) => `item ${job.item}: ${jobText(job)}`).join('; ');
		first.description = [
			first.description,
			`The ${kind} jobs the items started, kept by the CRM (fetch a result with Download Result and its job ID): ${list}.`,
			'Turn on "Continue On Fail" (Settings → On Error) to get every item\'s result or error as output.',
		]
			.filter(Boolean)
			.join(' ');
		first.context.jobs = started;
	}
	return first;
}

/**
 * runPerItem for the operations that start a job per item. `work` reports every job it starts, and
 * its later states, through `track`. An item that fails (its job cannot be started or finished)
 * fails alone and the other items run: with Continue On Fail it is an error item naming its jobs;
 * otherwise the node fails after the last item with an error naming every job started (jobFailure).
 */
export async function forEachJobItem(
	this: IExecuteFunctions,
	kind: 'bulk read' | 'bulk write',
	work: (itemIndex: number, track: (job: IDataObject) => void) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[][]> {
	const continueOnFail = this.continueOnFail();
	const out: INodeExecutionData[] = [];
	const jobs: IDataObject[][] = [];
	const failures: Array<NodeApiError | NodeOperationError> = [];
	for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
		const started = new Map<string, IDataObject>();
		const track = (job: IDataObject) => {
			const summary = jobSummary(job);
			if (summary.id)
				started.set(String(summary.id), { ...started.get(String(summary.id)), ...summary });
		};
		try {
			for (const item of await work(itemIndex, track))
				out.push({ ...item, pairedItem: { item: itemIndex } });
		} catch (error) {
			const nodeError = asNodeError(this, error, itemIndex);
			failures.push(nodeError);
			if (continueOnFail)
				out.push({
					json: { ...errorJson(nodeError), jobs: [...started.values()] },
					pairedItem: { item: itemIndex },
				});
		}
		jobs.push([...started.values()]);
	}
	if (failures.length && !continueOnFail) throw jobFailure(kind, failures, jobs);
	return [out];
}

// ---- polling (§8) -----------------------------------------------------------------------------

export interface PollOptions {
	/** first wait, ms; doubled (×1.5) after every poll up to `maxMs` */
	initialMs: number;
	maxMs: number;
	/** give up after, ms */
	timeoutMs: number;
}

export const waitOptionsField: INodeProperties = {
	displayName: 'Polling',
	name: 'polling',
	type: 'collection',
	placeholder: 'Add Polling Option',
	default: {},
	options: [
		{
			displayName: 'First Poll After (Seconds)',
			name: 'initialInterval',
			type: 'number',
			typeOptions: { minValue: 0.01, numberPrecision: 2 },
			default: 2,
			description:
				'Seconds to wait before the first status check; later checks back off (×1.5) up to the maximum interval',
		},
		{
			displayName: 'Max Poll Interval (Seconds)',
			name: 'maxInterval',
			type: 'number',
			typeOptions: { minValue: 0.01, numberPrecision: 2 },
			default: 30,
			description: 'Longest wait between two status checks',
		},
		{
			displayName: 'Timeout (Minutes)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 0.01, numberPrecision: 2 },
			default: 60,
			description: 'Fail the item when the job has not finished after this long',
		},
	],
};

/** The Job ID of a bulk read or write job (Get Job, Download Result), as Create Job answered it. */
export function bulkJobIdField(kind: 'read' | 'write', placeholder: string): INodeProperties {
	return {
		displayName: 'Job ID',
		name: 'jobId',
		type: 'string',
		default: '',
		required: true,
		placeholder,
		description: `ID of the bulk ${kind} job, as answered by Create Job`,
	};
}

export const waitForCompletionField: INodeProperties = {
	displayName: 'Wait for Completion',
	name: 'waitForCompletion',
	type: 'boolean',
	default: true,
	description: 'Whether to poll the job until it completes and then download the result file',
};

export function pollOptions(this: IExecuteFunctions, itemIndex: number): PollOptions {
	const o = getParameter(this, 'polling', itemIndex, {}) as {
		initialInterval?: number;
		maxInterval?: number;
		timeout?: number;
	};
	const initialMs = Math.max(10, Math.round((o.initialInterval ?? 2) * 1000));
	return {
		initialMs,
		maxMs: Math.max(initialMs, Math.round((o.maxInterval ?? 30) * 1000)),
		timeoutMs: Math.max(10, Math.round((o.timeout ?? 60) * 60_000)),
	};
}

/**
 * Polls `check` with back-off (sleep from n8n-workflow) until `done(job)`; throws a
 * NodeOperationError naming the job when the timeout passes first.
 */
export async function pollUntil(
	this: IExecuteFunctions,
	check: () => Promise<IDataObject>,
	done: (job: IDataObject) => boolean,
	options: PollOptions,
	context: { itemIndex: number; what: string },
): Promise<IDataObject> {
	const started = Date.now();
	let wait = options.initialMs;
	for (;;) {
		await sleep(wait);
		const job = await check();
		if (done(job)) return job;
		if (Date.now() - started >= options.timeoutMs) {
			throw new NodeOperationError(
				this.getNode(),
				`${context.what} has not finished after ${Math.round(options.timeoutMs / 1000)} s`,
				{
					itemIndex: context.itemIndex,
					description: `Its last state was ${String(job.state ?? job.status)}. Raise "Polling → Timeout", or turn off "Wait for Completion" and fetch the result later with its job ID.`,
				},
			);
		}
		wait = Math.min(options.maxMs, Math.round(wait * 1.5));
	}
}

// ---- job options (docs/protocol.md §5.11; callbacks §10) ---------------------------------------

/** The "Options" collection of a job: Callback URL first, then the job's own options. */
export function jobOptionsField(
	callbackPlaceholder: string,
	options: INodeProperties[],
): INodeProperties {
	return optionsCollection([
		{
			displayName: 'Callback URL',
			name: 'callbackUrl',
			type: 'string',
			default: '',
			placeholder: callbackPlaceholder,
			description: 'The CRM POSTs the job details to this URL when the job ends',
		},
		...options,
	]);
}

/** The job's `callback` from the Callback URL option (absolute http(s)), or undefined when none is given. */
export function callbackOf(
	this: IExecuteFunctions,
	url: string | undefined,
	itemIndex: number,
): IDataObject | undefined {
	const callbackUrl = url?.trim();
	if (!callbackUrl) return undefined;
	if (!/^https?:\/\/\S+$/i.test(callbackUrl)) {
		throw new NodeOperationError(
			this.getNode(),
			`Callback URL must be an absolute http(s) URL, got "${callbackUrl}"`,
			{ itemIndex },
		);
	}
	return { url: callbackUrl, method: 'post' };
}

// ---- result files ----------------------------------------------------------------------------

export const resultOutputFields = (
	show: NonNullable<INodeProperties['displayOptions']>['show'] & object,
	binaryName = 'binaryPropertyName',
): INodeProperties[] => [
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{
				name: 'Zip File',
				value: 'binary',
				description: 'One item with the result zip as binary data',
			},
			{
				name: 'Parsed Records',
				value: 'records',
				description: 'One item per CSV row of the result file',
			},
		],
		default: 'binary',
		displayOptions: { show },
	},
	{
		displayName: 'Put Output File in Field',
		name: binaryName,
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the zip in',
		displayOptions: { show: { ...show, output: ['binary'] } },
	},
];

/**
 * Downloads a result file (relative to the API origin, or absolute) with the usual auth and retries;
 * with `slotWaitMs`, waits that long at most for a download slot (bulk read: 10 a minute, §6).
 */
export async function downloadFile(
	this: IExecuteFunctions,
	url: string,
	itemIndex: number,
	fallbackName: string,
	slotWaitMs?: number,
): Promise<{ data: Buffer; fileName: string; mimeType: string }> {
	const response = await crmRequest(this, {
		method: 'GET',
		path: url,
		root: 'origin',
		binary: true,
		full: true,
		headers: { Accept: 'application/octet-stream' },
		itemIndex,
		slotWaitMs,
	});
	return responseFile(response, fallbackName, 'application/zip');
}

/**
 * The CSV rows of a result zip (its first CSV entry) as objects keyed by the header, as `keyOf`
 * maps it. The unzipped bytes are not held while the rows are built: results hold 100,000s of rows.
 */
export function zipRecords(
	node: INode,
	zip: Buffer,
	itemIndex: number,
	keyOf?: (column: string) => string,
): IDataObject[] {
	return csvToObjects(zipCsvText(node, zip, itemIndex), keyOf);
}

/** The text of the first CSV entry of a result zip. */
function zipCsvText(node: INode, zip: Buffer, itemIndex: number): string {
	let files: ReturnType<typeof readZip>;
	try {
		files = readZip(zip);
	} catch (error) {
		throw new NodeOperationError(
			node,
			`The result file is not a readable zip: ${(error as Error).message}`,
			{ itemIndex },
		);
	}
	const csv = files.find((f) => f.name.toLowerCase().endsWith('.csv'));
	if (!csv) {
		throw new NodeOperationError(node, 'The result zip holds no CSV file', {
			itemIndex,
			description: `Files in the zip: ${files.map((f) => f.name).join(', ') || 'none'}. Use the "Zip File" output for ICS results.`,
		});
	}
	return csv.data.toString('utf8');
}

/** Number types of GetFields whose CSV text becomes a number, as GetRecords answers them in JSON. */
const NUMBER_TYPES = new Set(['integer', 'double', 'currency', 'percent', 'decimal', 'long']);
const LOOKUP_TYPES = new Set(['lookup', 'ownerlookup', 'userlookup']);

/** One CSV cell of a bulk-read result as GetRecords types it (docs/protocol.md §10.3: lookups as IDs, multi-selects joined by `;`). */
function typedCell(dataType: string | undefined, text: string): IDataObject[string] {
	if (text === '') return null;
	if (dataType === undefined) return text;
	if (NUMBER_TYPES.has(dataType)) {
		const n = Number(text);
		return Number.isFinite(n) ? n : text;
	}
	if (dataType === 'boolean')
		return /^true$/i.test(text) ? true : /^false$/i.test(text) ? false : text;
	if (dataType === 'multiselectpicklist') return text.split(';').filter(Boolean);
	if (LOOKUP_TYPES.has(dataType)) return { id: text };
	// dates, datetimes and texts: the CSV carries the JSON forms already (§4)
	return text;
}

/** The rows of a bulk-read result zip, untyped, the CSV's `Id` column as `id`; typedReadRows types them. */
export function readResultRows(node: INode, zip: Buffer, itemIndex: number): IDataObject[] {
	return zipRecords(node, zip, itemIndex, (column) => (column === 'Id' ? 'id' : column));
}

/**
 * The rows of a bulk-read result (readResultRows) typed like Get Many's records: numbers, booleans,
 * multi-select lists and lookups per the module's field metadata (GetFields), empty cells as null.
 * Typed in place, so 100,000s of rows are built once.
 */
export async function typedReadRows(
	this: IExecuteFunctions | IExecuteSingleFunctions,
	rows: IDataObject[],
	module: string,
): Promise<IDataObject[]> {
	if (rows.length === 0) return rows;
	const meta = await loadFieldMeta.call(this, new Map(), module);
	const columns = Object.keys(rows[0])
		.filter((column) => column !== 'id')
		.map((column) => ({ column, dataType: meta.get(column)?.data_type }));
	for (const row of rows)
		for (const { column, dataType } of columns)
			row[column] = typedCell(dataType, String(row[column] ?? ''));
	return rows;
}

/** The module API name of a bulk-read job (`query.module`: v2 a name, v2.1 `{api_name, id}`, §13). */
export function jobModule(job: IDataObject): string {
	const module = (job.query as IDataObject | undefined)?.module;
	return String(
		module && typeof module === 'object' ? (module as IDataObject).api_name : (module ?? ''),
	);
}

/**
 * The name of a bulk-read result zip: its module and the job's date, `Deals-2026-11-26.zip`
 * (`Deals-2026-11-26-page-2.zip` for a later page), rather than the job ID the CRM names it by.
 */
export function exportFileName(job: IDataObject, extension = 'zip'): string {
	const date = toCrmDate(job.created_time) ?? toCrmDate(new Date());
	const page = Number(
		(job.result as IDataObject | undefined)?.page ??
			(job.query as IDataObject | undefined)?.page ??
			1,
	);
	return `${jobModule(job) || 'export'}-${date}${page > 1 ? `-page-${page}` : ''}.${extension}`;
}

/** A binary item: the job (or file) JSON plus the downloaded bytes. */
export async function binaryItem(
	helpers: IExecuteFunctions['helpers'] | IExecuteSingleFunctions['helpers'],
	json: IDataObject,
	property: string,
	file: { data: Buffer; fileName: string; mimeType: string },
): Promise<INodeExecutionData> {
	const binary: IBinaryData = await helpers.prepareBinaryData(
		file.data,
		file.fileName,
		file.mimeType,
	);
	return { json, binary: { [property]: binary } };
}

/** postReceive output of a download: one binary item in `binaryPropertyName`, its JSON `ref` plus the file's name, type and size. */
export async function downloadedFileItems(
	this: IExecuteSingleFunctions,
	ref: IDataObject,
	file: { data: Buffer; fileName: string; mimeType: string },
): Promise<INodeExecutionData[]> {
	const property = getParameter(this, 'binaryPropertyName', this.getItemIndex(), 'data') as string;
	const json: IDataObject = {
		...ref,
		fileName: file.fileName,
		mimeType: file.mimeType,
		fileSize: file.data.length,
	};
	return [await binaryItem(this.helpers, json, property, file)];
}

// ---- bulk-write upload (§1.2, §5.11) -----------------------------------------------------------

/**
 * The zip to upload from an input binary: a zip is checked (one CSV inside, ≤ 25,000 rows,
 * ≤ 25 MB); a CSV is counted and packed into a zip of one stored entry. Errors name the limit.
 */
export async function bulkWriteZip(
	this: IExecuteFunctions,
	itemIndex: number,
	property: string,
	format: 'auto' | 'csv' | 'zip',
): Promise<{ zip: Buffer; fileName: string; rows: number }> {
	const meta = this.helpers.assertBinaryData(itemIndex, property);
	const data = await this.helpers.getBinaryDataBuffer(itemIndex, property);
	const name = meta.fileName || 'data.csv';
	const zipInput = format === 'zip' || (format === 'auto' && isZip(data));
	const fail = (message: string, description: string) =>
		new NodeOperationError(this.getNode(), message, { itemIndex, description });
	let zip: Buffer;
	let csvText: string;
	let fileName: string;
	if (zipInput) {
		if (data.length > LIMITS.writeZipBytes) {
			throw fail(
				`The zip "${name}" is ${megabytes(data.length)}; bulk write accepts at most 25 MB`,
				'Split the CSV into several files.',
			);
		}
		let files: ReturnType<typeof readZip>;
		try {
			files = readZip(data);
		} catch (error) {
			throw fail(
				`The binary "${property}" is not a readable zip: ${(error as Error).message}`,
				'Set "File Format" to CSV to upload a CSV file.',
			);
		}
		const csvs = files.filter((f) => f.name.toLowerCase().endsWith('.csv'));
		if (files.length !== 1 || csvs.length !== 1) {
			throw fail(
				`The zip "${name}" must hold exactly one CSV file; it holds ${files.length} file(s)`,
				`Files: ${files.map((f) => f.name).join(', ') || 'none'}.`,
			);
		}
		zip = data;
		csvText = csvs[0].data.toString('utf8');
		fileName = name;
	} else {
		csvText = data.toString('utf8');
		const csvName = /\.csv$/i.test(name) ? name : `${name.replace(/\.[^.]*$/, '') || 'data'}.csv`;
		zip = createZip([{ name: csvName, data }]);
		fileName = `${csvName.replace(/\.csv$/i, '')}.zip`;
		if (zip.length > LIMITS.writeZipBytes) {
			throw fail(
				`The CSV "${name}" packs into a ${megabytes(zip.length)} zip; bulk write accepts at most 25 MB`,
				'Split the CSV into several files.',
			);
		}
	}
	const rows = countCsvRecords(csvText);
	if (rows > LIMITS.writeRows) {
		throw fail(
			`The CSV has ${rows.toLocaleString('en-US')} records; bulk write accepts at most 25,000 per file`,
			'Split the CSV into several files of at most 25,000 records.',
		);
	}
	return { zip, fileName, rows };
}

/** GetOrganization once per execution (the caller keeps the value): the org's `xgid` for X-CRM-ORG. */
export async function orgXgid(this: IExecuteFunctions, itemIndex: number): Promise<string> {
	const body = await crmRequest(this, { method: 'GET', path: '/org', itemIndex });
	const org = (Array.isArray(body.org) ? body.org[0] : undefined) as IDataObject | undefined;
	const xgid = org?.xgid;
	if (typeof xgid !== 'string' && typeof xgid !== 'number') {
		throw new NodeOperationError(
			this.getNode(),
			'GetOrganization answered no xgid; it is needed for the bulk-write upload header X-CRM-ORG',
			{
				itemIndex,
			},
		);
	}
	return String(xgid);
}

/** UploadFile: POST {upload_domain}/crm/{v}/upload with `feature: bulk-write` and `X-CRM-ORG`. */
export async function uploadBulkWriteZip(
	this: IExecuteFunctions,
	zip: Buffer,
	fileName: string,
	xgid: string,
	itemIndex: number,
): Promise<IDataObject> {
	const body = await crmRequest(this, {
		method: 'POST',
		root: 'upload',
		path: '/upload',
		body: multipartBody([{ data: zip, fileName, mimeType: 'application/zip' }]),
		headers: { feature: 'bulk-write', 'X-CRM-ORG': xgid },
		itemIndex,
	});
	return body;
}
