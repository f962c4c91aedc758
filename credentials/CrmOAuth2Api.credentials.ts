import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/** Default scopes of docs/protocol.md §2.3: every node of the package works with this list. */
export const DEFAULT_SCOPES = [
	'CRM.modules.ALL',
	'CRM.settings.ALL',
	'CRM.users.ALL',
	'CRM.org.ALL',
	'CRM.bulk.ALL',
	'CRM.coql.READ',
	'CRM.notifications.ALL',
	'CRM.send_mail.all.CREATE',
	'CRM.share.ALL',
	'CRM.mass_update.ALL',
	'CRM.templates.email.READ',
	'CRM.templates.inventory.READ',
	'CRM.files.ALL',
];

export class CrmOAuth2Api implements ICredentialType {
	name = 'crmOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'CRM OAuth2 API';

	icon: Icon = { light: 'file:../icons/crm.svg', dark: 'file:../icons/crm.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-crm-service/n8n-nodes-crm-service#credentials';

	properties: INodeProperties[] = [
		{
			// A credential created from the registry package must not point at a local machine: the
			// service's accounts server is asked for, the sandbox is an explicit choice. Credentials
			// saved before this field existed have only `accountsUrl` and get the default, 'service'.
			displayName: 'Server',
			name: 'environment',
			type: 'options',
			options: [
				{
					name: 'CRM Service',
					value: 'service',
					description: "Your CRM service's accounts server",
				},
				{
					name: 'Sandbox (Local)',
					value: 'sandbox',
					description: 'The local sandbox of this package ("npm run sandbox")',
				},
			],
			default: 'service',
		},
		{
			displayName: 'Accounts URL',
			name: 'accountsUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://accounts.crm.example',
			description:
				'Origin of the CRM OAuth server of your service. API calls go to the api_domain the token response names.',
			displayOptions: { show: { environment: ['service'] } },
		},
		{
			displayName: 'Sandbox URL',
			name: 'sandboxUrl',
			type: 'string',
			default: 'http://localhost:4010',
			placeholder: 'http://localhost:4010',
			description: 'Origin of the local sandbox started by "npm run sandbox" (it is also its OAuth server)',
			displayOptions: { show: { environment: ['sandbox'] } },
		},
		{
			displayName: 'API Variant',
			name: 'apiVariant',
			type: 'options',
			options: [
				{ name: 'v2.1 (Richer Model, All Operations)', value: 'v2.1' },
				{ name: 'V2', value: 'v2' },
			],
			default: 'v2.1',
			description: 'API version path segment used for every call',
		},
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'hidden',
			default: 'authorizationCode',
		},
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'hidden',
			default: '={{ (($self.environment === "sandbox" ? $self.sandboxUrl : $self.accountsUrl) || "").replace(/\\/+$/, "") }}/oauth/v2/auth',
			required: true,
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: '={{ (($self.environment === "sandbox" ? $self.sandboxUrl : $self.accountsUrl) || "").replace(/\\/+$/, "") }}/oauth/v2/token',
			required: true,
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'string',
			default: DEFAULT_SCOPES.join(','),
			description: 'Comma-separated scopes to request; the default covers every node of this package',
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			// access_type=offline is what makes the server issue a refresh token (§2.1)
			default: 'access_type=offline&prompt=consent',
		},
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'body',
		},
	];
}
