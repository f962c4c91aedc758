import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { crmNodeDescription, OPERATION_SUBTITLE } from '../shared/description/nodeDescription';
import { getWatchableModules } from '../shared/changes/watchChannels';
import {
	customOperations as resourceOperations,
	resourceProperties,
	resourceSelector,
} from './resources';

export class CrmNotification implements INodeType {
	description: INodeTypeDescription = {
		...crmNodeDescription({
			displayName: 'CRM Notification',
			name: 'crmNotification',
			description:
				'Manage CRM watch channels yourself: enable, list, update, disable and remove events',
			properties: [resourceSelector, ...resourceProperties],
		}),
		// written here, not in the factory: the community-node lint checks them in this literal
		icon: {
			light: 'file:../../icons/crmNotification.svg',
			dark: 'file:../../icons/crmNotification.dark.svg',
		},
		subtitle: OPERATION_SUBTITLE,
		usableAsTool: true,
	};

	methods = { loadOptions: { getWatchableModules } };

	customOperations = resourceOperations;
}
