import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { methods as sharedMethods } from '../shared/methods';
import { crmRequestRunner } from '../shared/transport';
import { customOperations as resourceOperations, resourceProperties, resourceSelector } from './resources';

export class CrmMetadata implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CRM Metadata',
		name: 'crmMetadata',
		icon: { light: 'file:../../icons/crm.svg', dark: 'file:../../icons/crm.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description: 'Read and change CRM settings: modules, fields, layouts, views, templates, pipelines and blueprints',
		defaults: { name: 'CRM Metadata' },
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

	methods = sharedMethods;

	customOperations = resourceOperations;
}
