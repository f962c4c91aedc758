import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { methods as sharedMethods } from '../shared/methods';
import { crmNodeDescription, OPERATION_SUBTITLE } from '../shared/description/nodeDescription';
import {
	customOperations as resourceOperations,
	resourceProperties,
	resourceSelector,
} from './resources';

export class CrmAdmin implements INodeType {
	description: INodeTypeDescription = {
		...crmNodeDescription({
			displayName: 'CRM Admin',
			name: 'crmAdmin',
			description:
				'Administer the CRM organization: users, roles, profiles, territories, currencies, taxes and variables',
			properties: [resourceSelector, ...resourceProperties],
		}),
		// written here, not in the factory: the community-node lint checks them in this literal
		icon: { light: 'file:../../icons/crmAdmin.svg', dark: 'file:../../icons/crmAdmin.dark.svg' },
		subtitle: OPERATION_SUBTITLE,
		usableAsTool: true,
	};

	methods = sharedMethods;

	customOperations = resourceOperations;
}
