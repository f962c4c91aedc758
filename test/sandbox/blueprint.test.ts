// Contract tests of the sandbox blueprint (docs/protocol.md §5.8, §5.1 record rules, §11) over HTTP:
// GetBlueprint, UpdateBlueprint and the RECORD_IN_BLUEPRINT guard on plain updates.
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.modules.ALL,CRM.settings.ALL' });
const { call } = sb;

async function createDeal(data: Record<string, unknown>): Promise<string> {
	const res = await call('POST', '/crm/v2.1/Deals', {
		body: { data: [{ Deal_Name: 'Blueprint deal', Closing_Date: '2025-09-30', ...data }] },
	});
	expect(res.status).toBe(201);
	return res.body.data[0].details.id;
}

const blueprintOf = async (id: string, v = 'v2.1') =>
	await call('GET', `/crm/${v}/Deals/${id}/actions/blueprint`);
const transition = async (
	id: string,
	transitionId: string,
	data: Record<string, unknown> = {},
	v = 'v2.1',
) =>
	await call('PUT', `/crm/${v}/Deals/${id}/actions/blueprint`, {
		body: { blueprint: [{ transition_id: transitionId, data }] },
	});
const transitionNamed = (bp: any, name: string) => bp.transitions.find((t: any) => t.name === name);
const stageOf = async (id: string) =>
	(await call('GET', `/crm/v2.1/Deals/${id}`)).body.data[0].Stage;

describe('seeded process', () => {
	it('open Enterprise demo deals are in the process; others are not', async () => {
		const deals: any[] = [];
		for (let page = 1; ; page++) {
			const res = await call('GET', '/crm/v2.1/Deals', { query: { page, per_page: 200 } });
			deals.push(...res.body.data);
			if (!res.body.info.more_records) break;
		}
		const open = [
			'Qualification',
			'Needs Analysis',
			'Value Proposition',
			'Proposal/Price Quote',
			'Negotiation/Review',
		];
		const inProcess = deals.filter((d) => d.Pipeline === 'Enterprise' && open.includes(d.Stage));
		expect(inProcess.length).toBeGreaterThan(0);
		const bp = await blueprintOf(inProcess[0].id);
		expect(bp.status).toBe(200);
		expect(bp.body.blueprint.process_info).toMatchObject({
			name: 'Enterprise Deal Process',
			api_name: 'Stage',
			field_value: inProcess[0].Stage,
		});
		const outside = deals.find((d) => d.Pipeline === 'Standard');
		const notIn = await blueprintOf(outside.id);
		expect(notIn.status).toBe(400);
		expect(notIn.body).toEqual({
			code: 'RECORD_NOT_IN_PROCESS',
			details: { id: outside.id, resource_path_index: 1 },
			message: 'the record is not in a process',
			status: 'error',
		});
	});
});

describe('GetBlueprint', () => {
	it('answers the process info and the transitions available from the current stage', async () => {
		const id = await createDeal({ Stage: 'Qualification', Pipeline: 'Enterprise' });
		const res = await blueprintOf(id);
		expect(res.status).toBe(200);
		const bp = res.body.blueprint;
		expect(bp.process_info).toMatchObject({
			id: expect.stringMatching(/^\d{19}$/),
			name: 'Enterprise Deal Process',
			field_label: 'Stage',
			field_value: 'Qualification',
			field_id: expect.stringMatching(/^\d{19}$/),
			is_continuous: false,
		});
		expect(bp.transitions.map((t: any) => t.name)).toEqual(['Qualify', 'Close Lost']);
		const qualify = transitionNamed(bp, 'Qualify');
		expect(qualify).toMatchObject({
			next_field_value: 'Needs Analysis',
			criteria_matched: true,
			type: 'manual',
			data: { Probability: null },
		});
		expect(qualify.fields).toHaveLength(1);
		expect(qualify.fields[0]).toMatchObject({
			api_name: 'Probability',
			mandatory: true,
			transition_sequence: 1,
			data_type: 'percent',
		});
		expect(qualify.next_transitions.map((n: any) => n.name)).toEqual([
			'Analyse Needs',
			'Close Lost',
		]);
		// the same under v2
		expect((await blueprintOf(id, 'v2')).body.blueprint.transitions).toHaveLength(2);
	});

	it('reports transitions whose criteria the record does not meet', async () => {
		const id = await createDeal({ Stage: 'Proposal/Price Quote', Pipeline: 'Enterprise' });
		const negotiate = transitionNamed((await blueprintOf(id)).body.blueprint, 'Start Negotiation');
		expect(negotiate).toMatchObject({
			criteria_matched: false,
			criteria_message: 'The deal needs an amount before negotiation',
		});
		const refused = await transition(id, negotiate.id);
		expect(refused.status).toBe(400);
		expect(refused.body).toMatchObject({
			code: 'INVALID_DATA',
			details: {
				api_name: 'transition_id',
				info_message: 'The deal needs an amount before negotiation',
			},
		});
	});

	it('an unknown record answers INVALID_DATA; a module without a process RECORD_NOT_IN_PROCESS', async () => {
		const unknown = await blueprintOf('4876876000000000042');
		expect(unknown.status).toBe(400);
		expect(unknown.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { id: '4876876000000000042' },
		});
		const lead = (await call('GET', '/crm/v2.1/Leads', { query: { per_page: 1 } })).body.data[0];
		expect((await call('GET', `/crm/v2/Leads/${lead.id}/actions/blueprint`)).body).toMatchObject({
			code: 'RECORD_NOT_IN_PROCESS',
			details: { id: lead.id },
		});
	});
});

