import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { crmRequestRunner } from '../shared/transport';
import { resourceProperties, resourceSelector } from './resources';

export class CrmQuery implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CRM Query',
		name: 'crmQuery',
		icon: { light: 'file:../../icons/crm.svg', dark: 'file:../../icons/crm.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description: 'Run select-style queries (COQL) over CRM records',
		defaults: { name: 'CRM Query' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'crmOAuth2Api', required: true }],
		requestDefaults: {
			baseURL:
				'={{ ($credentials.oauthTokenData && $credentials.oauthTokenData.api_domain || $credentials.accountsUrl).replace(/\\/+$/, "") }}/crm/{{ $credentials.apiVariant || "v2.1" }}',
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			json: true,
		},
		// node-level runner for routed requests; Query pages by LIMIT/OFFSET with its own
		// routing.operations.pagination (resources/query/run.ts), which takes precedence
		requestOperations: { pagination: crmRequestRunner },
		properties: [resourceSelector, ...resourceProperties],
	};
}
