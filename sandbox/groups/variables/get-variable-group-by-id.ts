import { operation } from '../../router.ts';
import { GROUPS_SCOPES, findGroup } from './shared.ts';

/** GetVariableGroupById: GET /crm/{v}/settings/variable_groups/{key} (docs/protocol.md §5.9). */
export const getVariableGroupById = operation(
	'GET',
	'/settings/variable_groups/:key',
	{ scopes: GROUPS_SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const group = findGroup(sandbox, ctx.params.key);
		return group ? { body: { variable_groups: [group] } } : { status: 204 };
	},
);
