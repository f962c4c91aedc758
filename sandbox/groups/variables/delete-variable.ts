import { operation } from '../../router.ts';
import { resultsReply } from '../shared.ts';
import { VARIABLES_SCOPES, deleteOne } from './shared.ts';

/** DeleteVariable: DELETE /crm/{v}/settings/variables/{key} (docs/protocol.md §5.9). */
export const deleteVariable = operation(
	'DELETE',
	'/settings/variables/:key',
	{ scopes: VARIABLES_SCOPES },
	(ctx) => {
		const { store } = ctx.sandbox;
		const results = store.transaction(() => [deleteOne(ctx.sandbox, ctx.params.key)]);
		return resultsReply('variables', 200, results);
	},
);
