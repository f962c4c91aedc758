import type { INodeProperties } from 'n8n-workflow';

import * as get from './get';
import * as uploadPhoto from './uploadPhoto';

const operations = [get, uploadPhoto];

export const organizationDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['organization'] } },
		options: operations.map((op) => op.operation),
		default: 'get',
	},
	...operations.flatMap((op) => op.description),
];
