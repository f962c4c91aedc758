import type { INodeProperties } from 'n8n-workflow';

import * as get from './get';
import * as getAll from './getAll';

const operations = [get, getAll];

export const variableGroupDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['variableGroup'] } },
		options: operations.map((op) => op.operation),
		default: 'getAll',
	},
	...operations.flatMap((op) => op.description),
];
