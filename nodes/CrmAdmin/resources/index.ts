import { assembleResources } from '../../shared/description/nodeDescription';

import { currencyResource } from './currency';
import { organizationResource } from './organization';
import { profileResource } from './profile';
import { roleResource } from './role';
import { taxResource } from './tax';
import { territoryResource } from './territory';
import { userResource } from './user';
import { variableResource } from './variable';
import { variableGroupResource } from './variableGroup';

/** The node's resources, in selector order. Adding a resource = one folder + one entry here. */
export const resources = [
	currencyResource,
	organizationResource,
	profileResource,
	roleResource,
	taxResource,
	territoryResource,
	userResource,
	variableResource,
	variableGroupResource,
];

export const {
	selector: resourceSelector,
	properties: resourceProperties,
	customOperations,
} = assembleResources(resources, 'user');
