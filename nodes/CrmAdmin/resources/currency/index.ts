import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import * as create from './create';
import * as enableMultiCurrency from './enableMultiCurrency';
import * as get from './get';
import * as getAll from './getAll';
import * as update from './update';
import * as updateBaseCurrency from './updateBaseCurrency';

const operations = [create, enableMultiCurrency, get, getAll, update, updateBaseCurrency];

export const currencyDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['currency'] } },
		options: operations.map((op) => op.operation),
		default: 'getAll',
	},
	...operations.flatMap((op) => op.description),
];

/** Writes that send many input items per request run as custom operations. */
export const currencyCustomOperations: Record<string, (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>> = {
	create: create.execute,
	update: update.execute,
};
