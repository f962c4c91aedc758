import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { pickedValue } from '../../../shared/description/properties';
import { contactIdField, dealIdField } from './shared';
import type { NotFound } from '../../../shared/transport';
import { crmRouting } from '../../../shared/transport';

/** A contact without a role on the deal answers 204 (docs/protocol.md §5.9, §3.7). */
const notFound: NotFound = function () {
	const [dealId, contactId] = ['dealId', 'contactId'].map((name) => pickedValue(this, name));
	return `No contact role of contact ${contactId} on deal ${dealId}`;
};

/** GetContactRoleOfDeal — GET /crm/{v}/Deals/{dealId}/Contact_Roles/{contactId} */
export const operation: INodePropertyOptions = {
	name: 'Get of Deal',
	value: 'getOfDeal',
	action: 'Get the role of a contact on a deal',
	description: 'Retrieve one contact of a deal with its role',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '=/Deals/{{ toPathSegment($parameter.dealId) }}/Contact_Roles/{{ toPathSegment($parameter.contactId) }}',
			},
		},
		{ rootProperty: 'data', notFound },
	),
};

export const returns =
	'the contact with its id, field values and role on the deal (an error when it has no role there)';

const properties: INodeProperties[] = [dealIdField, contactIdField];

export const description = updateDisplayOptions(
	{ show: { resource: ['contactRole'], operation: ['getOfDeal'] } },
	properties,
);
