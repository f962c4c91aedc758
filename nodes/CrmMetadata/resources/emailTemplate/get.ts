import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByIdOption } from '../../../shared/description/getById';
import { moduleSelect } from '../../../shared/description/properties';
import { idOptions } from '../shared';

/** GetEmailTemplateById — GET /crm/{v}/settings/email_templates/{id} (v2.1 only) */
export const operation = getByIdOption({
	thing: 'email template',
	path: '/settings/email_templates',
	idParameter: 'templateId',
	rootProperty: 'email_templates',
	description: 'Retrieve one email template with its content',
	v21Only: 'Email Template → Get (GetEmailTemplateById)',
});

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
