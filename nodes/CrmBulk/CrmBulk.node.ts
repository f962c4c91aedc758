import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { methods as sharedMethods } from '../shared/methods';
import { crmRequestRunner } from '../shared/transport';
import { customOperations as resourceOperations, resourceProperties, resourceSelector } from './resources';

export class CrmBulk implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CRM Bulk',
		name: 'crmBulk',
		icon: { light: 'file:../../icons/crm.svg', dark: 'file:../../icons/crm.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description: 'Export and import CRM records with asynchronous bulk jobs, and store files in the CRM file store',
		defaults: { name: 'CRM Bulk' },
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
		// every routed request goes through the runner: retry, envelope, error mapping
		requestOperations: { pagination: crmRequestRunner },
		properties: [resourceSelector, ...resourceProperties],
	};

	methods = sharedMethods;

	customOperations = resourceOperations;
}
