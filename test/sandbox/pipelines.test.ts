// Contract tests of the sandbox pipelines (docs/protocol.md §5.8, §3.8, v2.1 only) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.settings.ALL,CRM.modules.ALL' });
const { call } = sb;
let standardLayout: string;
let partnerLayout: string;
let leadLayout: string;

beforeAll(async () => {
	const deals = (await call('GET', '/crm/v2.1/settings/layouts', { query: { module: 'Deals' } }))
		.body.layouts;
	[standardLayout, partnerLayout] = deals.map((l: any) => l.id);
	leadLayout = (await call('GET', '/crm/v2.1/settings/layouts', { query: { module: 'Leads' } }))
		.body.layouts[0].id;
});

const pipelines = async (layout = standardLayout) =>
	(await call('GET', '/crm/v2.1/settings/pipeline', { query: { layout_id: layout } })).body
		.pipeline as any[];
const stageId = (p: any, name: string) => p.maps.find((m: any) => m.display_value === name).id;
const pipelinePicklist = async () =>
	(await call('GET', '/crm/v2.1/settings/fields', { query: { module: 'Deals' } })).body.fields
		.find((f: any) => f.api_name === 'Pipeline')
		.pick_list_values.map((v: any) => v.actual_value);

describe('GetPipelines / GetPipeline', () => {
	it('lists the pipelines of a Deals layout with their stages', async () => {
		const res = await call('GET', '/crm/v2.1/settings/pipeline', {
			query: { layout_id: standardLayout },
		});
		expect(res.status).toBe(200);
		const [standard, enterprise] = res.body.pipeline;
		expect(res.body.pipeline.map((p: any) => [p.display_value, p.default])).toEqual([
			['Standard', true],
			['Enterprise', false],
		]);
		expect(standard.maps.map((m: any) => m.display_value)).toEqual([
			'Qualification',
			'Needs Analysis',
			'Value Proposition',
			'Identify Decision Makers',
			'Proposal/Price Quote',
			'Negotiation/Review',
			'Closed Won',
			'Closed Lost',
			'Closed-Lost to Competition',
		]);
		expect(standard.maps[6]).toMatchObject({
			forecast_type: 'Closed Won',
			forecast_category: { name: 'Closed' },
			probability: 100,
			sequence_number: 7,
		});
		expect(standard.maps[0]).toMatchObject({
			forecast_type: 'Open',
			forecast_category: { name: 'Pipeline' },
		});
		expect(enterprise.maps).toHaveLength(7);
		// stage ids are the same stage across pipelines
		expect(stageId(enterprise, 'Closed Won')).toBe(stageId(standard, 'Closed Won'));
		expect(standard).toMatchObject({
			actual_value: 'Standard',
			child_available: false,
			parent: null,
		});
		const partner = await pipelines(partnerLayout);
		expect(partner.map((p: any) => p.display_value)).toEqual(['Standard']);
		expect(partner[0].id).not.toBe(standard.id);
	});

	it('answers one pipeline by id', async () => {
		const [, enterprise] = await pipelines();
		const res = await call('GET', `/crm/v2.1/settings/pipeline/${enterprise.id}`, {
			query: { layout_id: standardLayout },
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ pipeline: [enterprise] });
		const elsewhere = await call('GET', `/crm/v2.1/settings/pipeline/${enterprise.id}`, {
			query: { layout_id: partnerLayout },
		});
		expect(elsewhere.status).toBe(400);
		expect(elsewhere.body).toMatchObject({ code: 'INVALID_DATA', details: { id: enterprise.id } });
	});

	it('layout_id is required and must be a Deals layout; v2 answers 404; the scope is checked', async () => {
		const missing = await call('GET', '/crm/v2.1/settings/pipeline');
		expect(missing.status).toBe(400);
		expect(missing.body).toMatchObject({
			code: 'REQUIRED_PARAM_MISSING',
			details: { param_name: 'layout_id' },
		});
		const leads = await call('GET', '/crm/v2.1/settings/pipeline', {
			query: { layout_id: leadLayout },
		});
		expect(leads.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { param_name: 'layout_id' },
		});
		expect(
			(await call('GET', '/crm/v2/settings/pipeline', { query: { layout_id: standardLayout } }))
				.status,
		).toBe(404);
		const readOnly = (await grantToken(sb.url, { scope: 'CRM.settings.pipeline.READ' }))
			.access_token;
		expect(
			(await api(`${sb.url}/crm/v2.1/settings/pipeline?layout_id=${standardLayout}`, readOnly))
				.status,
		).toBe(200);
		const created = await api(
			`${sb.url}/crm/v2.1/settings/pipeline?layout_id=${standardLayout}`,
			readOnly,
			{
				method: 'POST',
				body: { pipeline: [{ display_value: 'X', maps: [{ display_value: 'Qualification' }] }] },
			},
		);
		expect(created.body.code).toBe('OAUTH_SCOPE_MISMATCH');
	});
});

