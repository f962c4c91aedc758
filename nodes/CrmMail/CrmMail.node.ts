import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { crmNodeDescription, OPERATION_SUBTITLE } from '../shared/description/nodeDescription';
import { methods } from './methods';
import {
	customOperations as resourceOperations,
	resourceProperties,
	resourceSelector,
} from './resources';

export class CrmMail implements INodeType {
	description: INodeTypeDescription = {
		...crmNodeDescription({
			displayName: 'CRM Mail',
			name: 'crmMail',
			description: 'Send or schedule emails from CRM records and list the from addresses',
			group: ['output'],
			properties: [resourceSelector, ...resourceProperties],
			// 1.1: the module and record pickers are resource locators (From List, By ID, By URL)
			version: [1, 1.1],
			defaultVersion: 1.1,
			locatorsSince: 1.1,
		}),
		// written here, not in the factory: the community-node lint checks them in this literal
		icon: { light: 'file:../../icons/crmMail.svg', dark: 'file:../../icons/crmMail.dark.svg' },
		subtitle: OPERATION_SUBTITLE,
		usableAsTool: true,
	};

	methods = methods;

	customOperations = resourceOperations;
}
