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

/**
 * The client fields of this version: shown while the hidden `clientId` holds its expression (n8n
 * shows a field whose condition reads an expression), hidden for a credential of version 0.1, whose
 * literal client id n8n keeps using. No `regex` condition: n8n evaluates these conditions each time
 * it resolves the credential, before every request, and runs a regex condition in a guard that
 * fails the request when the regex takes 250 ms of wall time, which a loaded machine reaches.
 */
const SHOWN_WITH_NEW_CLIENT: INodeProperties['displayOptions'] = {
	show: { clientId: [{ _cnd: { startsWith: '=' } }] },
};

export class CrmOAuth2Api implements ICredentialType {
	name = 'crmOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'CRM OAuth2 API';

	icon: Icon = { light: 'file:../icons/crm.svg', dark: 'file:../icons/crm.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-crm-service/n8n-nodes-crm-service#credentials';

	// No `httpRequestNode`: n8n (2.40.7) hides that credential-only HTTP Request entry for every
	// package credential that has nodes of its own. Custom calls still work: HTTP Request →
	// Predefined Credential Type lists this type because it extends oAuth2Api.

	properties: INodeProperties[] = [
		{
			// A credential created from the registry package must not point at a local machine: the
			// service's accounts server is asked for, the sandbox is an explicit choice. Credential data
			// without this field (e.g. created through n8n's API) means the default, 'service'.
			displayName: 'Server',
			name: 'environment',
			type: 'options',
			description:
				'Where you sign in: your CRM service, or a local sandbox for trying workflows out',
			options: [
				{
					name: 'CRM Service',
					value: 'service',
					description: 'Sign in to your CRM account on the accounts server of your CRM service',
				},
				{
					name: 'Sandbox (Local)',
					value: 'sandbox',
					description:
						'A local CRM sandbox with demo data, for trying workflows without a CRM account',
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
				"Accounts server of your CRM account's data centre: the address of the page where you sign in to the CRM (for an account in another data centre, e.g. https://accounts.crm.example.eu). After you connect, n8n calls the API address your account belongs to.",
			displayOptions: { show: { environment: ['service'] } },
		},
		{
			displayName:
				"Create the OAuth client (a server-based application) in the developer console of your account's data centre: each data centre has its own, reached from its accounts server, the address where you sign in: https://accounts.crm.example for the default data centre, https://accounts.crm.example.eu for the EU one (likewise .in, .au, …). Register n8n's <b>OAuth Redirect URL</b> shown on this form as its redirect URI, copy its Client ID and Client Secret here, and that accounts server as the Accounts URL.",
			name: 'serviceSetupNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { environment: ['service'] } },
		},
		{
			displayName: 'Sandbox URL',
			name: 'sandboxUrl',
			type: 'string',
			default: 'http://localhost:4010',
			placeholder: 'http://localhost:4010',
			description: 'Address of the local CRM sandbox; you also sign in there',
			displayOptions: { show: { environment: ['sandbox'] } },
		},
		{
			displayName:
				'This credential was saved by version 0.1 of the package and keeps the Client ID, Client Secret and Scope saved with it. To use another OAuth client, create a new credential.',
			name: 'savedClientNotice',
			type: 'notice',
			default: '',
			displayOptions: { hide: { clientId: [{ _cnd: { startsWith: '=' } }] } },
		},
		{
			displayName: 'Client ID',
			name: 'crmClientId',
			type: 'string',
			default: '',
			required: true,
			description:
				"The OAuth client's ID from the CRM's developer console; any value for the sandbox",
			displayOptions: SHOWN_WITH_NEW_CLIENT,
		},
		{
			displayName: 'Client Secret',
			name: 'crmClientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"The OAuth client's secret from the CRM's developer console; any value for the sandbox",
			displayOptions: SHOWN_WITH_NEW_CLIENT,
		},
		{
			// the bulk-write upload goes to a content host of its own (docs/protocol.md §1.1)
			displayName: 'Upload URL',
			name: 'uploadUrl',
			type: 'string',
			default: '',
			placeholder: 'https://content.crm.example',
			hint: "Needed for Bulk Write uploads (the service refuses them on the API address): the content host of your account's data centre, https://content.crm.example when your API address is https://api.crm.example, https://content.eu.crm.example for https://api.eu.crm.example (likewise in, au, …)",
			description:
				'Address of the upload host of your data centre, where Bulk Write uploads its files; other operations do not use it',
			displayOptions: { show: { environment: ['service'] } },
		},
		{
			displayName: 'Sandbox Upload URL',
			name: 'sandboxUploadUrl',
			type: 'string',
			default: '',
			hint: 'Empty: the Sandbox URL with the next port (4011 for 4010), where the sandbox takes uploads unless started otherwise',
			description: 'Address where the local sandbox takes Bulk Write file uploads',
			displayOptions: { show: { environment: ['sandbox'] } },
		},
		{
			displayName: 'API Variant',
			name: 'apiVariant',
			type: 'options',
			options: [
				{ name: 'v2.1 — All Operations', value: 'v2.1' },
				{ name: 'v2 — Older Model', value: 'v2' },
			],
			default: 'v2.1',
			description:
				'Version of the CRM API every call uses. Keep v2.1 unless your CRM account only offers v2; some operations need v2.1.',
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
			default:
				'={{ (($self.environment === "sandbox" ? $self.sandboxUrl : $self.accountsUrl) || "").replace(/\\/+$/, "") }}/oauth/v2/auth',
			required: true,
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default:
				'={{ (($self.environment === "sandbox" ? $self.sandboxUrl : $self.accountsUrl) || "").replace(/\\/+$/, "") }}/oauth/v2/token',
			required: true,
		},
		{
			displayName: 'Scope',
			name: 'crmScope',
			type: 'string',
			default: DEFAULT_SCOPES.join(','),
			description:
				'Permissions n8n asks your CRM account for, separated by commas. The default lets every CRM node work; with fewer, some operations are refused.',
			displayOptions: SHOWN_WITH_NEW_CLIENT,
		},
		// n8n keeps a field that oAuth2Api also defines in oAuth2Api's place, before every field of
		// this credential, and reads the OAuth client from these names: they stay, hidden, and take
		// the values of the fields above, so that the form reads Server, its URL, then the client.
		// Credentials saved by version 0.1 hold literal values here, which n8n keeps using.
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'hidden',
			default: '={{ $self.crmClientId }}',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'hidden',
			// a secret saved by version 0.1 stays redacted when n8n sends the credential to the editor
			typeOptions: { password: true },
			default: '={{ $self.crmClientSecret }}',
		},
		{
			// hidden, n8n replaces a saved scope by this default when it starts a sign-in
			displayName: 'Scope',
			name: 'scope',
			type: 'hidden',
			default: `={{ $self.crmScope || "${DEFAULT_SCOPES.join(',')}" }}`,
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
