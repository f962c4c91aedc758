import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/description/properties';
import { getParameter } from '../../../shared/parameters';
import type { FieldMeta } from '../../../shared/records/fields';
import { runBatched } from '../../../shared/transport';
import {
	fieldsProperties,
	listOf,
	modulePath,
	outputProperties,
	recordPosts,
	withFullRecords,
	writeOptionsProperty,
} from './shared';

/** UpsertRecords — POST /crm/{v}/{module}/upsert */
export const operation: INodePropertyOptions = {
	name: 'Create or Update',
	value: 'upsert',
	action: 'Create or update a record',
	// wording required by the community-node lint (node-param-description-wrong-for-upsert)
	description: 'Create a new record, or update the current one if it already exists (upsert)',
};

export const returns =
	'one item per record: the record with its id and field values (in version 1, its id, status and action)';

const duplicateCheckFields: INodeProperties = {
	displayName: 'Duplicate Check Field Names or IDs',
	name: 'duplicate_check_fields',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getFields', loadOptionsDependsOn: ['module'] },
	default: [],
	description:
		'Fields whose value finds the record to update (duplicate_check_fields); none = the module\'s defaults. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

const properties: INodeProperties[] = [
	moduleSelect,
	...fieldsProperties('upsert'),
	...outputProperties(),
	writeOptionsProperty([
		{ ...duplicateCheckFields, displayOptions: { hide: { '/fieldsMode': ['mapper'] } } },
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['upsert'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const fieldCache = new Map<string, Map<string, FieldMeta>>();
	const output = await runBatched(
		this,
		recordPosts.call(
			this,
			fieldCache,
			(module) => `${modulePath(module)}/upsert`,
			(item, itemIndex) => {
				const mode = getParameter(this, 'fieldsMode', itemIndex, 'mapper') as string;
				const options = getParameter(this, 'options', itemIndex, {}) as IDataObject;
				const checks =
					mode === 'mapper' ? item.matchingColumns : listOf(options.duplicate_check_fields);
				if (checks.length) item.key.body.duplicate_check_fields = checks;
				return item;
			},
		),
	);
	return await withFullRecords.call(this, output);
}
