import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/description/properties';
import { loadFieldMeta } from '../../../shared/records/fields';
import type { FieldMeta } from '../../../shared/records/fields';
import { runBatched, upsertUnknownOutcome } from '../../../shared/transport';
import {
	fieldsProperties,
	modulePath,
	outputProperties,
	recordPosts,
	withFullRecords,
	writeOptionsProperty,
} from './shared';

/** CreateRecords — POST /crm/{v}/{module} */
export const operation: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create a record',
	description: 'Create records in a module',
};

export const returns =
	'one item per created record: the record with its id and field values (in version 1, its id and status)';

const properties: INodeProperties[] = [
	moduleSelect,
	...fieldsProperties('add'),
	...outputProperties(),
	writeOptionsProperty(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['create'] } },
	properties,
);

/** GetFields `unique`: an object (non-empty when the field is unique) or a boolean. */
function isUnique(unique: FieldMeta['unique']): boolean {
	return (
		unique === true || (!!unique && typeof unique === 'object' && Object.keys(unique).length > 0)
	);
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const fieldCache = new Map<string, Map<string, FieldMeta>>();
	const output = await runBatched(this, {
		...recordPosts.call(this, fieldCache, modulePath),
		// a create answered 5xx or cut off may have happened: settle it by upsert on a unique field, never re-POST
		recover: async ({ module, body, external }, payloads, itemIndexes, failure) => {
			const meta = await loadFieldMeta.call(this, fieldCache, module);
			const uniqueFields = [...meta.values()]
				.filter((f) => isUnique(f.unique))
				.map((f) => f.api_name);
			return await upsertUnknownOutcome.call(this, {
				path: modulePath(module),
				payloads,
				uniqueFields,
				itemIndexes,
				failure,
				extras: body,
				headers: external.length ? { 'X-EXTERNAL': external.join(',') } : undefined,
			});
		},
	});
	return await withFullRecords.call(this, output);
}
