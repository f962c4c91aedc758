// Pipelines (docs/protocol.md §5.8, v2.1 only): GetPipelines, CreatePipelines, UpdatePipelines,
// GetPipeline, UpdatePipeline, TransferAndDelete, one file each. Every route takes `layout_id`, a
// Deals layout. Pipelines are documents of the collection `pipelines`; their stages (`maps`) are
// values of the Deals `Stage` picklist, with stable ids (field id digits + `7` + picklist index).
// Seeded once: "Standard" (default, every stage) and "Enterprise" on the Deals Standard layout,
// "Standard" on "Partner Deals". The Deals `Pipeline` picklist follows the pipeline names (union
// over layouts).
// **Assumed**: TransferAndDelete answers 202 and has already moved the deals (pipeline and mapped
// stage) and deleted the source pipeline when the response is sent; renaming a pipeline renames
// the `Pipeline` value of its deals; the default pipeline cannot be transferred away or un-defaulted.
// Helpers, the seed and the item checks in shared.ts.
import type { Router } from '../../router.ts';
import type { Sandbox } from '../../types.ts';
import { seedOnce } from '../shared.ts';
import { createPipelines } from './create-pipelines.ts';
import { getPipeline } from './get-pipeline.ts';
import { getPipelines } from './get-pipelines.ts';
import { seedPipelines } from './shared.ts';
import { transferAndDelete } from './transfer-and-delete.ts';
import { updatePipeline } from './update-pipeline.ts';
import { updatePipelines } from './update-pipelines.ts';

export function registerPipelines(router: Router, sandbox: Sandbox): void {
	seedOnce(sandbox, 'pipelines', seedPipelines);
	router.register([
		getPipelines,
		getPipeline,
		createPipelines,
		updatePipelines,
		updatePipeline,
		transferAndDelete,
	]);
}
