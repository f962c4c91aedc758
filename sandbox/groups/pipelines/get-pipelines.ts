import { operation } from '../../router.ts';
import { dealStages, dealsLayout, pipelineJson, pipelinesOf, scopes } from './shared.ts';

/** GetPipelines: GET /crm/{v}/settings/pipeline (docs/protocol.md §5.8). */
export const getPipelines = operation(
	'GET',
	'/settings/pipeline',
	{ scopes: scopes('READ'), v21Only: true },
	(ctx) => {
		const { sandbox } = ctx;
		const layout = dealsLayout(ctx);
		const stages = dealStages(sandbox);
		const pipelines = pipelinesOf(sandbox, layout.id);
		if (pipelines.length === 0) return { status: 204 };
		return { body: { pipeline: pipelines.map((p) => pipelineJson(p, stages)) } };
	},
);
