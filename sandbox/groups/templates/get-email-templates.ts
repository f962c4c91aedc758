import { operation } from '../../router.ts';
import { pageOf, pagedReply, paging } from '../../wire.ts';
import { EMAIL_READ, supportedModule, templateJson, templatesOf } from './shared.ts';

/** GetEmailTemplates: GET /crm/{v}/settings/email_templates (docs/protocol.md §5.7). */
export const getEmailTemplates = operation(
	'GET',
	'/settings/email_templates',
	{ scopes: EMAIL_READ, v21Only: true },
	(ctx) => {
		const { sandbox } = ctx;
		const module = supportedModule(ctx, 'email');
		const p = paging(ctx);
		const docs = templatesOf(sandbox, 'email').filter((t) => t.module === module.api_name);
		return pagedReply(
			'email_templates',
			p,
			pageOf(docs, p).map((t) => templateJson(sandbox, t, false)),
		);
	},
);