describe('CreatePipelines', () => {
	it('creates pipelines (201), per item in input order; stages by id or name', async () => {
		const [standard] = await pipelines();
		const res = await call('POST', '/crm/v2.1/settings/pipeline', {
			query: { layout_id: standardLayout },
			body: {
				pipeline: [
					{
						display_value: 'Renewals',
						default: false,
						maps: [
							{ id: stageId(standard, 'Negotiation/Review'), sequence_number: 2 },
							{ display_value: 'Qualification', sequence_number: 1 },
							{ display_value: 'Closed Won', sequence_number: 3 },
						],
					},
					{
						display_value: 'Channel',
						maps: [{ display_value: 'Qualification' }, { display_value: 'Closed Lost' }],
					},
				],
			},
		});
		expect(res.status).toBe(201);
		expect(res.body.pipeline).toEqual([
			{
				code: 'SUCCESS',
				details: { id: expect.stringMatching(/^\d{19}$/) },
				message: 'Pipeline created',
				status: 'success',
			},
			{
				code: 'SUCCESS',
				details: { id: expect.stringMatching(/^\d{19}$/) },
				message: 'Pipeline created',
				status: 'success',
			},
		]);
		const list = await pipelines();
		const renewals = list.find((p) => p.display_value === 'Renewals');
		expect(renewals.id).toBe(res.body.pipeline[0].details.id);
		expect(renewals.maps.map((m: any) => m.display_value)).toEqual([
			'Qualification',
			'Negotiation/Review',
			'Closed Won',
		]);
		// the Deals Pipeline picklist follows, so deals can use the new pipeline
		expect(await pipelinePicklist()).toEqual(
			expect.arrayContaining(['Standard', 'Enterprise', 'Renewals', 'Channel']),
		);
		const deal = await call('POST', '/crm/v2.1/Deals', {
			body: {
				data: [
					{
						Deal_Name: 'Renewal deal',
						Stage: 'Qualification',
						Closing_Date: '2025-06-30',
						Pipeline: 'Renewals',
					},
				],
			},
		});
		expect(deal.status).toBe(201);
	});

	it('refuses bad items per item: 400 when all fail, the success status when mixed', async () => {
		const mixed = await call('POST', '/crm/v2.1/settings/pipeline', {
			query: { layout_id: standardLayout },
			body: {
				pipeline: [
					{ display_value: 'standard', maps: [{ display_value: 'Qualification' }] },
					{ display_value: 'Upsell', maps: [{ display_value: 'Qualification' }] },
					{ maps: [{ display_value: 'Qualification' }] },
					{ display_value: 'No Stages', maps: [] },
					{
						display_value: 'Bad Stage',
						maps: [{ display_value: 'Qualification' }, { display_value: 'Dreaming' }],
					},
					{
						display_value: 'Twice',
						maps: [{ display_value: 'Qualification' }, { display_value: 'Qualification' }],
					},
					{ display_value: 'Flag', default: 'yes', maps: [{ display_value: 'Qualification' }] },
				],
			},
		});
		expect(mixed.status).toBe(201);
		expect(mixed.body.pipeline.map((i: any) => i.code)).toEqual([
			'DUPLICATE_DATA',
			'SUCCESS',
			'MANDATORY_NOT_FOUND',
			'MANDATORY_NOT_FOUND',
			'INVALID_DATA',
			'DUPLICATE_DATA',
			'INVALID_DATA',
		]);
		expect(mixed.body.pipeline[0].details).toMatchObject({
			api_name: 'display_value',
			json_path: '$.pipeline[0].display_value',
		});
		expect(mixed.body.pipeline[4]).toMatchObject({
			details: { api_name: 'maps', json_path: '$.pipeline[4].maps[1]' },
			message: 'pipeline does not contain the stage',
		});
		const allBad = await call('POST', '/crm/v2.1/settings/pipeline', {
			query: { layout_id: standardLayout },
			body: { pipeline: [{ display_value: 'Upsell', maps: [{ display_value: 'Qualification' }] }] },
		});
		expect(allBad.status).toBe(400);
		expect(allBad.body.pipeline[0].code).toBe('DUPLICATE_DATA');
		const empty = await call('POST', '/crm/v2.1/settings/pipeline', {
			query: { layout_id: standardLayout },
			body: {},
		});
		expect(empty.body).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'pipeline' },
		});
	});

	it('a new default pipeline takes the flag from the old one', async () => {
		const res = await call('POST', '/crm/v2.1/settings/pipeline', {
			query: { layout_id: partnerLayout },
			body: {
				pipeline: [
					{
						display_value: 'Partner Fast Track',
						default: true,
						maps: [{ display_value: 'Qualification' }, { display_value: 'Closed Won' }],
					},
				],
			},
		});
		expect(res.status).toBe(201);
		expect((await pipelines(partnerLayout)).map((p) => [p.display_value, p.default])).toEqual([
			['Standard', false],
			['Partner Fast Track', true],
		]);
		// the Standard layout keeps its own default
		expect((await pipelines()).find((p) => p.default).display_value).toBe('Standard');
	});
});

