// Parameters and helpers shared by the record write operations (create, update, upsert) and by
// the operations that address one record by ID or external ID.
import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { pickedValue, recordFieldsUi, recordIdField } from '../../../shared/description/properties';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { getParameter } from '../../../shared/parameters';
import { loadFieldMeta, picklistRefusal, recordBody } from '../../../shared/records/fields';
import type { FieldMeta } from '../../../shared/records/fields';
import { thenOrNow, BATCH_SIZE, crmApiError, crmRequest } from '../../../shared/transport';
import type { BatchEntry, CrmErrorBody, CrmListRequest } from '../../../shared/transport';
import { checkDigits, checkTextLength, isDigits, listOf } from '../../../shared/records/validation';

/** A record ID parameter checked for its format (digits, §3.1) before anything is sent. */
export function recordIdOf(
	this: IExecuteFunctions | IExecuteSingleFunctions,
	parameter: string,
	itemIndex: number,
	label = 'Record ID',
): string {
	const id = pickedValue(this, parameter, itemIndex);
	checkDigits(this.getNode(), id, label, {
		itemIndex,
		description: `Set "${label}" to the numeric ID of the record (e.g. 4876876000000611001).`,
	});
	return id;
}

export { listOf };

/** IDs of a list parameter: digits only and at most `max` (errors name the parameter and the limit). */
export function idListOf(
	this: IExecuteFunctions | IExecuteSingleFunctions,
	value: unknown,
	itemIndex: number,
	label: string,
	max?: number,
): string[] {
	const ids = listOf(value);
	if (ids.length === 0) {
		throw new NodeOperationError(this.getNode(), `${label} is empty`, {
			itemIndex,
			description: `Give at least one ID in "${label}".`,
		});
	}
	const bad = ids.find((id) => !isDigits(id));
	if (bad) {
		throw new NodeOperationError(this.getNode(), `${label} must hold numeric IDs, got "${bad}"`, {
			itemIndex,
			description: `Separate the IDs in "${label}" with commas.`,
		});
	}
	if (max !== undefined && ids.length > max) {
		throw new NodeOperationError(
			this.getNode(),
			`${label} holds ${ids.length} IDs; at most ${max} are allowed`,
			{
				itemIndex,
				description: `The CRM takes 1 to ${max} IDs in "${label}" per request.`,
			},
		);
	}
	return ids;
}

// ---- how a write defines its fields ----------------------------------------------------------------

function fieldsModeProperty(): INodeProperties {
	return {
		displayName: 'Define Fields',
		name: 'fieldsMode',
		type: 'options',
		noDataExpression: true,
		// the one mode selector: the mapper's own "Mapping Column Mode" is hidden (supportAutoMap: false);
		// saved mappers in its auto mode (columns.mappingMode) still map automatically
		options: [
			{
				name: 'Map Each Field Below',
				value: 'mapper',
				description: 'Typed fields of the module, loaded from its metadata',
			},
			{
				name: 'Map Input Fields Automatically',
				value: 'auto',
				description:
					'Input fields named like fields of the module (API names, e.g. Last_Name) are sent; others are ignored',
			},
			{
				name: 'Field/Value Pairs',
				value: 'pairs',
				description: 'Pick fields by name; values are converted to the field type',
			},
			{ name: 'JSON', value: 'json', description: 'The record as a JSON object, sent as given' },
		],
		default: 'mapper',
	};
}

function columnsProperty(mode: 'add' | 'update' | 'upsert'): INodeProperties {
	return {
		displayName: 'Fields',
		name: 'columns',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		typeOptions: {
			loadOptionsDependsOn: ['module'],
			resourceMapper: {
				resourceMapperMethod: 'getRecordMappingFields',
				mode,
				fieldWords: { singular: 'field', plural: 'fields' },
				addAllFields: false,
				multiKeyMatch: mode === 'upsert',
				supportAutoMap: false,
				// nothing in red before a module is chosen; a module without fields gets the method's notice
				hideNoDataError: true,
				noFieldsError: 'No writable fields found in this module',
				...(mode === 'update'
					? {
							matchingFieldsLabels: {
								title: 'Record To Update',
								description: 'Record ID, or an external-ID field of the module',
								hint: 'Map the Record ID (or the external-ID field) below, then the fields to change',
							},
						}
					: {}),
				...(mode === 'upsert'
					? {
							matchingFieldsLabels: {
								title: 'Duplicate Check Fields',
								description:
									'Fields whose value finds the record to update (duplicate_check_fields); none = the module defaults',
								hint: '',
							},
						}
					: {}),
			},
		},
		displayOptions: { show: { fieldsMode: ['mapper'] }, hide: { module: [''] } },
	};
}

