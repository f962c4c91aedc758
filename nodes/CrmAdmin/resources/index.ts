import type { ResourceModule } from '../../shared/node';
import { assembleResources } from '../../shared/node';

import { currencyCustomOperations, currencyDescription } from './currency';
import { organizationDescription } from './organization';
import { profileDescription } from './profile';
import { roleDescription } from './role';
import { taxCustomOperations, taxDescription } from './tax';
import { territoryDescription } from './territory';
import { userCustomOperations, userDescription } from './user';
import { variableCustomOperations, variableDescription } from './variable';
import { variableGroupDescription } from './variableGroup';

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

export const {
	selector: resourceSelector,
	properties: resourceProperties,
	customOperations,
} = assembleResources(resources, 'user');
