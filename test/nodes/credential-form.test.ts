/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
// The CRM credential's form as n8n 2.40.7 lays it out: the fields of each parent in `extends`
// order (a field redefined by a later one keeps its place), then the credential's new fields
// (NodeHelpers.mergeNodeProperties, as n8n's credentials helper and editor do). oAuth2Api is read
// from the installed n8n (N8N_RUNTIME_DIR), not copied here.
import { existsSync } from 'node:fs';
import path from 'node:path';

import type { ICredentialType, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { CrmOAuth2Api } from '../../credentials/CrmOAuth2Api.credentials';

const RUNTIME = path.resolve(process.env.N8N_RUNTIME_DIR ?? path.join(__dirname, '..', '..', '.n8n-runtime'));
const OAUTH2 = path.join(RUNTIME, 'node_modules', 'n8n-nodes-base', 'dist', 'credentials', 'OAuth2Api.credentials.js');

const types: Record<string, ICredentialType> = { crmOAuth2Api: new CrmOAuth2Api() };

function formFields(name: string): INodeProperties[] {
	const type = types[name];
	if (!type.extends) return [...type.properties];
	const fields: INodeProperties[] = [];
	for (const parent of type.extends) NodeHelpers.mergeNodeProperties(fields, formFields(parent));
	NodeHelpers.mergeNodeProperties(fields, type.properties);
	return fields;
}

/** Is the field shown for these values (hidden type and displayOptions as n8n reads them)? */
function shown(field: INodeProperties, values: Record<string, unknown>): boolean {
	if (field.type === 'hidden') return false;
	return NodeHelpers.displayParameter(values as never, field, null);
}

describe('the CRM credential form (n8n\'s field order)', () => {
	beforeAll(() => {
		if (!existsSync(OAUTH2)) throw new Error(`n8n's OAuth2 credential is not installed at ${OAUTH2}: set N8N_RUNTIME_DIR (npm run n8n:install)`);
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { OAuth2Api } = require(OAUTH2) as { OAuth2Api: new () => ICredentialType };
		types.oAuth2Api = new OAuth2Api();
	});

	const visible = (values: Record<string, unknown>) => {
		const fields = formFields('crmOAuth2Api');
		const defaults = Object.fromEntries(fields.map((f) => [f.name, f.default]));
		return fields.filter((f) => shown(f, { ...defaults, ...values })).map((f) => f.name);
	};

	// n8n keeps a redefined field in its parent's place and puts new fields after the parent's: the
	// oAuth2Api fields (Client ID, Client Secret, Scope) come first whatever the order here; the
	// credential's own fields follow in the order a person decides (README "Credentials")
	test('real service: after n8n\'s Client ID and Secret, Server, its Accounts URL, how to set the client up, then the API variant', () => {
		const names = visible({ environment: 'service' });
		expect(names.slice(0, 2)).toEqual(['clientId', 'clientSecret']);
		const own = names.filter((n) => ['environment', 'accountsUrl', 'serviceSetupNotice', 'sandboxUrl', 'apiVariant'].includes(n));
		expect(own).toEqual(['environment', 'accountsUrl', 'serviceSetupNotice', 'apiVariant']);
		expect(names.indexOf('environment')).toBe(names.indexOf('accountsUrl') - 1);
		expect(names.indexOf('accountsUrl')).toBe(names.indexOf('serviceSetupNotice') - 1);
	});

	test('sandbox: Server, then its Sandbox URL, no set-up notice', () => {
		const names = visible({ environment: 'sandbox' });
		expect(names.indexOf('sandboxUrl')).toBe(names.indexOf('environment') + 1);
		expect(names).not.toContain('serviceSetupNotice');
		expect(names).not.toContain('accountsUrl');
	});

	test('the OAuth flow still sees an oAuth2Api credential with the authorization-code grant and the CRM URLs', () => {
		const fields = Object.fromEntries(formFields('crmOAuth2Api').map((f) => [f.name, f]));
		expect(new CrmOAuth2Api().extends).toContain('oAuth2Api');
		expect(fields.grantType).toMatchObject({ type: 'hidden', default: 'authorizationCode' });
		expect(String(fields.authUrl.default)).toContain('/oauth/v2/auth');
		expect(String(fields.accessTokenUrl.default)).toContain('/oauth/v2/token');
	});

	test('the real service is explained: developer console, n8n\'s redirect URL, the data centre\'s accounts URL; variants labelled alike', () => {
		const fields = Object.fromEntries(formFields('crmOAuth2Api').map((f) => [f.name, f]));
		expect(fields.serviceSetupNotice.displayName).toMatch(/developer console/);
		expect(fields.serviceSetupNotice.displayName).toMatch(/OAuth Redirect URL/);
		expect(fields.accountsUrl.description).toMatch(/data centre/);
		expect((fields.apiVariant.options as Array<{ name: string; value: string }>).map((o) => [o.value, o.name])).toEqual([
			['v2.1', 'v2.1 — All Operations'],
			['v2', 'v2 — Older Model'],
		]);
	});
});
