import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, pickedValue } from '../../../shared/description/properties';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { runBatched } from '../../../shared/transport';
import type { CrmListRequest } from '../../../shared/transport';
import { modulePath, recordByProperties, recordIdOf } from './shared';
import { getParameter } from '../../../shared/parameters';

/**
 * DeleteRecords — DELETE /crm/{v}/{module}?ids=… (2..100 per request);
 * DeleteRecord — DELETE /crm/{v}/{module}/{id}, DeleteRecordUsingExternalID — DELETE /crm/{v}/{module}/{extValue} (a chunk of one)
 */
export const operation: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a record',
	description: 'Delete records by ID or external ID',
};

export const returns = 'one item per deleted record: its id and status';

export const wfTriggerOption = optionsCollection([
	{
		displayName: 'Run Workflow Rules',
		name: 'wf_trigger',
		type: 'boolean',
		default: true,
		description: 'Whether the deletion runs the workflow rules of the module (wf_trigger)',
	},
]);

const properties: INodeProperties[] = [
	moduleSelect,
	...recordByProperties(
		'deleteBy',
		'Delete',
		'Value of the external-ID field of the record to delete',
	),
	wfTriggerOption,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['delete'] } },
	properties,
);

/** `wf_trigger` query value (Boolean text in both variants, §13), or nothing when the option is absent. */
export function wfTriggerQuery(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const options = getParameter(this, 'options', itemIndex, {}) as IDataObject;
	return options.wf_trigger === undefined
		? {}
		: { wf_trigger: options.wf_trigger ? 'true' : 'false' };
}

/** The request of one chunk of deletes, answered with one result per key, in order. */
export function deletesRequest(
	module: string,
	keys: string[],
	qs: IDataObject,
	externalField?: string,
	listForm = false,
): CrmListRequest {
	const headers = externalField ? { 'X-EXTERNAL': `${module}.${externalField}` } : undefined;
	return keys.length === 1 && !listForm
		? {
				method: 'DELETE',
				path: `${modulePath(module)}/${encodeURIComponent(keys[0])}`,
				qs,
				headers,
				itemListKey: 'data',
			}
		: {
				method: 'DELETE',
				path: modulePath(module),
				qs: { ...qs, ids: keys.join(',') },
				headers,
				itemListKey: 'data',
			};
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runBatched(this, {
		build: (itemIndex) => {
			const module = pickedValue(this, 'module', itemIndex);
			const by = getParameter(this, 'deleteBy', itemIndex, 'id') as string;
			const qs = wfTriggerQuery.call(this, itemIndex);
			if (by === 'externalId') {
				const field = getParameter(this, 'externalField', itemIndex) as string;
				const value = String(getParameter(this, 'externalValue', itemIndex) ?? '').trim();
				if (!value || value.includes(',')) {
					throw new NodeOperationError(
						this.getNode(),
						`External ID Value must be one non-empty value, got "${value}"`,
						{ itemIndex },
					);
				}
				return { key: { module, qs, field }, payload: { id: value } };
			}
			return {
				key: { module, qs, field: undefined as string | undefined },
				payload: { id: recordIdOf.call(this, 'recordId', itemIndex) },
			};
		},
		request: ({ module, qs, field }, payloads) =>
			deletesRequest(
				module,
				payloads.map((p) => String(p.id)),
				qs,
				field,
			),
	});
}
