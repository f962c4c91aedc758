import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleQueryField, settingsListOption } from '../shared';

/** GetEmailTemplates — GET /crm/{v}/settings/email_templates?module= (v2.1 only) */
export const operation = settingsListOption({
	things: 'email templates',
	url: '/settings/email_templates',
	rootProperty: 'email_templates',
	description: 'List the email templates of a module',
	v21Only: 'Email Template → Get Many (GetEmailTemplates)',
});

export const returns =
	'one item per email template of the module, with its id, name, subject and folder';

const properties: INodeProperties[] = [moduleQueryField];

export const description = updateDisplayOptions(
	{ show: { resource: ['emailTemplate'], operation: ['getAll'] } },
	properties,
);
