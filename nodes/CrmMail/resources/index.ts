import type { ResourceModule } from '../../shared/node';
import { assembleResources } from '../../shared/node';

import { fromAddressDescription } from './fromAddress';
import { mailCustomOperations, mailDescription } from './mail';

/** The node's resources, in selector order. */
export const resources: ResourceModule[] = [
	{ option: { name: 'Mail', value: 'mail' }, description: mailDescription, customOperations: mailCustomOperations },
	{ option: { name: 'From Address', value: 'fromAddress' }, description: fromAddressDescription },
];

export const {
	selector: resourceSelector,
	properties: resourceProperties,
	customOperations,
} = assembleResources(resources, 'mail');
