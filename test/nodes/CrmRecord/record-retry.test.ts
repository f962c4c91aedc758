 
// Retry with bounded exponential back-off (docs/protocol.md §7) through the engine, with faults forced
// at the sandbox: 429 twice then success; persistent 429; 5xx retried only where it is safe.
import { RETRY } from '../../../nodes/shared/transport';
import { crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Record › retry and back-off', () => {
	let crm: CrmFixture;
	const defaults = { ...RETRY };
	beforeAll(async () => {
		crm = await crmFixture();
	});
	afterAll(async () => {
		Object.assign(RETRY, defaults);
		await crm.close();
	});
	beforeEach(async () => {
		RETRY.baseMs = 50; // 50, 100, 200, 400 ms (±20 %) instead of 1, 2, 4, 8 s
		await crm.clearRequests();
	});

	const fault = async (status: number, count: number, pathIncludes: string) =>
		await fetch(`${crm.url}/__sandbox/faults`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ status, count, path_includes: pathIncludes }),
		});
	const statuses = async (prefix: string) => (await crm.requests()).filter((r) => r.url.startsWith(prefix)).map((r) => r.status);

	test('429 twice then success: a declarative read succeeds without user action', async () => {
		await fault(429, 2, '/crm/v2.1/Deals');
		const getAll = crm.node('crmRecord', { resource: 'record', operation: 'getAll', module: 'Deals', returnAll: false, limit: 4 });
		const started = Date.now();
		const out = outputOf(await crm.run(getAll), getAll.name);
		expect(out).toHaveLength(4);
		expect(await statuses('/crm/v2.1/Deals')).toEqual([429, 429, 200]);
		expect(Date.now() - started).toBeGreaterThanOrEqual(0.8 * (50 + 100));
	});

	test('429 twice then success: a batched create is re-sent and writes each record once', async () => {
		await fault(429, 2, '/crm/v2.1/Vendors');
		const create = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Vendors',
			fieldsMode: 'json',
			recordJson: '={{ JSON.stringify({ Vendor_Name: $json.name }) }}',
		});
		const out = outputOf(await crm.run(create, [{ json: { name: 'Retry Vendor A' } }, { json: { name: 'Retry Vendor B' } }]), create.name);
		expect(out.map((o) => o.json.status)).toEqual(['success', 'success']);
		expect(await statuses('/crm/v2.1/Vendors')).toEqual([429, 429, 201]);
		const names = (await crm.listAll('/crm/v2.1/Vendors?fields=Vendor_Name')).map((r) => r.Vendor_Name);
		expect(names.filter((n) => n === 'Retry Vendor A')).toHaveLength(1);
	});

	test('a persistent 429 ends in a clear TOO_MANY_REQUESTS error after 5 tries', async () => {
		await fault(429, 50, '/crm/v2.1/Products');
		const started = Date.now();
		const getAll = crm.node('crmRecord', { resource: 'record', operation: 'getAll', module: 'Products', returnAll: true });
		const error = errorOf(await crm.run(getAll), getAll.name);
		expect(error?.message).toContain('TOO_MANY_REQUESTS');
		expect(error?.description).toContain('retries ran out');
		expect(await statuses('/crm/v2.1/Products')).toEqual([429, 429, 429, 429, 429]);
		// back-off slept between tries: 50 + 100 + 200 + 400 ms, each at least 80 %
		expect(Date.now() - started).toBeGreaterThanOrEqual(0.8 * 750);

		const create = crm.node('crmRecord', { resource: 'record', operation: 'create', module: 'Products', fieldsMode: 'json', recordJson: '{"Product_Name": "Never"}' });
		const createError = errorOf(await crm.run(create), create.name);
		expect(createError?.message).toContain('TOO_MANY_REQUESTS');
		await fetch(`${crm.url}/__sandbox/faults`, { method: 'DELETE' });
	});

	test('a 500 is retried on reads, never on a create (its outcome is unknown)', async () => {
		await fault(500, 1, '/crm/v2.1/Campaigns');
		const getAll = crm.node('crmRecord', { resource: 'record', operation: 'getAll', module: 'Campaigns', limit: 2 });
		expect(outputOf(await crm.run(getAll), getAll.name)).toHaveLength(2);
		expect(await statuses('/crm/v2.1/Campaigns')).toEqual([500, 200]);

		await crm.clearRequests();
		await fault(500, 1, '/crm/v2.1/Campaigns');
		const create = crm.node('crmRecord', { resource: 'record', operation: 'create', module: 'Campaigns', fieldsMode: 'json', recordJson: '{"Campaign_Name": "Once"}' });
		const error = errorOf(await crm.run(create), create.name);
		expect(error?.message).toContain('INTERNAL_ERROR');
		expect(await statuses('/crm/v2.1/Campaigns')).toEqual([500]);
	});

	test('production defaults follow §7: 5 tries, 1 s base, capped', () => {
		expect(defaults).toEqual({ tries: 5, baseMs: 1000, capMs: 16_000 });
	});
});
