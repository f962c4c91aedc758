import { operation } from '../../router.ts';
import { wrapperList } from '../../wire.ts';
import { eachItem, resultsReply } from '../shared.ts';
import { VARIABLES_SCOPES, fail, findVariable, updateOne } from './shared.ts';

/** UpdateVariableById: PUT /crm/{v}/settings/variables/{key} (docs/protocol.md §5.9). */
export const updateVariableById = operation(
	'PUT',
	'/settings/variables/:key',
	{ scopes: VARIABLES_SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const items = wrapperList(ctx, 'variables', 100);
		const existing = findVariable(sandbox, ctx.params.key);
		// the path names one variable: the first item updates it, further items are refused
		const results = eachItem(ctx, items, (raw, index) =>
			index === 0
				? updateOne(ctx, raw, 0, existing, ctx.params.key)
				: fail(
						ctx,
						index,
						'INVALID_DATA',
						'variables',
						'only one variable can be updated by id or API name',
					),
		);
		return resultsReply('variables', 200, results);
	},
);
