import { defineResource } from '../../../shared/description/nodeDescription';

import * as get from './get';
import * as uploadPhoto from './uploadPhoto';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const organizationResource = defineResource(
	{ name: 'Organization', value: 'organization' },
	[get, uploadPhoto],
	'get',
);
