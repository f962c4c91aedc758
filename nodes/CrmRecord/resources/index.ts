import { assembleResources } from '../../shared/description/nodeDescription';

import { attachmentResource } from './attachment';
import { contactRoleResource } from './contactRole';
import { noteResource } from './note';
import { recordResource } from './record';
import { relatedRecordResource } from './relatedRecord';
import { shareResource } from './share';
import { tagResource } from './tag';

/**
 * The node's resources, in selector order: Record first (the node panel groups actions by resource in
 * this order), then the others by name. Adding a resource = one folder + one entry here.
 */
export const resources = [
	recordResource,
	attachmentResource,
	contactRoleResource,
	noteResource,
	relatedRecordResource,
	shareResource,
	tagResource,
];

export const {
	selector: resourceSelector,
	properties: resourceProperties,
	customOperations,
} = assembleResources(resources, 'record');
