// The package under the §7 API limits (docs/protocol.md §7), which the sandbox enforces by default as
// the service does: parallel executions of one credential exceed the calls in flight of its client
// application, are answered 429 and back off (the transport's retry, RETRY), and every record is
// written once and read once. The edition is Free (5 calls in flight) and the calls are slowed by
// the fault plan's delay, which holds their slots, so the limit is met for certain.
import { crmFixture } from '../harness/crm';
import type { CrmFixture } from '../harness/crm';
import { outputOf } from '../harness/n8n';

describe('parallel executions under the API limits (engine → sandbox over HTTP)', () => {
	let crm: CrmFixture;
	beforeAll(async () => {
		crm = await crmFixture({ sandbox: { apiLimits: { edition: 'Free' } } });
	});
	afterAll(async () => {
		await fetch(`${crm.url}/__sandbox/fault-plan`, { method: 'DELETE' });
		await crm.close();
	});

	const slowDown = async (pathIncludes: string) => {
		const res = await fetch(`${crm.url}/__sandbox/fault-plan`, {
			method: 'PUT',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ delayMs: 300, pathIncludes, seed: 7 }),
		});
		expect(res.status).toBe(200);
	};
	const statuses = async (prefix: string) =>
		(await crm.requests()).filter((r) => r.url.startsWith(prefix)).map((r) => r.status);

	test('12 executions of a batched create at once: 429s are retried, each of 300 records is written once', async () => {
		expect((await crm.hook('GET', '/limits')).body.limits).toMatchObject({
			enabled: true,
			concurrency_limit: 5,
		});
		await slowDown('/crm/v2.1/Vendors');
		await crm.clearRequests();
		const runs = Array.from({ length: 12 }, async (_, run) => {
			const create = crm.node('crmRecord', {
				resource: 'record',
				operation: 'create',
				module: 'Vendors',
				fieldsMode: 'json',
				recordJson: '={{ JSON.stringify({ Vendor_Name: $json.name }) }}',
			});
			const input = Array.from({ length: 25 }, (_, i) => ({
				json: { name: `Limited ${run}-${i}` },
			}));
			return outputOf(await crm.run(create, input), create.name);
		});
		const outputs = await Promise.all(runs);
		expect(outputs.flat().map((o) => o.json.status)).toEqual(Array(300).fill('success'));
		const sent = await statuses('/crm/v2.1/Vendors');
		expect(sent.filter((s) => s === 429).length).toBeGreaterThan(0);
		expect(sent.filter((s) => s !== 429)).toEqual(Array(12).fill(201));
		const names = (await crm.listAll('/crm/v2.1/Vendors?fields=Vendor_Name'))
			.map((r) => String(r.Vendor_Name))
			.filter((n) => n.startsWith('Limited '));
		expect(names).toHaveLength(300);
		expect(new Set(names).size).toBe(300);
	});

	test('8 sorted reads (resource-intensive) at once: each returns every record', async () => {
		const expected = (await crm.listAll('/crm/v2.1/Vendors?fields=Vendor_Name')).length;
		await slowDown('/crm/v2.1/Vendors');
		await crm.clearRequests();
		const runs = Array.from({ length: 8 }, async () => {
			const getAll = crm.node('crmRecord', {
				resource: 'record',
				operation: 'getAll',
				module: 'Vendors',
				returnAll: true,
				options: { sort_by: 'Vendor_Name', sort_order: 'asc' },
			});
			return outputOf(await crm.run(getAll), getAll.name).map((o) => o.json.id);
		});
		const ids = await Promise.all(runs);
		for (const list of ids) {
			expect(list).toHaveLength(expected);
			expect(new Set(list).size).toBe(expected);
		}
		expect((await statuses('/crm/v2.1/Vendors')).filter((s) => s === 429).length).toBeGreaterThan(
			0,
		);
	});
});
