import { operation } from '../../router.ts';
import { VARIABLES_SCOPES, findVariable, groupParam, variableJson } from './shared.ts';

/** GetVariableByID: GET /crm/{v}/settings/variables/{key} (docs/protocol.md §5.9). */
export const getVariableByID = operation(
	'GET',
	'/settings/variables/:key',
	{ scopes: VARIABLES_SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const group = groupParam(ctx);
		const variable = findVariable(sandbox, ctx.params.key);
		if (!variable || variable.variable_group.id !== group.id) return { status: 204 };
		return { body: { variables: [variableJson(variable, ctx.v)] } };
	},
);
