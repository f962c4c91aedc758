import { crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Metadata › Pipeline (engine → sandbox over HTTP)', () => {
	let crm: CrmFixture;
	let v2: CrmFixture;
	let layoutId: string;
	let stages: Record<string, string>;

	beforeAll(async () => {
		crm = await crmFixture();
		v2 = await crmFixture({ variant: 'v2' });
		layoutId = (await crm.api('GET', '/crm/v2.1/settings/layouts?module=Deals')).body.layouts[0].id;
		const [standard] = await pipelines();
		stages = Object.fromEntries(standard.maps.map((m: any) => [m.display_value, m.id]));
	});
	afterAll(async () => {
		await crm.close();
		await v2.close();
	});

	const node = (params: Record<string, unknown>, extra = {}) =>
		crm.node('crmMetadata', { resource: 'pipeline', layoutId, ...params } as any, extra);
	async function pipelines(): Promise<any[]> {
		return (await crm.api('GET', `/crm/v2.1/settings/pipeline?layout_id=${layoutId}`)).body
			.pipeline;
	}

	test('Get Many lists the pipelines of the layout (GetPipelines)', async () => {
		const getAll = node({ operation: 'getAll' });
		const out = outputOf(await crm.run(getAll), getAll.name);
		expect(out.map((i) => [i.json.display_value, i.json.default])).toEqual([
			['Standard', true],
			['Enterprise', false],
		]);
		expect((out[1].json.maps as any[]).map((m) => m.display_value)).toContain('Negotiation/Review');
	});

	test('Get answers one pipeline (GetPipeline)', async () => {
		const [, enterprise] = await pipelines();
		const get = node({ operation: 'get', pipelineId: enterprise.id });
		expect(outputOf(await crm.run(get), get.name).map((i) => i.json)).toEqual([enterprise]);
	});

	test('Create sends the input items in one request and creates every pipeline (CreatePipelines)', async () => {
		await crm.clearRequests();
		const create = node({
			operation: 'create',
			name: '={{ $json.name }}',
			stageIds: '={{ $json.stages }}',
		});
		const out = outputOf(
			await crm.run(create, [
				{
					json: {
						name: 'Renewals',
						stages: [stages.Qualification, stages['Negotiation/Review'], stages['Closed Won']],
					},
				},
				{ json: { name: 'Channel', stages: [stages.Qualification, stages['Closed Lost']] } },
			]),
			create.name,
		);
		expect(out.map((i) => i.json.message)).toEqual(['Pipeline created', 'Pipeline created']);
		expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const posts = (await crm.requests()).filter(
			(r) => r.method === 'POST' && r.url.startsWith('/crm/v2.1/settings/pipeline'),
		);
		expect(posts).toHaveLength(1);
		const renewals = (await pipelines()).find((p) => p.display_value === 'Renewals');
		expect(renewals.id).toBe(out[0].json.id);
		expect(renewals.maps.map((m: any) => m.display_value)).toEqual([
			'Qualification',
			'Negotiation/Review',
			'Closed Won',
		]);
	});

	test('Create validates before sending; per-item service errors fail only their item with Continue On Fail', async () => {
		const invalid = node({ operation: 'create', name: 'No stages', stageIds: '={{ [] }}' });
		expect(errorOf(await crm.run(invalid), invalid.name)?.message).toContain(
			'needs at least one stage',
		);
		const create = node(
			{ operation: 'create', name: '={{ $json.name }}', stageIds: [stages.Qualification] },
			{ onError: 'continueRegularOutput' },
		);
		const out = outputOf(
			await crm.run(create, [{ json: { name: 'Standard' } }, { json: { name: 'Upsell' } }]),
			create.name,
		);
		expect(out[0].json.error).toContain('DUPLICATE_DATA');
		expect(out[1].json).toMatchObject({ status: 'success', message: 'Pipeline created' });
	});

	test('Update changes one pipeline by ID (UpdatePipeline)', async () => {
		const channel = (await pipelines()).find((p) => p.display_value === 'Channel');
		const update = node({
			operation: 'update',
			pipelineId: channel.id,
			updateFields: {
				name: 'Partner Channel',
				stageIds: [stages.Qualification, stages['Value Proposition'], stages['Closed Lost']],
			},
		});
		const out = outputOf(await crm.run(update), update.name);
		expect(out[0].json).toMatchObject({
			code: 'SUCCESS',
			message: 'Pipeline updated',
			details: { id: channel.id },
		});
		const after = (await pipelines()).find((p) => p.id === channel.id);
		expect(after.display_value).toBe('Partner Channel');
		expect(after.maps.map((m: any) => m.display_value)).toEqual([
			'Qualification',
			'Value Proposition',
			'Closed Lost',
		]);
	});

	test('Update Many sends the input items in one request (UpdatePipelines)', async () => {
		const list = await pipelines();
		const renewals = list.find((p) => p.display_value === 'Renewals');
		const upsell = list.find((p) => p.display_value === 'Upsell');
		await crm.clearRequests();
		const updateMany = node({
			operation: 'updateMany',
			pipelineId: '={{ $json.id }}',
			updateFields: { name: '={{ $json.name }}' },
		});
		const out = outputOf(
			await crm.run(updateMany, [
				{ json: { id: renewals.id, name: 'Renewals 2025' } },
				{ json: { id: upsell.id, name: 'Upsell 2025' } },
			]),
			updateMany.name,
		);
		expect(out.map((i) => i.json.id)).toEqual([renewals.id, upsell.id]);
		expect((await crm.requests()).filter((r) => r.method === 'PUT')).toHaveLength(1);
		const names = (await pipelines()).map((p) => p.display_value);
		expect(names).toEqual(expect.arrayContaining(['Renewals 2025', 'Upsell 2025']));
	});

	test('Transfer and Delete moves the deals and deletes the pipeline (TransferAndDelete)', async () => {
		const list = await pipelines();
		const from = list.find((p) => p.display_value === 'Upsell 2025');
		const to = list.find((p) => p.display_value === 'Standard');
		const created = await crm.api('POST', '/crm/v2.1/Deals', {
			data: [
				{
					Deal_Name: 'Upsell deal',
					Stage: 'Qualification',
					Closing_Date: '2025-07-31',
					Pipeline: 'Upsell 2025',
				},
			],
		});
		const dealId = created.body.data[0].details.id;
		const transfer = node({
			operation: 'transferAndDelete',
			fromPipelineId: from.id,
			toPipelineId: to.id,
			stageMappings: { mapping: [{ from: stages.Qualification, to: stages['Needs Analysis'] }] },
		});
		const out = outputOf(await crm.run(transfer), transfer.name);
		expect(out[0].json).toMatchObject({
			code: 'SUCCESS',
			message: 'transfer pipeline scheduled successfully',
			details: { from: from.id, to: to.id },
		});
		expect((await pipelines()).some((p) => p.id === from.id)).toBe(false);
		const deal = (await crm.api('GET', `/crm/v2.1/Deals/${dealId}`)).body.data[0];
		expect([deal.Pipeline, deal.Stage]).toEqual(['Standard', 'Needs Analysis']);
	});

	test('Transfer and Delete refuses the same pipeline on both sides before sending', async () => {
		const [standard] = await pipelines();
		const transfer = node({
			operation: 'transferAndDelete',
			fromPipelineId: standard.id,
			toPipelineId: standard.id,
		});
		expect(errorOf(await crm.run(transfer), transfer.name)?.message).toContain('must differ');
	});

	test('under a v2 credential every pipeline operation is refused before anything is sent', async () => {
		await v2.clearRequests();
		const operations: Array<Record<string, unknown>> = [
			{ operation: 'getAll' },
			{ operation: 'get', pipelineId: '4876876000000611001' },
			{ operation: 'create', name: 'X', stageIds: ['4876876000218750000'] },
			{ operation: 'update', pipelineId: '4876876000000611001', updateFields: { name: 'Y' } },
			{ operation: 'updateMany', pipelineId: '4876876000000611001', updateFields: { name: 'Y' } },
			{
				operation: 'transferAndDelete',
				fromPipelineId: '4876876000000611001',
				toPipelineId: '4876876000000611002',
			},
		];
		for (const params of operations) {
			const n = v2.node('crmMetadata', { resource: 'pipeline', layoutId, ...params } as any);
			expect(errorOf(await v2.run(n), n.name)?.message).toMatch(
				/^Pipeline → .* needs API variant v2\.1; the credential uses v2$/,
			);
		}
		expect((await v2.requests()).filter((r) => r.url.startsWith('/crm/'))).toEqual([]);
	});
});