describe('UpdatePipelines / UpdatePipeline', () => {
	it('updates many by id (200): names, stages; a rename renames the pipeline of its deals', async () => {
		const created = await call('POST', '/crm/v2.1/settings/pipeline', {
			query: { layout_id: standardLayout },
			body: {
				pipeline: [
					{
						display_value: 'Old Name',
						maps: [{ display_value: 'Qualification' }, { display_value: 'Closed Won' }],
					},
				],
			},
		});
		const id = created.body.pipeline[0].details.id;
		const deal = await call('POST', '/crm/v2.1/Deals', {
			body: {
				data: [
					{
						Deal_Name: 'Pipeline rename deal',
						Stage: 'Qualification',
						Closing_Date: '2025-06-30',
						Pipeline: 'Old Name',
					},
				],
			},
		});
		const dealId = deal.body.data[0].details.id;
		const res = await call('PUT', '/crm/v2.1/settings/pipeline', {
			query: { layout_id: standardLayout },
			body: {
				pipeline: [
					{
						id,
						display_value: 'New Name',
						maps: [
							{ display_value: 'Qualification' },
							{ display_value: 'Value Proposition' },
							{ display_value: 'Closed Won' },
						],
					},
					{ id: '4876876000000000042', display_value: 'Ghost' },
				],
			},
		});
		expect(res.status).toBe(200);
		expect(res.body.pipeline[0]).toEqual({
			code: 'SUCCESS',
			details: { id },
			message: 'Pipeline updated',
			status: 'success',
		});
		expect(res.body.pipeline[1]).toMatchObject({
			code: 'INVALID_DATA',
			details: { id: '4876876000000000042' },
		});
		const updated = (await pipelines()).find((p) => p.id === id);
		expect(updated.display_value).toBe('New Name');
		expect(updated.maps.map((m: any) => m.display_value)).toEqual([
			'Qualification',
			'Value Proposition',
			'Closed Won',
		]);
		expect((await call('GET', `/crm/v2.1/Deals/${dealId}`)).body.data[0].Pipeline).toBe('New Name');
		const picklist = await pipelinePicklist();
		expect(picklist).toContain('New Name');
		expect(picklist).not.toContain('Old Name');
	});

	it('updates one by path id; the default cannot be dropped; unknown ids answer INVALID_DATA', async () => {
		const [standard, enterprise] = await pipelines();
		const one = await call('PUT', `/crm/v2.1/settings/pipeline/${enterprise.id}`, {
			query: { layout_id: standardLayout },
			body: { pipeline: [{ default: true }] },
		});
		expect(one.status).toBe(200);
		expect(one.body.pipeline[0]).toMatchObject({
			code: 'SUCCESS',
			details: { id: enterprise.id },
			message: 'Pipeline updated',
		});
		const after = await pipelines();
		expect(after.filter((p) => p.default).map((p) => p.id)).toEqual([enterprise.id]);
		const undefault = await call('PUT', `/crm/v2.1/settings/pipeline/${enterprise.id}`, {
			query: { layout_id: standardLayout },
			body: { pipeline: [{ default: false }] },
		});
		expect(undefault.status).toBe(400);
		expect(undefault.body.pipeline[0]).toMatchObject({
			code: 'INVALID_DATA',
			details: { api_name: 'default' },
		});
		// restore
		await call('PUT', `/crm/v2.1/settings/pipeline/${standard.id}`, {
			query: { layout_id: standardLayout },
			body: { pipeline: [{ default: true }] },
		});
		const two = await call('PUT', `/crm/v2.1/settings/pipeline/${standard.id}`, {
			query: { layout_id: standardLayout },
			body: { pipeline: [{}, {}] },
		});
		expect(two.body).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { limit: 1 } });
		const unknown = await call('PUT', '/crm/v2.1/settings/pipeline/4876876000000000042', {
			query: { layout_id: standardLayout },
			body: { pipeline: [{ display_value: 'X' }] },
		});
		expect(unknown.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { id: '4876876000000000042' },
		});
	});
});

