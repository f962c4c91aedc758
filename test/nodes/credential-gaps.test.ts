// A real account's last gaps, through the engine against the sandbox: a credential saved without
// connecting (its sign-in window closed) says so wherever the package uses it (routed operations,
// code operations, load options, the polling trigger); the credential's form names the hosts of
// each data centre (docs/protocol.md §1.1; the upload without Upload URL: CrmBulk/bulkWrite.test.ts)
// and shows the client fields of its version through conditions n8n evaluates without a regex.
import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { CrmOAuth2Api } from '../../credentials/CrmOAuth2Api.credentials';
import { useCrmFixture } from '../harness/crm';
import { errorOf } from '../harness/n8n';
import { crmPoller } from '../harness/poll';

const NOT_CONNECTED =
	'The credential "CRM sandbox" is not connected yet: open it and click Connect';

describe('a credential saved without connecting', () => {
	const crm = useCrmFixture();
	let saved: ICredentialDataDecryptedObject;
	beforeEach(() => {
		saved = crm.helper.store.crmOAuth2Api;
		// what n8n stores when the sign-in window is closed: the form's fields, no token
		const fields = { ...saved };
		delete fields.oauthTokenData;
		crm.helper.store.crmOAuth2Api = fields;
	});
	afterEach(() => {
		crm.helper.store.crmOAuth2Api = saved;
	});

	test.each([
		['no token data', undefined],
		['token data without an access token', {}],
	])(
		'a routed operation (CRM Admin → Role → Get Many) says the credential is not connected: %s',
		async (_shape, oauthTokenData) => {
			if (oauthTokenData) crm.helper.store.crmOAuth2Api.oauthTokenData = oauthTokenData;
			await crm.clearRequests();
			const node = crm.node('crmAdmin', { resource: 'role', operation: 'getAll' });
			const error = errorOf(await crm.run(node), node.name);
			expect(error?.message).toBe(NOT_CONNECTED);
			expect(error?.description).toContain('Connect my account');
			expect(await crm.requests()).toEqual([]);
		},
	);

	test('a code operation (CRM Bulk → Bulk Read → Create Job) says so, without sending anything', async () => {
		await crm.clearRequests();
		const node = crm.node('crmBulk', {
			resource: 'bulkRead',
			operation: 'create',
			module: 'Deals',
			waitForCompletion: false,
		});
		const error = errorOf(await crm.run(node), node.name);
		expect(error?.message).toBe(NOT_CONNECTED);
		expect(await crm.requests()).toEqual([]);
	});

	test('a list in the editor (load options) says so', async () => {
		await expect(crm.loadOptions('crmRecord', 'getModules', {})).rejects.toThrow(NOT_CONNECTED);
	});

	test('the polling trigger says so', async () => {
		const poller = crmPoller(crm, { event: 'createdOrUpdated', modules: ['Leads'] });
		await expect(poller.poll()).rejects.toThrow(NOT_CONNECTED);
	});
});

describe("the credential's form for a CRM Service account", () => {
	test("the form's help lists the upload host of each data centre and no longer offers the API address", () => {
		const props = Object.fromEntries(new CrmOAuth2Api().properties.map((p) => [p.name, p]));
		const help = `${props.uploadUrl.hint} ${props.uploadUrl.description}`;
		expect(help).not.toContain('Empty: the API address');
		expect(help).toContain(
			'https://content.crm.example when your API address is https://api.crm.example',
		);
		expect(help).toContain('https://content.eu.crm.example for https://api.eu.crm.example');
		expect(props.uploadUrl.displayOptions).toEqual({ show: { environment: ['service'] } });
	});

	test("the set-up notice names each data centre's developer console by its accounts server", () => {
		const notice = new CrmOAuth2Api().properties.find((p) => p.name === 'serviceSetupNotice')!;
		expect(notice.displayName).toContain("developer console of your account's data centre");
		expect(notice.displayName).toContain(
			'https://accounts.crm.example for the default data centre, https://accounts.crm.example.eu for the EU one',
		);
	});

	test('the client fields show on a credential of this version, the notice on one of version 0.1, with no regex condition', () => {
		const props = new CrmOAuth2Api().properties;
		const shown = (clientId: string) =>
			props
				.filter((p) => NodeHelpers.displayParameter({ clientId } as INodeParameters, p, null))
				.map((p) => p.name);
		const client = ['crmClientId', 'crmClientSecret', 'crmScope'];
		const current = shown(String(props.find((p) => p.name === 'clientId')!.default));
		expect(current).toEqual(expect.arrayContaining(client));
		expect(current).not.toContain('savedClientNotice');
		const saved = shown('client-id-saved-by-0.1');
		expect(saved).toContain('savedClientNotice');
		expect(saved.filter((name) => client.includes(name))).toEqual([]);
		// n8n resolves the credential so before each request: the client's values stay in it
		const resolved = NodeHelpers.getNodeParameters(
			props,
			{ environment: 'sandbox', crmClientId: 'id-1', crmClientSecret: 'secret-1' },
			true,
			false,
			null,
			null,
		);
		expect(resolved).toMatchObject({ crmClientId: 'id-1', crmClientSecret: 'secret-1' });
		// n8n runs a regex condition under a 250 ms wall-clock guard on every resolution
		expect(JSON.stringify(props.map((p) => p.displayOptions ?? {}))).not.toContain('"regex"');
	});

	test("the form keeps its fields' order", () => {
		expect(new CrmOAuth2Api().properties.map((p) => p.name)).toEqual([
			'environment',
			'accountsUrl',
			'serviceSetupNotice',
			'sandboxUrl',
			'savedClientNotice',
			'crmClientId',
			'crmClientSecret',
			'uploadUrl',
			'sandboxUploadUrl',
			'apiVariant',
			'grantType',
			'authUrl',
			'accessTokenUrl',
			'crmScope',
			'clientId',
			'clientSecret',
			'scope',
			'authQueryParameters',
			'authentication',
		]);
	});
});
