import { operation } from '../../router.ts';
import { unknownId } from '../modules.ts';
import { dealStages, dealsLayout, pipelineJson, pipelinesOf, scopes } from './shared.ts';

/** GetPipeline: GET /crm/{v}/settings/pipeline/{pipelineId} (docs/protocol.md §5.8). */
export const getPipeline = operation(
	'GET',
	'/settings/pipeline/:pipelineId',
	{ scopes: scopes('READ'), v21Only: true },
	(ctx) => {
		const { sandbox } = ctx;
		const layout = dealsLayout(ctx);
		const pipeline = pipelinesOf(sandbox, layout.id).find((p) => p.id === ctx.params.pipelineId);
		if (!pipeline) throw unknownId(ctx, ctx.params.pipelineId);
		return { body: { pipeline: [pipelineJson(pipeline, dealStages(sandbox))] } };
	},
);
