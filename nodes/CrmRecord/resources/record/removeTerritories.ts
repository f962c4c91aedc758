import type { INodePropertyOptions } from 'n8n-workflow';

import { territoryExecute, territoryProperties } from './assignTerritories';

/**
 * RemoveTerritoriesFromMultipleRecords — POST /crm/{v}/{module}/actions/remove_territories (2..100 records per request);
 * RemoveTerritoriesFromRecord — POST /crm/{v}/{module}/{id}/actions/remove_territories (a chunk of one). v2.1 only.
 */
export const operation: INodePropertyOptions = {
	name: 'Remove Territories',
	value: 'removeTerritories',
	action: 'Remove territories from a record',
	description: 'Remove territories from records',
};

export const returns = 'one item per record: its id and status';

export const description = territoryProperties('removeTerritories');

export const execute = territoryExecute('remove_territories', 'Remove Territories');
