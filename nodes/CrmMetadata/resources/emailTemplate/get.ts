import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/description/properties';
import { crmRouting, noneWithId, requireV21 } from '../../../shared/transport';
import { idOptions } from '../shared';

/** GetEmailTemplateById — GET /crm/{v}/settings/email_templates/{id} (v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get an email template',
	description: 'Retrieve one email template with its content',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '=/settings/email_templates/{{ toPathSegment($parameter.templateId) }}',
			},
			send: { preSend: [requireV21('Email Template → Get (GetEmailTemplateById)')] },
		},
		{ rootProperty: 'email_templates', notFound: noneWithId('email template', 'templateId') },
	),
};

export const returns =
	'the email template with its id, name, subject and content (an error when no template has the ID)';

const properties: INodeProperties[] = [
	{
		...moduleSelect,
		required: false,
		description:
			'Module whose templates the list below offers (not sent). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	idOptions(
		'Email Template Name or ID',
		'templateId',
		'getEmailTemplates',
		['module'],
		'Email template to retrieve',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['emailTemplate'], operation: ['get'] } },
	properties,
);
