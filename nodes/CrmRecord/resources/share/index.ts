import type { INodeProperties } from 'n8n-workflow';

import * as get from './get';
import * as revoke from './revoke';
import * as share from './share';
import * as update from './update';

const operations = [get, revoke, share, update];

export const shareDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['share'] } },
		options: operations.map((op) => op.operation),
		default: 'get',
	},
	...operations.flatMap((op) => op.description),
];
