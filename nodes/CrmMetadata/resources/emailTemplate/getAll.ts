import { moduleQueryField, settingsListOperation } from '../shared';

/** GetEmailTemplates — GET /crm/{v}/settings/email_templates?module= (v2.1 only) */
export const { operation, returns, description } = settingsListOperation({
	resource: 'emailTemplate',
	things: 'email templates',
	url: '/settings/email_templates',
	rootProperty: 'email_templates',
	description: 'List the email templates of a module',
	v21Only: 'Email Template → Get Many (GetEmailTemplates)',
	returns: 'one item per email template of the module, with its id, name, subject and folder',
	properties: [moduleQueryField],
});
