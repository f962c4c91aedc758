// Contract tests of the sandbox wizards (docs/protocol.md §5.7, v2.1 only) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.settings.ALL' });
const { call } = sb;

async function layoutsOf(module: string): Promise<any[]> {
	return (await call('GET', '/crm/v2.1/settings/layouts', { query: { module } })).body.layouts;
}

describe('GetWizards', () => {
	it('lists the wizards without their containers', async () => {
		const res = await call('GET', '/crm/v2.1/settings/wizards');
		expect(res.status).toBe(200);
		expect(res.body.wizards.map((w: any) => w.name)).toEqual([
			'Lead Qualification',
			'Partner Deal Handover',
		]);
		const [lead, deal] = res.body.wizards;
		expect(lead).toMatchObject({
			active: true,
			draft: false,
			module: { api_name: 'Leads' },
			parent_wizard: null,
			created_by: { name: 'Sandbox Admin' },
		});
		expect(deal).toMatchObject({ active: false, draft: true, module: { api_name: 'Deals' } });
		expect(lead.profiles.map((p: any) => p.name)).toEqual(['Administrator', 'Standard']);
		expect(lead.profiles[0].id).toMatch(/^\d{19}$/);
		expect(lead).not.toHaveProperty('containers');
	});

	it('is v2.1 only and needs the wizards scope', async () => {
		const v2 = await call('GET', '/crm/v2/settings/wizards');
		expect(v2.status).toBe(404);
		expect(v2.body.code).toBe('INVALID_URL_PATTERN');
		const narrow = (await grantToken(sb.url, { scope: 'CRM.settings.layouts.ALL' })).access_token;
		expect((await api(`${sb.url}/crm/v2.1/settings/wizards`, narrow)).body.code).toBe(
			'OAUTH_SCOPE_MISMATCH',
		);
		const wizards = (await grantToken(sb.url, { scope: 'CRM.settings.wizards.READ' })).access_token;
		expect((await api(`${sb.url}/crm/v2.1/settings/wizards`, wizards)).status).toBe(200);
	});
});

describe('GetWizardbyID', () => {
	it('answers the wizard with the container of the given layout: screens, segments, buttons, chart', async () => {
		const [wizard] = (await call('GET', '/crm/v2.1/settings/wizards')).body.wizards;
		const [standard] = await layoutsOf('Leads');
		const res = await call('GET', `/crm/v2.1/settings/wizards/${wizard.id}`, {
			query: { layout_id: standard.id },
		});
		expect(res.status).toBe(200);
		const full = res.body.wizards[0];
		expect(full.id).toBe(wizard.id);
		expect(full.containers).toHaveLength(1);
		const container = full.containers[0];
		expect(container.layout).toEqual({ id: standard.id, name: 'Standard' });
		expect(container.screens.map((s: any) => s.display_label)).toEqual([
			'Contact Details',
			'Qualification',
		]);
		const [first, second] = container.screens;
		const fieldIds = new Map(
			standard.sections.flatMap((s: any) => s.fields).map((f: any) => [f.api_name, f.id]),
		);
		for (const f of first.segments[0].fields) expect(f.id).toBe(fieldIds.get(f.api_name));
		expect(first.segments[0].buttons.map((b: any) => b.type)).toEqual(['next']);
		expect(first.segments[0].buttons[0].target_screen.id).toBe(second.id);
		expect(second.segments[0].buttons.map((b: any) => b.type)).toEqual(['previous', 'submit']);
		expect(container.chart_data.nodes.map((n: any) => n.start_node)).toEqual([true, false]);
		expect(container.chart_data.connections).toHaveLength(2);
	});

	it('layout_id is required and must be a layout of the wizard', async () => {
		const [wizard] = (await call('GET', '/crm/v2.1/settings/wizards')).body.wizards;
		const missing = await call('GET', `/crm/v2.1/settings/wizards/${wizard.id}`);
		expect(missing.status).toBe(400);
		expect(missing.body).toMatchObject({
			code: 'REQUIRED_PARAM_MISSING',
			details: { param: 'layout_id', param_name: 'layout_id' },
		});
		const [dealLayout] = await layoutsOf('Deals');
		const wrong = await call('GET', `/crm/v2.1/settings/wizards/${wizard.id}`, {
			query: { layout_id: dealLayout.id },
		});
		expect(wrong.status).toBe(400);
		expect(wrong.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { param_name: 'layout_id' },
		});
	});

	it('an unknown wizard id answers 400 INVALID_DATA; v2 answers 404', async () => {
		const [standard] = await layoutsOf('Leads');
		const res = await call('GET', '/crm/v2.1/settings/wizards/4876876000000000042', {
			query: { layout_id: standard.id },
		});
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { id: '4876876000000000042' },
		});
		expect(
			(
				await call('GET', '/crm/v2/settings/wizards/4876876000000000042', {
					query: { layout_id: standard.id },
				})
			).status,
		).toBe(404);
	});
});
