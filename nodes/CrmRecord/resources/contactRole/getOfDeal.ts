import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { contactIdField, dealIdField } from './shared';

/** GetContactRoleOfDeal — GET /crm/{v}/Deals/{dealId}/Contact_Roles/{contactId} */
export const operation: INodePropertyOptions = {
	name: 'Get of Deal',
	value: 'getOfDeal',
	action: 'Get the role of a contact on a deal',
	description: 'Retrieve one contact of a deal with its role (GetContactRoleOfDeal)',
	routing: {
		request: {
			method: 'GET',
			url: '=/Deals/{{ toPathSegment($parameter.dealId) }}/Contact_Roles/{{ toPathSegment($parameter.contactId) }}',
		},
	},
};

const properties: INodeProperties[] = [dealIdField, contactIdField];

export const description = updateDisplayOptions({ show: { resource: ['contactRole'], operation: ['getOfDeal'] } }, properties);
