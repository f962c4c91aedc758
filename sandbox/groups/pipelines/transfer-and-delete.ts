import { operation } from '../../router.ts';
import { wrapperList } from '../../wire.ts';
import { eachItem, resultsReply } from '../shared.ts';
import { PIPELINE_WRITE_MAX, dealsLayout, scopes, transfer } from './shared.ts';

/** TransferAndDelete: POST /crm/{v}/settings/pipeline/actions/transfer (docs/protocol.md §5.8). */
export const transferAndDelete = operation(
	'POST',
	'/settings/pipeline/actions/transfer',
	{ scopes: scopes('UPDATE'), v21Only: true },
	(ctx) => {
		const layout = dealsLayout(ctx);
		const items = wrapperList(ctx, 'transfer_pipeline', PIPELINE_WRITE_MAX);
		const results = eachItem(ctx, items, (item, index) =>
			transfer(ctx, layout, item, { index, key: 'transfer_pipeline' }),
		);
		return resultsReply('transfer_pipeline', 202, results);
	},
);
