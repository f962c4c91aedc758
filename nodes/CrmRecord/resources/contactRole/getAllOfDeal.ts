import type {
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { credentialVariant } from '../../../shared/transport/apiVariant';
import { dealIdField } from './shared';
import { getParameter } from '../../../shared/parameters';
import { crmRouting } from '../../../shared/transport';

/**
 * GetAllContactRolesOfDeal — GET /crm/{v}/Deals/{dealId}/Contact_Roles?ids=…. The service has no
 * other list of a deal's contacts: `ids` is required in v2.1 and optional in v2, where leaving it
 * out lists every contact of the deal with its role.
 */
async function requireIdsInV21(
	this: IExecuteSingleFunctions,
	request: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const itemIndex = this.getItemIndex();
	const ids = String(getParameter(this, 'contactIds', itemIndex, '') ?? '').trim();
	if (ids === '' && (await credentialVariant.call(this)) === 'v2.1') {
		throw new NodeOperationError(this.getNode(), 'Contact IDs is required with API variant v2.1', {
			itemIndex,
			description:
				"Enter the IDs of the deal's contacts to read (at most 100), or use a credential with API variant v2 to list every contact of the deal.",
		});
	}
	return request;
}

/** GetAllContactRolesOfDeal — GET /crm/{v}/Deals/{dealId}/Contact_Roles */
export const operation: INodePropertyOptions = {
	name: 'Get Many of Deal',
	value: 'getAllOfDeal',
	action: 'Get the contact roles of a deal',
	description: 'List the contacts of a deal with their roles',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '=/Deals/{{ toPathSegment($parameter.dealId) }}/Contact_Roles',
			},
			send: { preSend: [requireIdsInV21] },
		},
		{ rootProperty: 'data' },
	),
};

export const returns =
	'one item per contact of the deal: the contact with its id, field values and contact role';

const properties: INodeProperties[] = [
	dealIdField,
	{
		displayName: 'Contact IDs',
		name: 'contactIds',
		type: 'string',
		default: '',
		placeholder: '4876876000000611046,4876876000000611047',
		description:
			'Comma-separated contact IDs to read (at most 100). Required with API variant v2.1; with v2, empty reads every contact of the deal.',
		routing: {
			send: {
				type: 'query',
				property: 'ids',
				value: '={{ $value ? $value.replace(/\\s/g, "") : undefined }}',
			},
		},
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contactRole'], operation: ['getAllOfDeal'] } },
	properties,
);
