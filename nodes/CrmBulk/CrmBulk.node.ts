import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { methods as sharedMethods } from '../shared/methods';
import { jobPerItemHint } from './resources/shared';
import { crmNodeDescription, OPERATION_SUBTITLE } from '../shared/description/nodeDescription';
import {
	customOperations as resourceOperations,
	resourceProperties,
	resourceSelector,
} from './resources';

export class CrmBulk implements INodeType {
	description: INodeTypeDescription = {
		...crmNodeDescription({
			displayName: 'CRM Bulk',
			name: 'crmBulk',
			description:
				'Export and import CRM records with asynchronous bulk jobs, and store files in the CRM file store',
			properties: [resourceSelector, ...resourceProperties],
			// 1.1: the module picker is a resource locator (From List, By API Name, By URL)
			version: [1, 1.1],
			defaultVersion: 1.1,
			locatorsSince: 1.1,
		}),
		// written here, not in the factory: the community-node lint checks them in this literal
		icon: { light: 'file:../../icons/crmBulk.svg', dark: 'file:../../icons/crmBulk.dark.svg' },
		subtitle: OPERATION_SUBTITLE,
		usableAsTool: true,
		hints: [jobPerItemHint],
	};

	methods = sharedMethods;

	customOperations = resourceOperations;
}
