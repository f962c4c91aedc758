import { defineResource } from '../../../shared/description/nodeDescription';

import * as get from './get';
import * as revoke from './revoke';
import * as share from './share';
import * as update from './update';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const shareResource = defineResource(
	{ name: 'Share', value: 'share' },
	[get, revoke, share, update],
	'get',
);
