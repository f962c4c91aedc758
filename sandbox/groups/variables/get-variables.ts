import { operation } from '../../router.ts';
import { listReply } from '../../wire.ts';
import { VARIABLES_SCOPES, groupParam, variableJson, variables } from './shared.ts';

/** GetVariables: GET /crm/{v}/settings/variables (docs/protocol.md §5.9). */
export const getVariables = operation(
	'GET',
	'/settings/variables',
	{ scopes: VARIABLES_SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const group = groupParam(ctx);
		const list = variables(sandbox).filter((v) => v.variable_group.id === group.id);
		return listReply(
			'variables',
			list.map((v) => variableJson(v, ctx.v)),
		);
	},
);
