import type { INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { byIdRouting } from '../shared';
import { taxIdField } from './shared';
import { crmRouting, noneWithId } from '../../../shared/transport';

/** A missing ID: "No tax with ID …" (see the runner, shared/transport/runner.ts). */
export const notFound = noneWithId('tax', 'taxId');

/** GetTax — GET /crm/{v}/org/taxes/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a tax',
	description: 'Retrieve one tax by ID',
	routing: crmRouting(byIdRouting('GET', '/org/taxes', 'taxId', 'Tax ID'), {
		rootProperty: 'taxes',
		notFound,
	}),
};

export const returns =
	'the tax with its id, name, rate in percent and sequence number (an error when no tax has the ID)';

export const description = updateDisplayOptions(
	{ show: { resource: ['tax'], operation: ['get'] } },
	[taxIdField],
);
