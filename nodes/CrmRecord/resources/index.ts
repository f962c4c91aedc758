import type { ResourceModule } from '../../shared/node';
import { assembleResources } from '../../shared/node';

import { attachmentCustomOperations, attachmentDescription } from './attachment';
import { contactRoleCustomOperations, contactRoleDescription } from './contactRole';
import { noteCustomOperations, noteDescription } from './note';
import { recordCustomOperations, recordDescription } from './record';
import { relatedRecordCustomOperations, relatedRecordDescription } from './relatedRecord';
import { shareDescription } from './share';
import { tagCustomOperations, tagDescription } from './tag';

/** The node's resources, in selector order. Adding a resource = one folder + one entry here. */
export const resources: ResourceModule[] = [
	{ option: { name: 'Attachment', value: 'attachment' }, description: attachmentDescription, customOperations: attachmentCustomOperations },
	{ option: { name: 'Contact Role', value: 'contactRole' }, description: contactRoleDescription, customOperations: contactRoleCustomOperations },
	{ option: { name: 'Note', value: 'note' }, description: noteDescription, customOperations: noteCustomOperations },
	{ option: { name: 'Record', value: 'record' }, description: recordDescription, customOperations: recordCustomOperations },
	{
		option: { name: 'Related Record', value: 'relatedRecord' },
		description: relatedRecordDescription,
		customOperations: relatedRecordCustomOperations,
	},
	{ option: { name: 'Share', value: 'share' }, description: shareDescription },
	{ option: { name: 'Tag', value: 'tag' }, description: tagDescription, customOperations: tagCustomOperations },
];

export const {
	selector: resourceSelector,
	properties: resourceProperties,
	customOperations,
} = assembleResources(resources, 'record');
