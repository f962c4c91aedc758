import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { attachmentCustomOperations, attachmentDescription } from './attachment';
import { contactRoleCustomOperations, contactRoleDescription } from './contactRole';
import { noteCustomOperations, noteDescription } from './note';
import { recordCustomOperations, recordDescription } from './record';
import { relatedRecordCustomOperations, relatedRecordDescription } from './relatedRecord';
import { shareDescription } from './share';
import { tagCustomOperations, tagDescription } from './tag';

type CustomOperation = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/** One resource of the node: its selector option, its properties, and its batched operations. */
export interface ResourceModule {
	option: INodePropertyOptions;
	description: INodeProperties[];
	customOperations?: Record<string, CustomOperation>;
}

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

export const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: resources.map((r) => r.option),
	default: 'record',
	// every routed operation goes through the node's request runner (see shared/transport/runner.ts)
	routing: { send: { paginate: true } },
};

export const resourceProperties: INodeProperties[] = resources.flatMap((r) => r.description);

export const customOperations: Record<string, Record<string, CustomOperation>> = Object.fromEntries(
	resources.filter((r) => r.customOperations).map((r) => [r.option.value as string, r.customOperations!]),
);
