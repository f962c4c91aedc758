import { defineResource } from '../../../shared/description/nodeDescription';

import * as create from './create';
import * as get from './get';
import * as getAll from './getAll';
import * as transferAndDelete from './transferAndDelete';
import * as update from './update';
import * as updateMany from './updateMany';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const pipelineResource = defineResource(
	{ name: 'Pipeline', value: 'pipeline' },
	[create, get, getAll, transferAndDelete, update, updateMany],
	'getAll',
);
