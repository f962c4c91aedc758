import { useCrmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Metadata › Wizard (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();
	const v2 = useCrmFixture({ variant: 'v2' });

	const node = (f: CrmFixture, params: Record<string, unknown>) =>
		f.node('crmMetadata', { resource: 'wizard', ...params } as any);

	test('Get Many lists the wizards (GetWizards)', async () => {
		const getAll = node(crm, { operation: 'getAll' });
		const out = outputOf(await crm.run(getAll), getAll.name);
		expect(out.map((i) => [i.json.name, i.json.active])).toEqual([
			['Lead Qualification', true],
			['Partner Deal Handover', false],
		]);
	});

	test('Get answers the wizard screens of a layout (GetWizardbyID)', async () => {
		const [wizard] = (await crm.api('GET', '/crm/v2.1/settings/wizards')).body.wizards;
		const [layout] = (await crm.api('GET', '/crm/v2.1/settings/layouts?module=Leads')).body.layouts;
		const get = node(crm, { operation: 'get', wizardId: wizard.id, layoutId: layout.id });
		const out = outputOf(await crm.run(get), get.name);
		expect(out).toHaveLength(1);
		expect(out[0].json.id).toBe(wizard.id);
		const [container] = out[0].json.containers as any[];
		expect(container.layout.id).toBe(layout.id);
		expect(container.screens.map((s: any) => s.display_label)).toEqual([
			'Contact Details',
			'Qualification',
		]);
	});

	test('under a v2 credential both operations are refused before anything is sent', async () => {
		await v2.clearRequests();
		const getAll = node(v2, { operation: 'getAll' });
		const error = errorOf(await v2.run(getAll), getAll.name);
		expect(error?.message).toBe(
			'Wizard → Get Many (GetWizards) needs API variant v2.1; the credential uses v2',
		);
		const get = node(v2, {
			operation: 'get',
			wizardId: '4876876000000611001',
			layoutId: '4876876000217510001',
		});
		expect(errorOf(await v2.run(get), get.name)?.message).toContain('needs API variant v2.1');
		expect((await v2.requests()).filter((r) => r.url.startsWith('/crm/'))).toEqual([]);
	});
});
