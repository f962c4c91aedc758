import { assembleResources } from '../../shared/description/nodeDescription';

import { fromAddressResource } from './fromAddress';
import { mailResource } from './mail';

/** The node's resources, in selector order. Adding a resource = one folder + one entry here. */
export const resources = [mailResource, fromAddressResource];

export const {
	selector: resourceSelector,
	properties: resourceProperties,
	customOperations,
} = assembleResources(resources, 'mail');
