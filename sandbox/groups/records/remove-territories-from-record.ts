import { operation } from '../../router.ts';
import { territoryEnabled, territoryItem, TERRITORY_OPTIONS } from './shared.ts';
import { writeEach } from '../shared.ts';

/** RemoveTerritoriesFromRecord: POST /crm/{v}/{module}/{id}/actions/remove_territories (v2.1 only; docs/protocol.md §5.1). */
export const removeTerritoriesFromRecord = operation(
	'POST',
	'/:module/:id/actions/remove_territories',
	TERRITORY_OPTIONS,
	(ctx) => {
		territoryEnabled(ctx);
		return writeEach(ctx, 'data', 1, 200, (item, index) =>
			territoryItem(ctx, item, index, ctx.params.id, false),
		);
	},
);
