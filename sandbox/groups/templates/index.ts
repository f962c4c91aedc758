// Email and inventory templates (docs/protocol.md §5.7, v2.1 only): GetEmailTemplates (`module`
// required), GetEmailTemplateById, GetInventoryTemplates (`module` required; `category`,
// `sort_by`, `sort_order`), GetInventoryTemplatebyID, one file each. Seeded once into the
// collections `email_templates` and `inventory_templates` (SendMail reads the former). Lists leave
// out `content`; reads by id carry it.
// **Assumed** details: a module without template support answers 403 FEATURE_NOT_SUPPORTED; a
// `category` / `sort_by` / `sort_order` outside the sets below answers 400 PATTERN_NOT_MATCHED.
// Helpers and the seed in shared.ts.
import type { Router } from '../../router.ts';
import type { Sandbox } from '../../types.ts';
import { seedOnce } from '../shared.ts';
import { getEmailTemplateById } from './get-email-template-by-id.ts';
import { getEmailTemplates } from './get-email-templates.ts';
import { getInventoryTemplatebyID } from './get-inventory-template-by-id.ts';
import { getInventoryTemplates } from './get-inventory-templates.ts';
import { seedTemplates } from './shared.ts';

export function registerTemplates(router: Router, sandbox: Sandbox): void {
	seedOnce(sandbox, 'templates', seedTemplates);
	router.register([
		getEmailTemplates,
		getEmailTemplateById,
		getInventoryTemplates,
		getInventoryTemplatebyID,
	]);
}
