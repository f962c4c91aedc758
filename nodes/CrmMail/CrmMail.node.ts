import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { crmRequestRunner } from '../shared/transport';
import { methods } from './methods';
import { customOperations as resourceOperations, resourceProperties, resourceSelector } from './resources';

export class CrmMail implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CRM Mail',
		name: 'crmMail',
		icon: { light: 'file:../../icons/crm.svg', dark: 'file:../../icons/crm.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description: 'Send or schedule emails from CRM records and list the from addresses',
		defaults: { name: 'CRM Mail' },
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
		// every routed request goes through the runner: retry, envelope, paging, error mapping
		requestOperations: { pagination: crmRequestRunner },
		properties: [resourceSelector, ...resourceProperties],
	};

	methods = methods;

	customOperations = resourceOperations;
}
