import { defineResource } from '../../../shared/description/nodeDescription';

import * as get from './get';
import * as upload from './upload';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const fileResource = defineResource(
	{ name: 'File', value: 'file' },
	[get, upload],
	'upload',
);
