import type { ResourceModule } from '../../shared/node';
import { assembleResources } from '../../shared/node';

import { bulkReadCustomOperations, bulkReadDescription } from './bulkRead';
import { bulkWriteCustomOperations, bulkWriteDescription } from './bulkWrite';
import { fileCustomOperations, fileDescription } from './file';

/** The node's resources, in selector order. Adding a resource = one folder + one entry here. */
export const resources: ResourceModule[] = [
	{ option: { name: 'Bulk Read', value: 'bulkRead' }, description: bulkReadDescription, customOperations: bulkReadCustomOperations },
	{ option: { name: 'Bulk Write', value: 'bulkWrite' }, description: bulkWriteDescription, customOperations: bulkWriteCustomOperations },
	{ option: { name: 'File', value: 'file' }, description: fileDescription, customOperations: fileCustomOperations },
];

export const {
	selector: resourceSelector,
	properties: resourceProperties,
	customOperations,
} = assembleResources(resources, 'bulkRead');
