import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Metadata › Blueprint (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	const node = (params: Record<string, unknown>, extra = {}) =>
		crm.node('crmMetadata', { resource: 'blueprint', module: 'Deals', ...params } as any, extra);
	const pairs = (values: Record<string, unknown>) => ({
		field: Object.entries(values).map(([name, value]) => ({ name, value })),
	});

	async function enterpriseDeal(stage = 'Qualification'): Promise<string> {
		const res = await crm.api('POST', '/crm/v2.1/Deals', {
			data: [
				{
					Deal_Name: `Blueprint ${stage}`,
					Stage: stage,
					Pipeline: 'Enterprise',
					Closing_Date: '2025-09-30',
					Amount: 50000,
				},
			],
		});
		expect(res.status).toBe(201);
		return res.body.data[0].details.id;
	}
	const transitionsOf = async (id: string) =>
		(await crm.api('GET', `/crm/v2.1/Deals/${id}/actions/blueprint`)).body.blueprint
			.transitions as any[];
	const dealOf = async (id: string) => (await crm.api('GET', `/crm/v2.1/Deals/${id}`)).body.data[0];

	test('Get answers the process and the available transitions of a record (GetBlueprint)', async () => {
		const id = await enterpriseDeal();
		const get = node({ operation: 'get', recordId: id });
		const out = outputOf(await crm.run(get), get.name);
		expect(out).toHaveLength(1);
		expect(out[0].json.process_info).toMatchObject({
			name: 'Enterprise Deal Process',
			field_value: 'Qualification',
			api_name: 'Stage',
		});
		expect((out[0].json.transitions as any[]).map((t) => [t.name, t.next_field_value])).toEqual([
			['Qualify', 'Needs Analysis'],
			['Close Lost', 'Closed Lost'],
		]);
	});

	test('acceptance: a plain update of Stage is refused with RECORD_IN_BLUEPRINT; the transition moves the record', async () => {
		const id = await enterpriseDeal();

		// CRM Record → Update of the guarded field: the item fails with the service's code
		const plain = crm.node(
			'crmRecord',
			{
				resource: 'record',
				operation: 'update',
				module: 'Deals',
				fieldsMode: 'pairs',
				updateBy: 'id',
				recordId: id,
				fieldsUi: pairs({ Stage: 'Closed Won' }),
			} as any,
			{ onError: 'continueRegularOutput' },
		);
		const refused = outputOf(await crm.run(plain), plain.name);
		expect(refused[0].json.error).toContain('RECORD_IN_BLUEPRINT');
		expect(refused[0].json.details).toMatchObject({
			code: 'RECORD_IN_BLUEPRINT',
			details: { api_name: 'Stage', id },
		});
		expect((await dealOf(id)).Stage).toBe('Qualification');

		// CRM Metadata → Blueprint → Run Transition, with typed transition data
		const qualify = (await transitionsOf(id)).find((t) => t.name === 'Qualify');
		const move = node({
			operation: 'transition',
			recordId: id,
			transitionId: qualify.id,
			fieldsUi: pairs({ Probability: '30' }),
		});
		const moved = outputOf(await crm.run(move), move.name);
		expect(moved).toHaveLength(1);
		expect(moved[0].json).toMatchObject({
			code: 'SUCCESS',
			message: 'transition updated successfully',
			status: 'success',
			details: { id },
		});
		const deal = await dealOf(id);
		expect([deal.Stage, deal.Probability]).toEqual(['Needs Analysis', 30]);

		// the record stays in the process at its new stage: plain moves are still refused
		const again = crm.node('crmRecord', {
			resource: 'record',
			operation: 'update',
			module: 'Deals',
			fieldsMode: 'pairs',
			updateBy: 'id',
			recordId: id,
			fieldsUi: pairs({ Stage: 'Value Proposition' }),
		} as any);
		const error = errorOf(await crm.run(again), again.name);
		expect(error?.message).toContain('RECORD_IN_BLUEPRINT');
		expect(error?.description).toContain('blueprint transition');
	});

	test('Run Transition reports the validation errors of the transition data', async () => {
		const id = await enterpriseDeal('Needs Analysis');
		const analyse = (await transitionsOf(id)).find((t) => t.name === 'Analyse Needs');
		const move = node({
			operation: 'transition',
			recordId: id,
			transitionId: analyse.id,
			fieldsUi: pairs({ Amount: '1000' }),
		});
		const error = errorOf(await crm.run(move), move.name);
		expect(error?.message).toContain('INVALID_DATA');
		expect(error?.description).toContain('validation_error');
		expect(error?.description).toContain('Next_Step');
		expect((await dealOf(id)).Stage).toBe('Needs Analysis');
	});

	test('Run Transition types the data before sending: a bad date never reaches the service', async () => {
		const id = await enterpriseDeal('Negotiation/Review');
		const won = (await transitionsOf(id)).find((t) => t.name === 'Close Won');
		const bad = node({
			operation: 'transition',
			recordId: id,
			transitionId: won.id,
			fieldsUi: pairs({ Closing_Date: 'someday' }),
		});
		expect(errorOf(await crm.run(bad), bad.name)?.message).toContain('Closing_Date');
		const good = node({
			operation: 'transition',
			recordId: id,
			transitionId: won.id,
			fieldsUi: pairs({ Closing_Date: '2025-11-03' }),
		});
		expect(outputOf(await crm.run(good), good.name)[0].json.status).toBe('success');
		expect(await dealOf(id)).toMatchObject({ Stage: 'Closed Won', Closing_Date: '2025-11-03' });
		// the process is complete
		const get = node({ operation: 'get', recordId: id });
		expect(errorOf(await crm.run(get), get.name)?.message).toContain('RECORD_NOT_IN_PROCESS');
	});
});
