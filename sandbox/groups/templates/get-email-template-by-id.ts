import { operation } from '../../router.ts';
import { unknownId } from '../modules.ts';
import { EMAIL_READ, findTemplate, templateJson } from './shared.ts';

/** GetEmailTemplateById: GET /crm/{v}/settings/email_templates/{id} (docs/protocol.md §5.7). */
export const getEmailTemplateById = operation(
	'GET',
	'/settings/email_templates/:id',
	{ scopes: EMAIL_READ, v21Only: true },
	(ctx) => {
		const { sandbox } = ctx;
		const doc = findTemplate(sandbox, 'email', ctx.params.id);
		if (!doc) throw unknownId(ctx, ctx.params.id);
		return {
			body: {
				email_templates: [templateJson(sandbox, doc, true)],
				info: { per_page: 1, count: 1, page: 1, more_records: false },
			},
		};
	},
);
