import { operation } from '../../router.ts';
import { wrapperList } from '../../wire.ts';
import { eachItem, resultsReply } from '../shared.ts';
import { PIPELINE_KEY, PIPELINE_WRITE_MAX, dealsLayout, scopes, writePipeline } from './shared.ts';

/** CreatePipelines: POST /crm/{v}/settings/pipeline (docs/protocol.md §5.8). */
export const createPipelines = operation(
	'POST',
	'/settings/pipeline',
	{ scopes: scopes('CREATE'), v21Only: true },
	(ctx) => {
		const layout = dealsLayout(ctx);
		const items = wrapperList(ctx, PIPELINE_KEY, PIPELINE_WRITE_MAX);
		const results = eachItem(ctx, items, (item, index) =>
			writePipeline(ctx, layout, item, { index, key: PIPELINE_KEY }, 'create'),
		);
		return resultsReply('pipeline', 201, results);
	},
);
