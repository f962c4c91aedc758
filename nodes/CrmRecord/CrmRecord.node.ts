import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { methods as sharedMethods } from '../shared/methods';
import { crmNodeDescription, OPERATION_SUBTITLE } from '../shared/description/nodeDescription';
import {
	customOperations as resourceOperations,
	resourceProperties,
	resourceSelector,
} from './resources';

export class CrmRecord implements INodeType {
	description: INodeTypeDescription = {
		...crmNodeDescription({
			displayName: 'CRM Record',
			name: 'crmRecord',
			description: 'Create, read, update and delete CRM records and their related data',
			properties: [resourceSelector, ...resourceProperties],
			// 1.1: Create / Update / Create or Update output the full record by default
			// 1.2: module and record pickers are resource locators (From List, By ID, By URL)
			version: [1, 1.1, 1.2],
			defaultVersion: 1.2,
			locatorsSince: 1.2,
		}),
		// written here, not in the factory: the community-node lint checks them in this literal
		icon: { light: 'file:../../icons/crmRecord.svg', dark: 'file:../../icons/crmRecord.dark.svg' },
		subtitle: OPERATION_SUBTITLE,
		usableAsTool: true,
	};

	methods = sharedMethods;

	customOperations = resourceOperations;
}
