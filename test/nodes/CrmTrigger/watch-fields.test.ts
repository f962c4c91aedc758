// CRM Trigger "Only When These Fields Change": the sandbox's watch channel delivers each edit with
// its affected_fields; only edits naming a watched field start an execution (creates and deletes
// always do), through the trigger's webhook() and a production execution in n8n-core's engine.
import { crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { startReceiver } from '../../harness/receiver';
import type { Receiver } from '../../harness/receiver';
import { crmTrigger, routeDeliveries } from '../../harness/trigger';
import { deliveriesSettled } from '../../harness/wait';

let crm: CrmFixture;
let receiver: Receiver;

beforeAll(async () => {
	crm = await crmFixture({
		sandbox: { demo: false, deliveryRetryDelaysMs: [0, 50, 100], deliveryTimeoutMs: 5000 },
	});
	receiver = await startReceiver();
});
afterAll(async () => {
	await crm.close();
	await receiver.close();
});

test('edits of other fields start nothing; an edit of a watched field starts one execution naming it', async () => {
	const x = crmTrigger(
		crm,
		{
			modules: ['Leads'],
			events: ['all'],
			output: 'ids',
			options: { watchFields: ['Email', 'Lead_Status'] },
		},
		{
			origin: receiver.url,
			webhookId: '0a1b2c3d-0000-4000-8000-00000000f001',
		},
	);
	routeDeliveries(receiver, x);
	await x.activate();
	const channelId = x.state().channelId as string;
	const created = await crm.api('POST', '/crm/v2.1/Leads', {
		data: [{ Last_Name: 'Watched', Email: 'a@x.io' }],
	});
	const id = String(created.body.data[0].details.id);
	await deliveriesSettled(crm.url, 1, { channelId });
	expect(x.emitted().map((items) => items.map((i) => i.json.operation))).toEqual([['create']]);

	await crm.api('PUT', '/crm/v2.1/Leads', { data: [{ id, Phone: '555' }] });
	await deliveriesSettled(crm.url, 2, { channelId });
	// delivered and answered, but no execution: Phone is not watched
	expect(x.webhookResults[1].webhookResponse).toEqual({ status: 'ignored', records: 0 });
	expect(x.executions).toHaveLength(1);

	await crm.api('PUT', '/crm/v2.1/Leads', { data: [{ id, Email: 'b@x.io', Phone: '556' }] });
	await deliveriesSettled(crm.url, 3, { channelId });
	expect(x.executions).toHaveLength(2);
	expect(x.emitted()[1].map((i) => i.json)).toEqual([
		expect.objectContaining({ id, operation: 'edit', changed_fields: ['Email'] }),
	]);

	await crm.api('DELETE', `/crm/v2.1/Leads?ids=${id}`);
	await deliveriesSettled(crm.url, 4, { channelId });
	expect(x.emitted()[2].map((i) => i.json.operation)).toEqual(['delete']);
	await x.delete();
});
