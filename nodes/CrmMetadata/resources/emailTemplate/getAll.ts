import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { crmRouting, requireV21 } from '../../../shared/transport';
import { moduleQueryField } from '../shared';

/** GetEmailTemplates — GET /crm/{v}/settings/email_templates?module= (v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many email templates',
	description: 'List the email templates of a module',
	routing: crmRouting(
		{
			request: { method: 'GET', url: '/settings/email_templates' },
			send: { preSend: [requireV21('Email Template → Get Many (GetEmailTemplates)')] },
		},
		{ rootProperty: 'email_templates' },
	),
};

export const returns =
	'one item per email template of the module, with its id, name, subject and folder';

const properties: INodeProperties[] = [moduleQueryField];

export const description = updateDisplayOptions(
	{ show: { resource: ['emailTemplate'], operation: ['getAll'] } },
	properties,
);