export function fieldsProperties(mode: 'add' | 'update' | 'upsert'): INodeProperties[] {
	return [
		fieldsModeProperty(),
		columnsProperty(mode),
		{ ...recordFieldsUi, displayOptions: { show: { fieldsMode: ['pairs'] } } },
		{
			displayName: 'Record JSON',
			name: 'recordJson',
			type: 'json',
			default: '{\n  "Last_Name": ""\n}',
			description: 'The record as a JSON object of field API names and values (sent as given)',
			displayOptions: { show: { fieldsMode: ['json'] } },
		},
	];
}

// ---- write options (trigger, process, lar_id, X-EXTERNAL) -------------------------------------------

const TRIGGER_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Approval', value: 'approval' },
	{ name: 'Blueprint', value: 'blueprint' },
	{ name: 'Workflow', value: 'workflow' },
];

export function writeOptionsProperty(extra: INodeProperties[] = []): INodeProperties {
	return optionsCollection([
		...extra,
		{
			displayName: 'Lead Assignment Rule ID',
			name: 'lar_id',
			type: 'string',
			default: '',
			description: 'ID of the lead assignment rule that assigns the owner (lar_id)',
		},
		{
			displayName: 'Lookups by External ID',
			name: 'externalLookups',
			type: 'string',
			default: '',
			placeholder: 'Accounts.External_Account_ID',
			description:
				'Module.Field pairs (comma-separated) sent in the X-EXTERNAL header, so lookups can be given by external value, e.g. {"Account_Name": {"External_Account_ID": "ACC-42"}}',
		},
		{
			displayName: 'Processes',
			name: 'process',
			type: 'string',
			default: '',
			placeholder: 'review_process',
			description: 'Comma-separated processes to run (process)',
		},
		{
			displayName: 'Triggers',
			name: 'trigger',
			type: 'multiOptions',
			options: TRIGGER_OPTIONS,
			default: [],
			description:
				'Automation to run on the write; leave empty to run none. Without this option all run.',
		},
	]);
}

interface WriteExtras {
	body: IDataObject;
	/** X-EXTERNAL pairs for lookups */
	external: string[];
}

/** The RW sibling keys of an item (`trigger`, `process`, `lar_id`) and its X-EXTERNAL lookups. */
export function writeExtrasOf(this: IExecuteFunctions, itemIndex: number): WriteExtras {
	const options = getParameter(this, 'options', itemIndex, {}) as IDataObject;
	const body: IDataObject = {};
	if (options.trigger !== undefined) body.trigger = options.trigger as string[];
	if (options.process !== undefined && String(options.process).trim() !== '')
		body.process = listOf(options.process);
	if (options.lar_id !== undefined && String(options.lar_id).trim() !== '') {
		const larId = String(options.lar_id).trim();
		checkDigits(this.getNode(), larId, 'Lead Assignment Rule ID', { itemIndex });
		body.lar_id = larId;
	}
	const external = listOf(options.externalLookups);
	for (const pair of external) {
		if (!/^\w+\.\w+$/.test(pair)) {
			throw new NodeOperationError(
				this.getNode(),
				`Lookups by External ID: "${pair}" is not Module.Field`,
				{
					itemIndex,
					description:
						'Write each pair as Module_API_Name.External_Field, e.g. Accounts.External_Account_ID.',
				},
			);
		}
	}
	return { body, external };
}

/** The request of one chunk of records to a record write endpoint, answered with one result per record. */
export function recordsRequest(request: {
	method: 'POST' | 'PUT';
	path: string;
	data: IDataObject[];
	extras: IDataObject;
	external: string[];
}): CrmListRequest {
	return {
		method: request.method,
		path: request.path,
		body: { ...request.extras, data: request.data },
		headers: request.external.length ? { 'X-EXTERNAL': request.external.join(',') } : undefined,
		itemListKey: 'data',
	};
}

