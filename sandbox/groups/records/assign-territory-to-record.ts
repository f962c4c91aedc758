import { operation } from '../../router.ts';
import { territoryEnabled, territoryItem, TERRITORY_OPTIONS } from './shared.ts';
import { writeEach } from '../shared.ts';

/** AssignTerritoryToRecord: POST /crm/{v}/{module}/{id}/actions/assign_territories (v2.1 only; docs/protocol.md §5.1). */
export const assignTerritoryToRecord = operation(
	'POST',
	'/:module/:id/actions/assign_territories',
	TERRITORY_OPTIONS,
	(ctx) => {
		territoryEnabled(ctx);
		return writeEach(ctx, 'data', 1, 200, (item, index) =>
			territoryItem(ctx, item, index, ctx.params.id, true),
		);
	},
);
