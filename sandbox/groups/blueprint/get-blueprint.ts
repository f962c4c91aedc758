import type { StoredModule } from '../../metadata.ts';
import { operation } from '../../router.ts';
import { RECORD_SCOPES } from '../records/index.ts';
import {
	available,
	notInProcess,
	processInfo,
	recordOf,
	runningProcess,
	transitionJson,
} from './shared.ts';

/** GetBlueprint: GET /crm/{v}/{module}/{id}/actions/blueprint (docs/protocol.md §5.8). */
export const getBlueprint = operation(
	'GET',
	'/:module/:id/actions/blueprint',
	{ scopes: RECORD_SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const module = ctx.module as StoredModule;
		const record = recordOf(ctx);
		const running = runningProcess(sandbox, module.api_name, record);
		if (!running) throw notInProcess(ctx, record.id);
		const { process } = running;
		return {
			body: {
				blueprint: {
					process_info: processInfo(module, process, record),
					transitions: available(process, record).map((t) =>
						transitionJson(module, process, t, record, ctx.v),
					),
				},
			},
		};
	},
);