// ---- what a write outputs, and how a person reads its errors ---------------------------------------

const OUTPUT_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Full Record',
		value: 'fullRecord',
		description: 'The record as stored after the write, read back by its ID',
	},
	{
		name: 'Operation Result',
		value: 'result',
		description: "The CRM's answer to the write: status, action, ID and who changed it when",
	},
];

/**
 * "Output" of Create / Update / Create or Update: the full record from node version 1.1 on; version 1
 * (saved workflows) keeps the operation result by default. Two properties of one name told apart by
 * `@version`, as n8n's own nodes do.
 */
export function outputProperties(): INodeProperties[] {
	const output: INodeProperties = {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		noDataExpression: true,
		options: OUTPUT_OPTIONS,
		default: 'fullRecord',
		hint: 'Full Record reads the written records back: one extra request per 100 items',
	};
	return [
		{ ...output, displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } } },
		{ ...output, default: 'result', displayOptions: { show: { '@version': [1] } } },
	];
}

/**
 * runBatched `refused` of the record writes. A refusal about a field reads the module's metadata
 * (once per run, and only when the CRM refused something, so raw JSON costs no read on runs that go
 * through): the field is named by its label, and a picklist value outside its list gets the
 * message that names the allowed values (picklistRefusal), as the mapper and the pairs give it.
 */
export function recordRefused(this: IExecuteFunctions, cache: Map<string, Map<string, FieldMeta>>) {
	return async (
		{ module }: { module: string },
		refusal: CrmErrorBody,
		record: IDataObject,
		itemIndex: number,
	): Promise<NodeApiError | NodeOperationError> => {
		let meta = cache.get(module.toLowerCase());
		if (!meta && typeof refusal.details?.api_name === 'string') {
			// without the metadata the CRM's own error still names the field
			meta = await loadFieldMeta.call(this, cache, module).catch(() => undefined);
		}
		return (
			(meta && picklistRefusal.call(this, meta, refusal, record, itemIndex)) ||
			crmApiError(this.getNode(), refusal, {
				itemIndex,
				labels: (apiName) => meta?.get(apiName)?.field_label,
			})
		);
	};
}

/** Refuses texts longer than their fields allow (INVALID_DATA `maximum_length`, §11.2), when the module's metadata is loaded. */
export function checkRecordLengths(
	this: IExecuteFunctions,
	cache: Map<string, Map<string, FieldMeta>>,
	module: string,
	record: IDataObject,
	itemIndex: number,
): void {
	const meta = cache.get(module.toLowerCase());
	if (!meta) return;
	const node = () => this.getNode();
	for (const [name, value] of Object.entries(record)) {
		const field = meta.get(name);
		if (field) checkTextLength(node, field, value, itemIndex);
	}
}

/** Batch key of Create and Upsert: items with the same module and write options share requests. */
interface WriteGroup extends WriteExtras {
	module: string;
}

/** One Create / Upsert item: its batch entry (the group is its key), its record checked against the field lengths. */
interface WriteItem extends BatchEntry<WriteGroup> {
	matchingColumns: string[];
}

/** One Create / Upsert item; a promise only while the module's metadata is not yet read (recordBody). */
function writeItemOf(
	this: IExecuteFunctions,
	itemIndex: number,
	fieldCache: Map<string, Map<string, FieldMeta>>,
): WriteItem | Promise<WriteItem> {
	const module = pickedValue(this, 'module', itemIndex);
	const { body, external } = writeExtrasOf.call(this, itemIndex);
	return thenOrNow(
		recordBody.call(this, itemIndex, module, fieldCache),
		({ record, matchingColumns }) => {
			checkRecordLengths.call(this, fieldCache, module, record, itemIndex);
			return { key: { module, body, external }, payload: record, matchingColumns };
		},
	);
}

/**
 * What Create and Upsert give runBatched alike: items built by writeItemOf, then `adjust` (Upsert's
 * duplicate checks); a chunk POSTed to `path(module)` with the group's write options; a refused
 * record named by its fields.
 */
