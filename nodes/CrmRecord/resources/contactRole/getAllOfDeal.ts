import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { dealIdField } from './shared';

/**
 * GetAllContactRolesOfDeal — GET /crm/{v}/Deals/{dealId}/Contact_Roles?ids=… when contact IDs are
 * given; without them every contact of the deal with its role, from the deal's Contact Roles list
 * (GetRelatedRecords: GET /crm/{v}/Deals/{dealId}/Contacts), since v2.1 requires `ids`.
 */
export const operation: INodePropertyOptions = {
	name: 'Get Many of Deal',
	value: 'getAllOfDeal',
	action: 'Get the contact roles of a deal',
	description: 'List the contacts of a deal with their roles (GetAllContactRolesOfDeal)',
	routing: {
		request: {
			method: 'GET',
			url: '={{ "/Deals/" + toPathSegment($parameter.dealId) + ($parameter.contactIds ? "/Contact_Roles" : "/Contacts") }}',
		},
	},
};

const properties: INodeProperties[] = [
	dealIdField,
	{
		displayName: 'Contact IDs',
		name: 'contactIds',
		type: 'string',
		default: '',
		placeholder: '4876876000000611046,4876876000000611047',
		description: 'Comma-separated contact IDs to read (at most 100); empty reads every contact of the deal',
		routing: { send: { type: 'query', property: 'ids', value: '={{ $value ? $value.replace(/\\s/g, "") : undefined }}' } },
	},
];

export const description = updateDisplayOptions({ show: { resource: ['contactRole'], operation: ['getAllOfDeal'] } }, properties);
