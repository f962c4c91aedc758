import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { moduleSelect, pickedValue, recordIdField } from '../../../shared/descriptions';
import { crmItemResults, runBatched } from '../../../shared/transport';
import { checkDigits } from '../../../shared/validation';
import { TAG_BATCH, checkTagNames, tagNamesField } from './shared';

const overWriteField: INodeProperties = {
	displayName: 'Overwrite',
	name: 'overWrite',
	type: 'boolean',
	default: false,
	description: 'Whether to replace the record\'s tags instead of adding to them',
};

/** Properties of the tag actions on records (add: with Overwrite). */
export function tagActionProperties(mode: 'add' | 'remove', one: boolean): INodeProperties[] {
	const overWrite: INodeProperties = one
		? { ...overWriteField, routing: { send: { type: 'query', property: 'over_write', value: '={{ $value ? "true" : "false" }}' } } }
		: overWriteField;
	return [
		moduleSelect,
		one ? recordIdField : { ...recordIdField, description: 'Numeric ID of the record; items of one module and tag list are sent 100 per request' },
		tagNamesField,
		...(mode === 'add' ? [overWrite] : []),
	];
}

/**
 * AddTagsToMultipleRecords / RemoveTagsFromMultipleRecords: one record per input item, items with
 * the same module, tags and overwrite flag sent 100 record IDs per request.
 */
export async function executeRecordsAction(this: IExecuteFunctions, mode: 'add' | 'remove'): Promise<INodeExecutionData[][]> {
	return await runBatched(this, {
		batchSize: TAG_BATCH,
		build: (itemIndex) => {
			const module = pickedValue(this, 'module', itemIndex);
			const id = pickedValue(this, 'recordId', itemIndex);
			checkDigits(this.getNode(), id, 'Record ID', { itemIndex });
			const names = checkTagNames(this.getNode(), this.getNodeParameter('tagNames', itemIndex) as string, itemIndex);
			const overWrite = mode === 'add' ? (this.getNodeParameter('overWrite', itemIndex, false) as boolean) : false;
			return { key: { module, tagNames: names.join(','), overWrite }, payload: { id } };
		},
		send: async ({ module, tagNames, overWrite }, payloads) => {
			const qs: IDataObject = { tag_names: tagNames, ids: payloads.map((p) => p.id).join(',') };
			if (mode === 'add') qs.over_write = overWrite ? 'true' : 'false';
			return await crmItemResults.call(this, {
				method: 'POST',
				path: `/${encodeURIComponent(module)}/actions/${mode}_tags`,
				qs,
				itemListKey: 'data',
			});
		},
	});
}
