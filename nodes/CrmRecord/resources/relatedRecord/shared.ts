import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { moduleSelect, pickedValue, recordPicker } from '../../../shared/description/properties';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { runBatched } from '../../../shared/transport';
import type { CrmRequest } from '../../../shared/transport';
import { checkDigits } from '../../../shared/records/validation';
import { getParameter } from '../../../shared/parameters';

/** Related list of the chosen module, from GetRelatedLists. */
export const relatedListSelect: INodeProperties = {
	displayName: 'Related List Name or ID',
	name: 'relatedList',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getRelatedLists', loadOptionsDependsOn: ['module'] },
	default: '',
	required: true,
	description:
		'API name of the related list, e.g. Contacts or Products. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const parentRecordIdField: INodeProperties = recordPicker({
	description:
		'The parent record: from the list, by ID (its external ID value when "Parent External ID Field" is set), or by its address',
	externalValues: true,
});

const relatedRecordIdField: INodeProperties = recordPicker({
	displayName: 'Related Record',
	name: 'relatedRecordId',
	description:
		'The related record: from the list, by ID (its external ID value when "Related External ID Field" is set), or by its address',
	searchListMethod: 'searchRelatedRecords',
	externalValues: true,
});

/** External-ID forms (X-EXTERNAL, docs/protocol.md §3.9): parent and/or related record by external value. */
export const externalIdOptions: INodeProperties[] = [
	{
		displayName: 'Parent External ID Field',
		name: 'parentExternalField',
		type: 'string',
		default: '',
		placeholder: 'External_Contact_ID',
		description:
			'External-ID field of the module; when set, "Record ID" holds that field\'s value (the …UsingExternalID forms)',
	},
	{
		displayName: 'Related External ID Field',
		name: 'relatedExternalField',
		type: 'string',
		default: '',
		placeholder: 'Product_Code',
		description:
			"External-ID field of the related module (or Module.Field); when set, related record IDs hold that field's value",
	},
];

/** Get, Link and Delink: the parent record, the related list and the related record, `extra`, then the external-ID options. */
export function relationProperties(extra: INodeProperties[] = []): INodeProperties[] {
	return [
		moduleSelect,
		parentRecordIdField,
		relatedListSelect,
		relatedRecordIdField,
		...extra,
		optionsCollection(externalIdOptions),
	];
}

/** The X-EXTERNAL header for the chosen external fields: `Module.Field[,Module.Field]`. */
function relationExternalHeader(
	module: string,
	relatedList: string,
	parentField: string,
	relatedField: string,
): string | undefined {
	const pairs: string[] = [];
	if (parentField.trim())
		pairs.push(parentField.includes('.') ? parentField.trim() : `${module}.${parentField.trim()}`);
	if (relatedField.trim())
		pairs.push(
			relatedField.includes('.') ? relatedField.trim() : `${relatedList}.${relatedField.trim()}`,
		);
	return pairs.length ? pairs.join(',') : undefined;
}

/** Checks an ID: digits unless it is an external value. */
function checkId(
	node: INode,
	value: string,
	label: string,
	external: boolean,
	itemIndex: number,
): string {
	const id = String(value ?? '').trim();
	if (!id) throw new NodeOperationError(node, `${label} is empty`, { itemIndex });
	if (external) return id;
	return checkDigits(node, id, label, {
		itemIndex,
		description: `Set "${label}" to a numeric record ID, or set the matching external ID field under Options.`,
	});
}

/** preSend of the routed operations: checks the IDs and sets X-EXTERNAL. */
export async function relatedRequest(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const itemIndex = this.getItemIndex();
	const module = pickedValue(this, 'module');
	const relatedList = getParameter(this, 'relatedList', itemIndex) as string;
	const options = getParameter(this, 'options', itemIndex, {}) as IDataObject;
	const parentField = String(options.parentExternalField ?? '');
	const relatedField = String(options.relatedExternalField ?? '');
	checkId(
		this.getNode(),
		pickedValue(this, 'recordId'),
		'Record ID',
		!!parentField.trim(),
		itemIndex,
	);
	const operation = getParameter(this, 'operation', itemIndex) as string;
	if (operation === 'get') {
		checkId(
			this.getNode(),
			pickedValue(this, 'relatedRecordId'),
			'Related Record ID',
			!!relatedField.trim(),
			itemIndex,
		);
	}
	const header = relationExternalHeader(module, relatedList, parentField, relatedField);
	if (header) requestOptions.headers = { ...requestOptions.headers, 'X-EXTERNAL': header };
	return requestOptions;
}

/** The parameters of one item of Link or Delink: the parent record, the related list and the related record. */
function relationOf(this: IExecuteFunctions, itemIndex: number) {
	const module = pickedValue(this, 'module', itemIndex);
	const relatedList = getParameter(this, 'relatedList', itemIndex) as string;
	const options = getParameter(this, 'options', itemIndex, {}) as IDataObject;
	const parentField = String(options.parentExternalField ?? '');
	const relatedField = String(options.relatedExternalField ?? '');
	const recordId = checkId(
		this.getNode(),
		pickedValue(this, 'recordId', itemIndex),
		'Record ID',
		!!parentField.trim(),
		itemIndex,
	);
	const relatedId = checkId(
		this.getNode(),
		pickedValue(this, 'relatedRecordId', itemIndex),
		'Related Record ID',
		!!relatedField.trim(),
		itemIndex,
	);
	return { module, relatedList, parentField, relatedField, recordId, relatedId };
}

/**
 * Link and Delink: items with the same parent record, related list and X-EXTERNAL share requests
 * to /{module}/{recordId}/{relatedList} (up to 100 per request).
 */
export async function runRelationBatches(
	this: IExecuteFunctions,
	method: 'PUT' | 'DELETE',
	payloadOf: (relation: ReturnType<typeof relationOf>, itemIndex: number) => IDataObject,
	requestOf: (payloads: IDataObject[]) => Pick<CrmRequest, 'qs' | 'body'>,
): Promise<INodeExecutionData[][]> {
	return await runBatched(this, {
		build: (itemIndex) => {
			const relation = relationOf.call(this, itemIndex);
			const { module, relatedList, parentField, relatedField, recordId } = relation;
			const header = relationExternalHeader(module, relatedList, parentField, relatedField);
			return {
				key: { module, recordId, relatedList, header },
				payload: payloadOf(relation, itemIndex),
			};
		},
		request: ({ module, recordId, relatedList, header }, payloads) => ({
			method,
			path: `/${encodeURIComponent(module)}/${encodeURIComponent(recordId)}/${encodeURIComponent(relatedList)}`,
			...requestOf(payloads),
			headers: header ? { 'X-EXTERNAL': header } : undefined,
			itemListKey: 'data',
		}),
	});
}
