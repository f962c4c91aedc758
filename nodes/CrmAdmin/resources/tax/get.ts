import { updateDisplayOptions } from 'n8n-workflow';

import { getByIdOption } from '../../../shared/description/getById';
import { taxIdField } from './shared';

/** GetTax — GET /crm/{v}/org/taxes/{id} */
export const operation = getByIdOption({
	thing: 'tax',
	path: '/org/taxes',
	idParameter: 'taxId',
	rootProperty: 'taxes',
	description: 'Retrieve one tax by ID',
});

export const returns =
	'the tax with its id, name, rate in percent and sequence number (an error when no tax has the ID)';

export const description = updateDisplayOptions(
	{ show: { resource: ['tax'], operation: ['get'] } },
	[taxIdField],
);
