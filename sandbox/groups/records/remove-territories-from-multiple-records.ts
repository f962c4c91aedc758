import { operation } from '../../router.ts';
import { RECORD_WRITE_MAX, territoryEnabled, territoryItem, TERRITORY_OPTIONS } from './shared.ts';
import { writeEach } from '../shared.ts';

/** RemoveTerritoriesFromMultipleRecords: POST /crm/{v}/{module}/actions/remove_territories (v2.1 only; docs/protocol.md §5.1). */
export const removeTerritoriesFromMultipleRecords = operation(
	'POST',
	'/:module/actions/remove_territories',
	TERRITORY_OPTIONS,
	(ctx) => {
		territoryEnabled(ctx);
		return writeEach(ctx, 'data', RECORD_WRITE_MAX, 200, (item, index) =>
			territoryItem(ctx, item, index, undefined, false),
		);
	},
);
