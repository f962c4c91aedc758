import { operation } from '../../router.ts';
import type { Json } from '../../store.ts';
import { wrapperList } from '../../wire.ts';
import { eachItem, resultsReply } from '../shared.ts';
import { VARIABLES_SCOPES, findVariable, updateOne } from './shared.ts';

/** UpdateVariables: PUT /crm/{v}/settings/variables (docs/protocol.md §5.9). */
export const updateVariables = operation(
	'PUT',
	'/settings/variables',
	{ scopes: VARIABLES_SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const items = wrapperList(ctx, 'variables', 100);
		const results = eachItem(ctx, items, (raw, index) => {
			const item = (raw && typeof raw === 'object' ? raw : {}) as Json;
			// items carry `id`, or `api_name` to name the variable
			const key =
				item.id !== undefined && item.id !== null
					? String(item.id)
					: typeof item.api_name === 'string'
						? item.api_name
						: undefined;
			const existing = key === undefined ? undefined : findVariable(sandbox, key);
			const body = item.id !== undefined ? raw : { ...item, api_name: undefined };
			return updateOne(ctx, body, index, existing, key);
		});
		return resultsReply('variables', 200, results);
	},
);
