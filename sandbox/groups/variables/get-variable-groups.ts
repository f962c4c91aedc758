import { operation } from '../../router.ts';
import { listReply } from '../../wire.ts';
import { GROUPS_SCOPES, groups } from './shared.ts';

/** GetVariableGroups: GET /crm/{v}/settings/variable_groups (docs/protocol.md §5.9). */
export const getVariableGroups = operation(
	'GET',
	'/settings/variable_groups',
	{ scopes: GROUPS_SCOPES },
	(ctx) => listReply('variable_groups', groups(ctx.sandbox)),
);
