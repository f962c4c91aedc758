import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { currencyCustomOperations, currencyDescription } from './currency';
import { organizationDescription } from './organization';
import { profileDescription } from './profile';
import { roleDescription } from './role';
import { taxCustomOperations, taxDescription } from './tax';
import { territoryDescription } from './territory';
import { userCustomOperations, userDescription } from './user';
import { variableCustomOperations, variableDescription } from './variable';
import { variableGroupDescription } from './variableGroup';

type CustomOperation = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/** One resource of the node: its selector option, its properties, and its batched operations. */
export interface ResourceModule {
	option: INodePropertyOptions;
	description: INodeProperties[];
	customOperations?: Record<string, CustomOperation>;
}

/** The node's resources, in selector order. Adding a resource = one folder + one entry here. */
export const resources: ResourceModule[] = [
	{ option: { name: 'Currency', value: 'currency' }, description: currencyDescription, customOperations: currencyCustomOperations },
	{ option: { name: 'Organization', value: 'organization' }, description: organizationDescription },
	{ option: { name: 'Profile', value: 'profile' }, description: profileDescription },
	{ option: { name: 'Role', value: 'role' }, description: roleDescription },
	{ option: { name: 'Tax', value: 'tax' }, description: taxDescription, customOperations: taxCustomOperations },
	{ option: { name: 'Territory', value: 'territory' }, description: territoryDescription },
	{ option: { name: 'User', value: 'user' }, description: userDescription, customOperations: userCustomOperations },
	{ option: { name: 'Variable', value: 'variable' }, description: variableDescription, customOperations: variableCustomOperations },
	{ option: { name: 'Variable Group', value: 'variableGroup' }, description: variableGroupDescription },
];

export const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: resources.map((r) => r.option),
	default: 'user',
	// every routed operation goes through the node's request runner (see shared/transport/runner.ts)
	routing: { send: { paginate: true } },
};

export const resourceProperties: INodeProperties[] = resources.flatMap((r) => r.description);

export const customOperations: Record<string, Record<string, CustomOperation>> = Object.fromEntries(
	resources.filter((r) => r.customOperations).map((r) => [r.option.value as string, r.customOperations!]),
);