describe('TransferAndDelete', () => {
	it('moves the deals of a pipeline (stages mapped) into another and deletes it: 202', async () => {
		const [standard] = await pipelines();
		const created = await call('POST', '/crm/v2.1/settings/pipeline', {
			query: { layout_id: standardLayout },
			body: {
				pipeline: [
					{
						display_value: 'Short Cycle',
						maps: [
							{ display_value: 'Qualification' },
							{ display_value: 'Closed Won' },
							{ display_value: 'Closed Lost' },
						],
					},
				],
			},
		});
		const shortCycle = (await pipelines()).find(
			(p) => p.id === created.body.pipeline[0].details.id,
		);
		const deals = await call('POST', '/crm/v2.1/Deals', {
			body: {
				data: [
					{
						Deal_Name: 'Short A',
						Stage: 'Qualification',
						Closing_Date: '2025-06-30',
						Pipeline: 'Short Cycle',
					},
					{
						Deal_Name: 'Short B',
						Stage: 'Closed Won',
						Closing_Date: '2025-06-30',
						Pipeline: 'Short Cycle',
					},
				],
			},
		});
		const [a, b] = deals.body.data.map((d: any) => d.details.id);
		const res = await call('POST', '/crm/v2.1/settings/pipeline/actions/transfer', {
			query: { layout_id: standardLayout },
			body: {
				transfer_pipeline: [
					{
						pipeline: { from: shortCycle.id, to: standard.id },
						stages: [
							{
								from: stageId(shortCycle, 'Qualification'),
								to: stageId(standard, 'Needs Analysis'),
							},
						],
					},
				],
			},
		});
		expect(res.status).toBe(202);
		expect(res.body.transfer_pipeline).toEqual([
			{
				code: 'SUCCESS',
				details: { from: shortCycle.id, to: standard.id, transferred_count: 2 },
				message: 'transfer pipeline scheduled successfully',
				status: 'success',
			},
		]);
		expect((await pipelines()).some((p) => p.id === shortCycle.id)).toBe(false);
		expect(await pipelinePicklist()).not.toContain('Short Cycle');
		const movedA = (await call('GET', `/crm/v2.1/Deals/${a}`)).body.data[0];
		const movedB = (await call('GET', `/crm/v2.1/Deals/${b}`)).body.data[0];
		expect([movedA.Pipeline, movedA.Stage]).toEqual(['Standard', 'Needs Analysis']);
		expect([movedB.Pipeline, movedB.Stage]).toEqual(['Standard', 'Closed Won']);
	});

	it('refuses transfers it cannot do, per item', async () => {
		const [standard, enterprise] = await pipelines();
		const res = await call('POST', '/crm/v2.1/settings/pipeline/actions/transfer', {
			query: { layout_id: standardLayout },
			body: {
				transfer_pipeline: [
					{ pipeline: { from: standard.id, to: enterprise.id }, stages: [] },
					{ pipeline: { from: enterprise.id, to: enterprise.id }, stages: [] },
					{ pipeline: { from: '4876876000000000042', to: standard.id }, stages: [] },
					{
						pipeline: { from: enterprise.id, to: standard.id },
						stages: [
							{
								from: stageId(standard, 'Identify Decision Makers'),
								to: stageId(standard, 'Qualification'),
							},
						],
					},
					{ stages: [] },
				],
			},
		});
		expect(res.status).toBe(400);
		expect(res.body.transfer_pipeline.map((i: any) => [i.code, i.message])).toEqual([
			['INVALID_DATA', 'the default pipeline cannot be deleted'],
			['INVALID_DATA', 'layout does not contain the pipeline'],
			['INVALID_DATA', 'layout does not contain the pipeline'],
			['INVALID_DATA', 'pipeline does not contain the stage'],
			['MANDATORY_NOT_FOUND', 'required field not found'],
		]);
		expect((await pipelines()).some((p) => p.id === enterprise.id)).toBe(true);
	});
});
