import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Metadata › Email Template (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	const node = (params: Record<string, unknown>) =>
		crm.node('crmMetadata', { resource: 'emailTemplate', ...params } as any);

	test('Get Many lists the templates of a module (GetEmailTemplates)', async () => {
		const getAll = node({ operation: 'getAll', module: 'Deals' });
		const out = outputOf(await crm.run(getAll), getAll.name);
		expect(out.map((i) => i.json.name)).toEqual(['Proposal Sent', 'Deal Won - Thank You']);
		expect(out[0].json).toMatchObject({
			subject: 'Proposal for ${Deals.Deal Name}',
			module: { api_name: 'Deals' },
		});
	});

	test('Get answers one template with its content (GetEmailTemplateById)', async () => {
		const [proposal] = (await crm.api('GET', '/crm/v2.1/settings/email_templates?module=Deals'))
			.body.email_templates;
		const get = node({ operation: 'get', templateId: proposal.id });
		const out = outputOf(await crm.run(get), get.name);
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({ id: proposal.id, name: 'Proposal Sent' });
		expect(out[0].json.content).toContain('${Deals.Deal Name}');
	});

	test('a module without email templates fails with FEATURE_NOT_SUPPORTED', async () => {
		const getAll = node({ operation: 'getAll', module: 'Products' });
		expect(errorOf(await crm.run(getAll), getAll.name)?.message).toContain('FEATURE_NOT_SUPPORTED');
	});
});