export function recordPosts(
	this: IExecuteFunctions,
	fieldCache: Map<string, Map<string, FieldMeta>>,
	path: (module: string) => string,
	adjust: (item: WriteItem, itemIndex: number) => WriteItem = (item) => item,
) {
	return {
		build: (itemIndex: number) =>
			thenOrNow(writeItemOf.call(this, itemIndex, fieldCache), (item) => adjust(item, itemIndex)),
		request: ({ module, body, external }: WriteGroup, data: IDataObject[]) =>
			recordsRequest({ method: 'POST', path: path(module), data, extras: body, external }),
		refused: recordRefused.call(this, fieldCache),
	};
}

/**
 * Output "Full Record": every written item's record read back with GetRecords `ids=` (up to 100 per
 * request, GET /crm/{v}/{module}?ids=…), in place of its operation result; failed items, and records
 * the read does not answer, keep what they had (a failed read adds `fullRecordError`). Each output
 * item stays paired with its input item.
 */
export async function withFullRecords(
	this: IExecuteFunctions,
	output: INodeExecutionData[][],
): Promise<INodeExecutionData[][]> {
	const items = output[0] ?? [];
	const byModule = new Map<string, Array<{ item: INodeExecutionData; id: string }>>();
	items.forEach((item, i) => {
		const itemIndex = (item.pairedItem as { item: number } | undefined)?.item ?? i;
		if ((getParameter(this, 'output', itemIndex, 'result') as string) !== 'fullRecord') return;
		const id = item.json.status === 'success' ? String(item.json.id ?? '') : '';
		if (!isDigits(id)) return;
		const module = pickedValue(this, 'module', itemIndex);
		byModule.set(module, [...(byModule.get(module) ?? []), { item, id }]);
	});
	for (const [module, written] of byModule) {
		for (let start = 0; start < written.length; start += BATCH_SIZE) {
			const chunk = written.slice(start, start + BATCH_SIZE);
			const ids = [...new Set(chunk.map((w) => w.id))];
			let body: IDataObject;
			try {
				body = await crmRequest(this, {
					method: 'GET',
					path: modulePath(module),
					qs: { ids: ids.join(',') },
				});
			} catch (error) {
				// the records are written: failing the node now would invite a re-run that writes them twice
				for (const w of chunk) w.item.json.fullRecordError = (error as Error).message;
				continue;
			}
			const records = new Map(((body.data ?? []) as IDataObject[]).map((r) => [String(r.id), r]));
			for (const w of chunk) {
				const record = records.get(w.id);
				if (record) w.item.json = { ...record };
			}
		}
	}
	return output;
}

/** Module path segment. */
export const modulePath = (module: string) => `/${encodeURIComponent(module)}`;

/**
 * "<Verb> By" selector of an operation addressing one record: by ID, or by an external-ID field and
 * its value (X-EXTERNAL). `selector` names the parameter (getBy, updateBy, deleteBy); `hide` is merged
 * into every property's displayOptions.
 */
export function recordByProperties(
	selector: string,
	label: string,
	valueDescription: string,
	hide?: Record<string, string[]>,
): INodeProperties[] {
	const when = (value: string) => ({ show: { [selector]: [value] }, ...(hide ? { hide } : {}) });
	return [
		{
			displayName: `${label} By`,
			name: selector,
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'ID', value: 'id' },
				{
					name: 'External ID',
					value: 'externalId',
					description: 'A field of the module marked as external ID (X-EXTERNAL)',
				},
			],
			default: 'id',
			...(hide ? { displayOptions: { hide } } : {}),
		},
		{ ...recordIdField, displayOptions: when('id') },
		{
			displayName: 'External ID Field Name or ID',
			name: 'externalField',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getExternalIdFields', loadOptionsDependsOn: ['module'] },
			default: '',
			required: true,
			description:
				'External-ID field of the module. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			displayOptions: when('externalId'),
		},
		{
			displayName: 'External ID Value',
			name: 'externalValue',
			type: 'string',
			default: '',
			required: true,
			description: valueDescription,
			displayOptions: when('externalId'),
		},
	];
}
