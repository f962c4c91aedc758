import type { INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requireDigits } from '../../../shared/validation';
import { taxIdField } from './fields';

/** GetTax — GET /crm/{v}/org/taxes/{id} */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a tax',
	description: 'Retrieve one tax by ID (GetTax)',
	routing: {
		request: { method: 'GET', url: '=/org/taxes/{{ toPathSegment(String($parameter.taxId).trim()) }}' },
		send: { preSend: [requireDigits('taxId', 'Tax ID')] },
	},
};

export const description = updateDisplayOptions({ show: { resource: ['tax'], operation: ['get'] } }, [taxIdField]);
