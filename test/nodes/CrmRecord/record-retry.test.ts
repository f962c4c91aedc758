// Retry with bounded exponential back-off (docs/protocol.md §7) through the engine, with faults forced
// at the sandbox: one 429 then success; persistent 429; 5xx retried only where it is safe.
// The retry policy runs as shipped (RETRY: 5 tries, back-off 1, 2, 4, 8 s ±20 %): each fault plan
// injects a fault only as often as the behaviour needs (one fault = one 1 s back-off), and one test
// exhausts the tries (~15 s).
import { RETRY } from '../../../nodes/shared/transport';
import { crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';
import { clearSandboxFaults, setSandboxFault } from '../../harness/sandbox';

describe('CRM Record › retry and back-off', () => {
	let crm: CrmFixture;
	beforeAll(async () => {
		crm = await crmFixture();
	});
	afterAll(async () => {
		await crm.close();
	});
	beforeEach(async () => {
		await crm.clearRequests();
	});
	afterEach(async () => {
		await clearSandboxFaults(crm.url);
	});

	const fault = async (status: number, count: number, pathIncludes: string) =>
		await setSandboxFault(crm.url, { status, count, path_includes: pathIncludes });
	const statuses = async (prefix: string) =>
		(await crm.requests()).filter((r) => r.url.startsWith(prefix)).map((r) => r.status);

	test('429 then success: a declarative read succeeds without user action', async () => {
		await fault(429, 1, '/crm/v2.1/Deals');
		const getAll = crm.node('crmRecord', {
			resource: 'record',
			operation: 'getAll',
			module: 'Deals',
			returnAll: false,
			limit: 4,
		});
		const started = Date.now();
		const out = outputOf(await crm.run(getAll), getAll.name);
		expect(out).toHaveLength(4);
		expect(await statuses('/crm/v2.1/Deals')).toEqual([429, 200]);
		// the back-off slept before the 2nd try: 1 s, at least 80 %
		expect(Date.now() - started).toBeGreaterThanOrEqual(0.8 * RETRY.baseMs);
	});

	test('429 then success: a batched create is re-sent and writes each record once', async () => {
		await fault(429, 1, '/crm/v2.1/Vendors');
		const create = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Vendors',
			fieldsMode: 'json',
			recordJson: '={{ JSON.stringify({ Vendor_Name: $json.name }) }}',
		});
		const out = outputOf(
			await crm.run(create, [
				{ json: { name: 'Retry Vendor A' } },
				{ json: { name: 'Retry Vendor B' } },
			]),
			create.name,
		);
		expect(out.map((o) => o.json.status)).toEqual(['success', 'success']);
		expect(await statuses('/crm/v2.1/Vendors')).toEqual([429, 201]);
		const names = (await crm.listAll('/crm/v2.1/Vendors?fields=Vendor_Name')).map(
			(r) => r.Vendor_Name,
		);
		expect(names.filter((n) => n === 'Retry Vendor A')).toHaveLength(1);
	});

	test('a persistent 429 ends in a clear TOO_MANY_REQUESTS error after 5 tries, on a read and on a batched create', async () => {
		await fault(429, 50, '/crm/v2.1/Products');
		const getAll = crm.node('crmRecord', {
			resource: 'record',
			operation: 'getAll',
			module: 'Products',
			returnAll: true,
		});
		const create = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Products',
			fieldsMode: 'json',
			recordJson: '{"Product_Name": "Never"}',
		});
		// both workflows run at once, so their back-offs (1 + 2 + 4 + 8 s) overlap: ~15 s, not 30
		const started = Date.now();
		const [readRun, createRun] = await Promise.all([crm.run(getAll), crm.run(create)]);
		const elapsed = Date.now() - started;
		const error = errorOf(readRun, getAll.name);
		expect(error?.message).toContain('TOO_MANY_REQUESTS');
		expect(error?.description).toContain('retries ran out');
		const createError = errorOf(createRun, create.name);
		expect(createError?.message).toContain('TOO_MANY_REQUESTS');
		const products = (await crm.requests()).filter((r) => r.url.startsWith('/crm/v2.1/Products'));
		expect(products.filter((r) => r.method === 'GET').map((r) => r.status)).toEqual(
			Array(RETRY.tries).fill(429),
		);
		expect(products.filter((r) => r.method === 'POST').map((r) => r.status)).toEqual(
			Array(RETRY.tries).fill(429),
		);
		// back-off slept between tries: 1 + 2 + 4 + 8 s, each at least 80 %
		expect(elapsed).toBeGreaterThanOrEqual(0.8 * 15_000);
	});

	test('a 500 is retried on reads, never on a create (its outcome is unknown)', async () => {
		await fault(500, 1, '/crm/v2.1/Campaigns');
		const getAll = crm.node('crmRecord', {
			resource: 'record',
			operation: 'getAll',
			module: 'Campaigns',
			limit: 2,
		});
		expect(outputOf(await crm.run(getAll), getAll.name)).toHaveLength(2);
		expect(await statuses('/crm/v2.1/Campaigns')).toEqual([500, 200]);

		await crm.clearRequests();
		await fault(500, 1, '/crm/v2.1/Campaigns');
		const create = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Campaigns',
			fieldsMode: 'json',
			recordJson: '{"Campaign_Name": "Once"}',
		});
		const error = errorOf(await crm.run(create), create.name);
		expect(error?.message).toContain('INTERNAL_ERROR');
		expect(await statuses('/crm/v2.1/Campaigns')).toEqual([500]);
	});

	test('production defaults follow §7: 5 tries, 1 s base, capped', () => {
		expect(RETRY).toEqual({ tries: 5, baseMs: 1000, capMs: 16_000 });
	});
});
