import { operation } from '../../router.ts';
import type { Json } from '../../store.ts';
import { wrapperList } from '../../wire.ts';
import { resultsReply, successItem } from '../shared.ts';
import type { VariableDoc } from './shared.ts';
import { VARIABLES, VARIABLES_SCOPES, applyVariable, claimedExcept, fail } from './shared.ts';

/** CreateVariables: POST /crm/{v}/settings/variables (docs/protocol.md §5.9). */
export const createVariables = operation(
	'POST',
	'/settings/variables',
	{ scopes: VARIABLES_SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const items = wrapperList(ctx, 'variables', 100);
		const results = store.transaction(() => {
			const claimed = claimedExcept(sandbox);
			return items.map((raw, index) => {
				if (!raw || typeof raw !== 'object' || Array.isArray(raw))
					return fail(ctx, index, 'INVALID_DATA', 'variables', 'invalid data');
				const variable: VariableDoc = {
					id: '',
					api_name: '',
					name: '',
					description: null,
					type: 'text',
					value: null,
					variable_group: { id: '', api_name: '' },
					source: 'crm',
				};
				const error = applyVariable(sandbox, ctx, index, raw as Json, variable, true, claimed);
				if (error) return error;
				variable.id = store.nextId();
				claimed.add(variable.api_name.toLowerCase());
				store.putDoc(VARIABLES, variable.id, variable);
				return successItem(variable.id, 'variable added');
			});
		});
		return resultsReply('variables', 201, results);
	},
);
