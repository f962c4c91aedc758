import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { methods as sharedMethods } from '../shared/methods';
import { crmNodeDescription, OPERATION_SUBTITLE } from '../shared/description/nodeDescription';
import {
	customOperations as resourceOperations,
	resourceProperties,
	resourceSelector,
} from './resources';

export class CrmMetadata implements INodeType {
	description: INodeTypeDescription = {
		...crmNodeDescription({
			displayName: 'CRM Metadata',
			name: 'crmMetadata',
			description:
				'Read and change CRM settings: modules, fields, layouts, views, templates, pipelines and blueprints',
			properties: [resourceSelector, ...resourceProperties],
			// 1.1: the module and record pickers are resource locators (From List, By API Name / By ID, By URL)
			version: [1, 1.1],
			defaultVersion: 1.1,
			locatorsSince: 1.1,
		}),
		// written here, not in the factory: the community-node lint checks them in this literal
		icon: {
			light: 'file:../../icons/crmMetadata.svg',
			dark: 'file:../../icons/crmMetadata.dark.svg',
		},
		subtitle: OPERATION_SUBTITLE,
		usableAsTool: true,
	};

	methods = sharedMethods;

	customOperations = resourceOperations;
}
