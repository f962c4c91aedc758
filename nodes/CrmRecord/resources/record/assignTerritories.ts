import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, pickedValue, recordIdField } from '../../../shared/description/properties';
import { assertV21, runBatched } from '../../../shared/transport';
import { idListOf, modulePath, recordIdOf } from './shared';
import { getParameter } from '../../../shared/parameters';

/**
 * AssignTerritoriesToMultipleRecords — POST /crm/{v}/{module}/actions/assign_territories (2..100 records per request);
 * AssignTerritoryToRecord — POST /crm/{v}/{module}/{id}/actions/assign_territories (a chunk of one). v2.1 only.
 */
export const operation: INodePropertyOptions = {
	name: 'Assign Territories',
	value: 'assignTerritories',
	action: 'Assign territories to a record',
	description: 'Assign territories to records',
};

export const returns = 'one item per record: its id and status';

export function territoryProperties(operation: string): INodeProperties[] {
	return updateDisplayOptions({ show: { resource: ['record'], operation: [operation] } }, [
		moduleSelect,
		recordIdField,
		{
			displayName: 'Territory IDs',
			name: 'territoryIds',
			type: 'string',
			default: '',
			required: true,
			placeholder: '4876876000000361003',
			description: 'Comma-separated territory IDs',
		},
	]);
}

export const description = territoryProperties('assignTerritories');

/** Territory assignment or removal, batched: items `{id, Territories: [{id}]}` (§5.1). */
export function territoryExecute(
	action: 'assign_territories' | 'remove_territories',
	label: string,
) {
	return async function (this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		await assertV21.call(this, label, 0);
		return await runBatched(this, {
			build: (itemIndex) => {
				const module = pickedValue(this, 'module', itemIndex);
				const id = recordIdOf.call(this, 'recordId', itemIndex);
				const territories = idListOf.call(
					this,
					getParameter(this, 'territoryIds', itemIndex),
					itemIndex,
					'Territory IDs',
				);
				return { key: module, payload: { id, Territories: territories.map((t) => ({ id: t })) } };
			},
			request: (module, data) => {
				const one = data.length === 1;
				return {
					method: 'POST',
					path: one
						? `${modulePath(module)}/${encodeURIComponent(String(data[0].id))}/actions/${action}`
						: `${modulePath(module)}/actions/${action}`,
					body: { data: one ? [{ Territories: data[0].Territories }] : data },
					itemListKey: 'data',
				};
			},
		});
	};
}

export const execute = territoryExecute('assign_territories', 'Assign Territories');
