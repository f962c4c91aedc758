import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll';

const operations = [getAll];

export const fromAddressDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['fromAddress'] } },
		options: operations.map((op) => op.operation),
		default: 'getAll',
	},
	...operations.flatMap((op) => op.description),
];
