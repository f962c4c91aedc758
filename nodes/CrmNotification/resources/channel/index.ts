import { defineResource } from '../../../shared/description/nodeDescription';

import * as disable from './disable';
import * as enable from './enable';
import * as getAll from './getAll';
import * as removeEvents from './removeEvents';
import * as update from './update';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const channelResource = defineResource(
	{ name: 'Channel', value: 'channel' },
	[disable, enable, getAll, removeEvents, update],
	'getAll',
);
