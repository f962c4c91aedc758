import { operation } from '../../router.ts';
import { wrapperList } from '../../wire.ts';
import { unknownId } from '../modules.ts';
import { eachItem, resultsReply } from '../shared.ts';
import { PIPELINE_KEY, dealsLayout, pipelinesOf, scopes, writePipeline } from './shared.ts';

/** UpdatePipeline: PUT /crm/{v}/settings/pipeline/{pipelineId} (docs/protocol.md §5.8). */
export const updatePipeline = operation(
	'PUT',
	'/settings/pipeline/:pipelineId',
	{ scopes: scopes('UPDATE'), v21Only: true },
	(ctx) => {
		const { sandbox } = ctx;
		const layout = dealsLayout(ctx);
		const items = wrapperList(ctx, PIPELINE_KEY, 1);
		if (!pipelinesOf(sandbox, layout.id).some((p) => p.id === ctx.params.pipelineId))
			throw unknownId(ctx, ctx.params.pipelineId);
		const results = eachItem(ctx, items, (item, index) =>
			writePipeline(
				ctx,
				layout,
				item,
				{ index, key: PIPELINE_KEY },
				'update',
				ctx.params.pipelineId,
			),
		);
		return resultsReply('pipeline', 200, results);
	},
);
