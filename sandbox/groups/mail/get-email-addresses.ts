import { operation } from '../../router.ts';
import { fromAddresses } from './shared.ts';

/** GetEmailAddresses: GET /crm/{v}/settings/emails/actions/from_addresses (docs/protocol.md §5.10). */
export const getEmailAddresses = operation(
	'GET',
	'/settings/emails/actions/from_addresses',
	{ v21Only: true, scopes: [['CRM.settings.emails.READ']] },
	(ctx) => ({ body: { from_addresses: fromAddresses(ctx.sandbox, ctx) } }),
);