describe('RECORD_IN_BLUEPRINT guard', () => {
	it('refuses a plain update of Stage per item; other fields and records still update', async () => {
		const guarded = await createDeal({ Stage: 'Qualification', Pipeline: 'Enterprise' });
		const free = await createDeal({ Stage: 'Qualification', Pipeline: 'Standard' });
		const res = await call('PUT', '/crm/v2.1/Deals', {
			body: {
				data: [
					{ id: guarded, Stage: 'Closed Won' },
					{ id: free, Stage: 'Closed Won' },
					{ id: guarded, Next_Step: 'Call the CFO', Stage: 'Qualification' },
				],
			},
		});
		expect(res.status).toBe(200);
		expect(res.body.data[0]).toEqual({
			code: 'RECORD_IN_BLUEPRINT',
			details: { api_name: 'Stage', id: guarded },
			message: 'the record is in a blueprint',
			status: 'error',
		});
		expect(res.body.data[1]).toMatchObject({ code: 'SUCCESS' });
		// an update that keeps the stage is no move
		expect(res.body.data[2]).toMatchObject({ code: 'SUCCESS' });
		expect(await stageOf(guarded)).toBe('Qualification');
		expect(await stageOf(free)).toBe('Closed Won');
		const single = await call('PUT', `/crm/v2/Deals/${guarded}`, {
			body: { data: [{ Stage: 'Needs Analysis' }] },
		});
		expect(single.status).toBe(400);
		expect(single.body.data[0].code).toBe('RECORD_IN_BLUEPRINT');
	});
});

