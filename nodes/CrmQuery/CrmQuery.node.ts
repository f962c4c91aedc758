import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { crmNodeDescription, OPERATION_SUBTITLE } from '../shared/description/nodeDescription';
import { resourceProperties, resourceSelector } from './resources';

export class CrmQuery implements INodeType {
	description: INodeTypeDescription = {
		...crmNodeDescription({
			displayName: 'CRM Query',
			name: 'crmQuery',
			description: 'Run select-style queries (COQL) over CRM records',
			// the shared request runner; Query declares its own paging (COQL LIMIT/OFFSET, resources/query/run.ts)
			properties: [resourceSelector, ...resourceProperties],
		}),
		// written here, not in the factory: the community-node lint checks them in this literal
		icon: { light: 'file:../../icons/crmQuery.svg', dark: 'file:../../icons/crmQuery.dark.svg' },
		subtitle: OPERATION_SUBTITLE,
		usableAsTool: true,
	};
}
