import type { INodeProperties } from 'n8n-workflow';

import * as run from './run';

const operations = [run];

export const queryDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['query'] } },
		options: operations.map((op) => op.operation),
		default: 'run',
	},
	...operations.flatMap((op) => op.description),
];