describe('UpdateBlueprint', () => {
	it('moves a record through transitions with their data until the process completes', async () => {
		const id = await createDeal({ Stage: 'Qualification', Pipeline: 'Enterprise', Amount: 90000 });
		let bp = (await blueprintOf(id)).body.blueprint;
		const qualify = await transition(id, transitionNamed(bp, 'Qualify').id, { Probability: 25 });
		expect(qualify.status).toBe(200);
		expect(qualify.body).toEqual({
			code: 'SUCCESS',
			details: { id },
			message: 'transition updated successfully',
			status: 'success',
		});
		let deal = (await call('GET', `/crm/v2.1/Deals/${id}`)).body.data[0];
		expect([deal.Stage, deal.Probability]).toEqual(['Needs Analysis', 25]);

		bp = (await blueprintOf(id)).body.blueprint;
		expect(bp.process_info.field_value).toBe('Needs Analysis');
		await transition(id, transitionNamed(bp, 'Analyse Needs').id, { Next_Step: 'Demo' });
		bp = (await blueprintOf(id)).body.blueprint;
		await transition(id, transitionNamed(bp, 'Send Proposal').id, {
			Amount: 120000,
			Closing_Date: '2025-10-15',
		});
		bp = (await blueprintOf(id)).body.blueprint;
		expect(transitionNamed(bp, 'Start Negotiation').criteria_matched).toBe(true);
		await transition(id, transitionNamed(bp, 'Start Negotiation').id);
		bp = (await blueprintOf(id)).body.blueprint;
		const won = await transition(id, transitionNamed(bp, 'Close Won').id, {
			Closing_Date: '2025-10-20',
		});
		expect(won.status).toBe(200);
		deal = (await call('GET', `/crm/v2.1/Deals/${id}`)).body.data[0];
		expect(deal).toMatchObject({
			Stage: 'Closed Won',
			Amount: 120000,
			Next_Step: 'Demo',
			Closing_Date: '2025-10-20',
		});
		// completed: no longer in the process, and plain updates of Stage pass again
		expect((await blueprintOf(id)).body.code).toBe('RECORD_NOT_IN_PROCESS');
		const plain = await call('PUT', `/crm/v2.1/Deals/${id}`, {
			body: { data: [{ Stage: 'Closed Lost' }] },
		});
		expect(plain.body.data[0].code).toBe('SUCCESS');
	});

	it('validation failures list every problem in details.validation_error', async () => {
		const id = await createDeal({ Stage: 'Value Proposition', Pipeline: 'Enterprise' });
		const bp = (await blueprintOf(id)).body.blueprint;
		const send = transitionNamed(bp, 'Send Proposal');
		const res = await transition(id, send.id, { Stage: 'Closed Won', Deal_Name: 'Renamed' });
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('INVALID_DATA');
		expect(res.body.details.validation_error).toEqual([
			{
				api_name: 'Stage',
				message: 'the field is set by the transition',
				index: 0,
				parent_api_name: null,
				info_message: null,
			},
			{
				api_name: 'Deal_Name',
				message: 'the field is not part of the transition',
				index: 0,
				parent_api_name: null,
				info_message: null,
			},
			{
				api_name: 'Amount',
				message: 'required field not found',
				index: 0,
				parent_api_name: null,
				info_message: null,
			},
		]);
		const typed = await transition(id, send.id, { Amount: 'lots' }, 'v2');
		expect(typed.status).toBe(400);
		expect(typed.body.details.validation_error).toEqual([
			{ api_name: 'Amount', message: 'invalid data', expected_data_type: 'currency' },
		]);
		expect(await stageOf(id)).toBe('Value Proposition');
	});

	it('refuses unknown or unavailable transitions, bad bodies and records not in a process', async () => {
		const id = await createDeal({ Stage: 'Qualification', Pipeline: 'Enterprise' });
		const bp = (await blueprintOf(id)).body.blueprint;
		// a transition of another stage is not available to this record
		const later = (
			await blueprintOf(await createDeal({ Stage: 'Negotiation/Review', Pipeline: 'Enterprise' }))
		).body.blueprint;
		const closeWon = transitionNamed(later, 'Close Won');
		const wrong = await transition(id, closeWon.id, { Closing_Date: '2025-01-01' });
		expect(wrong.status).toBe(400);
		expect(wrong.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { api_name: 'transition_id', json_path: '$.blueprint[0].transition_id' },
		});
		const missing = await call('PUT', `/crm/v2.1/Deals/${id}/actions/blueprint`, {
			body: { blueprint: [{ data: {} }] },
		});
		expect(missing.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { api_name: 'transition_id' },
		});
		const two = await call('PUT', `/crm/v2.1/Deals/${id}/actions/blueprint`, {
			body: { blueprint: [{ transition_id: '1' }, { transition_id: '2' }] },
		});
		expect(two.body).toMatchObject({
			code: 'LIMIT_EXCEEDED',
			details: { limit: 1, api_name: 'blueprint' },
		});
		const none = await call('PUT', `/crm/v2.1/Deals/${id}/actions/blueprint`, { body: {} });
		expect(none.body).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'blueprint' },
		});
		const outside = await createDeal({ Stage: 'Qualification', Pipeline: 'Standard' });
		const notIn = await transition(outside, transitionNamed(bp, 'Qualify').id, { Probability: 10 });
		expect(notIn.body.code).toBe('RECORD_NOT_IN_PROCESS');
		expect(await stageOf(id)).toBe('Qualification');
	});

	it('needs a module scope of the record', async () => {
		const id = await createDeal({ Stage: 'Qualification', Pipeline: 'Enterprise' });
		const leadsOnly = (await grantToken(sb.url, { scope: 'CRM.modules.leads.ALL' })).access_token;
		expect(
			(await api(`${sb.url}/crm/v2.1/Deals/${id}/actions/blueprint`, leadsOnly)).body.code,
		).toBe('OAUTH_SCOPE_MISMATCH');
		const dealsRead = (await grantToken(sb.url, { scope: 'CRM.modules.deals.READ' })).access_token;
		expect((await api(`${sb.url}/crm/v2.1/Deals/${id}/actions/blueprint`, dealsRead)).status).toBe(
			200,
		);
		const put = await api(`${sb.url}/crm/v2.1/Deals/${id}/actions/blueprint`, dealsRead, {
			method: 'PUT',
			body: { blueprint: [{ transition_id: '1' }] },
		});
		expect(put.body.code).toBe('OAUTH_SCOPE_MISMATCH');
	});
});

describe('process membership', () => {
	it('a deleted record leaves the process; a deal created outside the entry criteria never enters', async () => {
		const id = await createDeal({ Stage: 'Qualification', Pipeline: 'Enterprise' });
		expect((await blueprintOf(id)).status).toBe(200);
		expect((await call('DELETE', `/crm/v2.1/Deals/${id}`)).status).toBe(200);
		// the deleted deal has no blueprint any more: the answer for an unknown record
		expect((await blueprintOf(id)).body.code).toBe('INVALID_DATA');
		const closed = await createDeal({ Stage: 'Closed Won', Pipeline: 'Enterprise' });
		expect((await blueprintOf(closed)).body.code).toBe('RECORD_NOT_IN_PROCESS');
		const identify = await createDeal({
			Stage: 'Identify Decision Makers',
			Pipeline: 'Enterprise',
		});
		expect((await blueprintOf(identify)).body.code).toBe('RECORD_NOT_IN_PROCESS');
	});
});
