import { operation } from '../../router.ts';
import { idsParam } from '../../wire.ts';
import { eachItem, resultsReply } from '../shared.ts';
import { VARIABLES_SCOPES, deleteOne } from './shared.ts';

/** DeleteVariables: DELETE /crm/{v}/settings/variables (docs/protocol.md §5.9). */
export const deleteVariables = operation(
	'DELETE',
	'/settings/variables',
	{ scopes: VARIABLES_SCOPES },
	(ctx) => {
		const ids = idsParam(ctx, 'ids', 100, true)!;
		const results = eachItem(ctx, ids, (key) => deleteOne(ctx.sandbox, key));
		return resultsReply('variables', 200, results);
	},
);
