import type { INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { byIdRouting } from '../shared';
import { taxIdField } from './shared';
import { noneWithId } from '../../../shared/transport';

/** GetTax — GET /crm/{v}/org/taxes/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a tax',
	description: 'Retrieve one tax by ID',
	routing: byIdRouting('GET', '/org/taxes', 'taxId', 'Tax ID'),
};

export const returns =
	'the tax with its id, name, rate in percent and sequence number (an error when no tax has the ID)';

export const description = updateDisplayOptions(
	{ show: { resource: ['tax'], operation: ['get'] } },
	[taxIdField],
);

/** Key of the items in the response (docs/protocol.md §5.9). */
export const rootProperty = 'taxes';

/** A missing ID: "No tax with ID …" (see the runner, shared/transport/runner.ts). */
export const notFound = noneWithId('tax', 'taxId');
