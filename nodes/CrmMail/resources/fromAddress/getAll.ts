import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { crmRouting, requireV21 } from '../../../shared/transport';

/** GetEmailAddresses — GET /crm/{v}/settings/emails/actions/from_addresses (v2.1 only; one list, not paged) */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many from addresses',
	description: 'List the addresses mails can be sent from: users and organisation addresses',
	routing: crmRouting(
		{
			request: { method: 'GET', url: '/settings/emails/actions/from_addresses' },
			send: { preSend: [requireV21('Get From Addresses (GetEmailAddresses)')] },
		},
		{ rootProperty: 'from_addresses' },
	),
};

export const returns =
	'one item per from address, with its id, email, type, user name and whether it is the default';

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['fromAddress'], operation: ['getAll'] } },
	properties,
);
