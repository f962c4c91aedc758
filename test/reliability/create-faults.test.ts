// Reliability of batched creates under injected faults (sandbox/faults.ts): 1,000 records through the
// engine while a share of calls answers 429 / 500 / 503 (before or after the write took effect) or
// loses its connection. Every record must end created exactly once, or be reported failed (and then
// exist at most once): the sandbox's store is compared with the node's output item by item.
// A create whose outcome is unknown is settled by an upsert on a unique field, never re-POSTed.
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { RETRY } from '../../nodes/shared/transport';
import type { AccessTokenDoc } from '../../sandbox/auth.ts';
import type { FaultPlan, FaultStats } from '../../sandbox/faults.ts';
import { crmFixture } from '../harness/crm';
import type { CrmFixture } from '../harness/crm';
import { outputOf } from '../harness/n8n';

const RECORDS = 1000;

let crm: CrmFixture;

// The package's own retry policy (RETRY: back-off 1, 2, 4, 8 s with jitter) runs as shipped.
beforeAll(async () => {
	crm = await crmFixture({ sandbox: { demo: false } });
});
afterAll(async () => await crm.close());
beforeEach(async () => await crm.clearRequests());
afterEach(async () => await crm.hook('DELETE', '/fault-plan'));

/** CreateRecords for every input item (raw JSON mode), Continue On Fail: one output item per input. */
function createNode(module: string) {
	return crm.node(
		'crmRecord',
		{
			resource: 'record',
			operation: 'create',
			module,
			fieldsMode: 'json',
			recordJson: '={{ JSON.stringify($json) }}',
		},
		{ onError: 'continueRegularOutput' },
	);
}

/** Runs the create with the plan in force; answers the output and what was injected (the plan is then cleared). */
async function createUnderFaults(
	module: string,
	rows: IDataObject[],
	plan: FaultPlan,
): Promise<{ out: INodeExecutionData[]; stats: FaultStats }> {
	const node = createNode(module);
	await crm.hook('PUT', '/fault-plan', plan);
	try {
		const out = outputOf(
			await crm.run(
				node,
				rows.map((json) => ({ json })),
			),
			node.name,
		);
		return { out, stats: (await crm.hook('GET', '/fault-plan')).body.stats };
	} finally {
		await crm.hook('DELETE', '/fault-plan'); // nothing injected while the test reads the records back
	}
}

/** Records of a module as the CRM lists them (GetRecords, every page), grouped by the value of `field`. */
async function storeBy(module: string, field: string): Promise<Map<string, any[]>> {
	const by = new Map<string, any[]>();
	for (const record of await crm.listAll(`/crm/v2.1/${module}?fields=${field}`)) {
		const key = String(record[field]);
		by.set(key, [...(by.get(key) ?? []), record]);
	}
	return by;
}

interface Check {
	created: number;
	failed: number;
	failedButStored: number;
}

/** Every success is stored exactly once under its id; every failure is stored at most once. */
async function compare(
	out: INodeExecutionData[],
	rows: IDataObject[],
	module: string,
	field: string,
): Promise<Check> {
	expect(out).toHaveLength(rows.length);
	const stored = await storeBy(module, field);
	const check: Check = { created: 0, failed: 0, failedButStored: 0 };
	out.forEach((item, i) => {
		expect(item.pairedItem).toEqual({ item: i });
		const matches = stored.get(String(rows[i][field])) ?? [];
		if (item.json.error === undefined) {
			check.created++;
			expect(item.json.status).toBe('success');
			expect(matches).toHaveLength(1);
			expect(matches[0].id).toBe(item.json.id);
		} else {
			check.failed++;
			expect(matches.length).toBeLessThanOrEqual(1);
			if (matches.length === 1) check.failedButStored++;
		}
	});
	// nothing else was written: no duplicates, no strays
	const mine = new Set(rows.map((r) => String(r[field])));
	for (const [value, records] of stored) if (mine.has(value)) expect(records).toHaveLength(1);
	return check;
}

function report(
	label: string,
	s: FaultStats,
	check: Check,
	extra: Record<string, number> = {},
): void {
	console.log(
		`${label}: faults injected: 429=${s.injected429}, 500=${s.injected500}, 503=${s.injected503}, dropped connections=${s.droppedConnections} (of ${s.calls} calls); ` +
			`records checked: ${check.created + check.failed} (created once: ${check.created}, reported failed: ${check.failed}, of which stored once: ${check.failedButStored})` +
			Object.entries(extra)
				.map(([k, v]) => `, ${k}: ${v}`)
				.join(''),
	);
}

const posts = async (path: string) =>
	(await crm.requests()).filter((r) => r.method === 'POST' && r.url.split('?')[0] === path);

const leads = (tag: string) =>
	Array.from({ length: RECORDS }, (_, i) => ({
		Last_Name: `Reliable ${tag} ${i}`,
		Company: 'Faults Inc',
		Email: `rel-${tag}-${i}@faults.example`,
	}));

describe('reliability › 1,000-record create under injected faults', () => {
	test('20 % 429/5xx, the 5xx after the write took effect: every record created exactly once', async () => {
		const rows = leads('after');
		const { out, stats } = await createUnderFaults('Leads', rows, {
			rate429: 0.1,
			rate500: 0.05,
			rate503: 0.05,
			after: true,
			seed: 16,
		});
		const check = await compare(out, rows, 'Leads', 'Email');
		const upserts = await posts('/crm/v2.1/Leads/upsert');
		report('create, 5xx after effect', stats, check, { 'upsert re-sends': upserts.length });
		// seeded: this plan injects 429, 500 and 503 into the ~15 calls of the run
		expect(Math.min(stats.injected429, stats.injected500, stats.injected503)).toBeGreaterThan(0);
		expect(upserts.length).toBeGreaterThan(0);
		expect(check.created).toBe(RECORDS);
		// the chunks whose 5xx hid a successful write were settled as updates of those very records
		expect(out.some((o) => o.json.action === 'update' && o.json.duplicate_field === 'Email')).toBe(
			true,
		);
	});

	test('20 % 429/5xx before the write and 3 % dropped connections: created exactly once or reported failed', async () => {
		const rows = leads('drop');
		const { out, stats } = await createUnderFaults('Leads', rows, {
			rate429: 0.1,
			rate500: 0.05,
			rate503: 0.05,
			dropConnectionRate: 0.03,
			seed: 18,
		});
		const check = await compare(out, rows, 'Leads', 'Email');
		report('create, 5xx before effect + drops', stats, check, {
			'upsert re-sends': (await posts('/crm/v2.1/Leads/upsert')).length,
		});
		expect(
			Math.min(stats.injected500, stats.injected503, stats.droppedConnections),
		).toBeGreaterThan(0);
		expect(check.created + check.failed).toBe(RECORDS);
		// the upsert re-sends are retried through 5xx and lost connections, so they settled every chunk
		expect(check.created).toBe(RECORDS);
	});

	test('a module without a unique field: chunks of unknown outcome are reported failed, never re-POSTed', async () => {
		const rows = Array.from({ length: RECORDS }, (_, i) => ({
			Vendor_Name: `Vendor under faults ${i}`,
		}));
		const { out, stats } = await createUnderFaults('Vendors', rows, {
			rate429: 0.1,
			rate500: 0.05,
			rate503: 0.05,
			after: true,
			seed: 3,
		});
		const check = await compare(out, rows, 'Vendors', 'Vendor_Name');
		const creates = await posts('/crm/v2.1/Vendors');
		report('create without unique field', stats, check, {
			'POSTs that reached the store': creates.filter((r) => r.status !== 429).length,
		});
		// each chunk of 100 was processed by the CRM exactly once: 429s are the only re-sends
		expect(creates.filter((r) => r.status !== 429)).toHaveLength(RECORDS / 100);
		expect(await posts('/crm/v2.1/Vendors/upsert')).toHaveLength(0);
		expect(check.failed).toBeGreaterThan(0);
		// a 5xx after effect: the failed records were in fact written, once
		expect(check.failedButStored).toBe(check.failed);
		const failure = out.find((o) => o.json.error !== undefined)!.json;
		expect(failure.error).toMatch(
			/^Outcome unknown: the create request failed \(The CRM had an internal error \[INTERNAL_ERROR\]/,
		);
		expect(failure.message).toContain(
			'no value in a unique field of the module (none in this module)',
		);
	});
});

describe('reliability › tokens expiring early', () => {
	test('every access token expires in the middle of a 1,000-record create: n8n refreshes and each record is created once', async () => {
		const { sandbox } = crm.running;
		const original = sandbox.faultPlan.decide.bind(sandbox.faultPlan);
		let calls = 0;
		let expired = 0;
		// before the 4th and 8th API call, every access token of the sandbox expires (as POST /__sandbox/tokens/expire does)
		sandbox.faultPlan.decide = (path: string) => {
			calls++;
			if (calls === 4 || calls === 8) {
				for (const doc of sandbox.store.docs<AccessTokenDoc>('access_tokens')) {
					sandbox.store.putDoc('access_tokens', doc.access_token, { ...doc, expires_at: 0 });
					expired++;
				}
			}
			return original(path);
		};
		const refreshesBefore = crm.helper.updates.length;
		try {
			const rows = leads('token');
			const node = createNode('Leads');
			const out = outputOf(
				await crm.run(
					node,
					rows.map((json) => ({ json })),
				),
				node.name,
			);
			const check = await compare(out, rows, 'Leads', 'Email');
			const refused = (await crm.requests()).filter((r) => r.status === 401).length;
			console.log(
				`tokens expiring early: faults injected: access tokens expired=${expired} (at 2 points of the run), 401 answers=${refused}, refreshes=${crm.helper.updates.length - refreshesBefore}; records checked: ${check.created + check.failed} (created once: ${check.created})`,
			);
			expect(refused).toBe(2);
			expect(crm.helper.updates.length - refreshesBefore).toBe(2);
			expect(check.created).toBe(RECORDS);
		} finally {
			sandbox.faultPlan.decide = original;
		}
	});
});

describe('reliability › settling one chunk of unknown outcome', () => {
	test('payloads with a unique value are upserted on that field; one without is reported, not re-sent', async () => {
		const { sandbox } = crm.running;
		// the first create answers 503 after it took effect; everything after is healthy
		const original = sandbox.faultPlan.decide.bind(sandbox.faultPlan);
		let armed = true;
		sandbox.faultPlan.decide = (path: string) => {
			if (armed && path === '/crm/v2.1/Leads') {
				armed = false;
				return { kind: 'status', status: 503, code: 'INTERNAL_ERROR', after: true };
			}
			return original(path);
		};
		try {
			const rows = [
				{ Last_Name: 'Mixed A', Email: 'mixed-a@faults.example' },
				{ Last_Name: 'Mixed B', External_Lead_ID: 'EXT-MIXED-B' },
				{ Last_Name: 'Mixed C', Email: 'mixed-c@faults.example' },
				{ Last_Name: 'Mixed D (no unique value)' },
			];
			const node = createNode('Leads');
			const out = outputOf(
				await crm.run(
					node,
					rows.map((json) => ({ json })),
				),
				node.name,
			);
			expect(out.map((o) => o.json.status)).toEqual(['success', 'success', 'success', undefined]);
			expect(out.slice(0, 3).map((o) => o.json.duplicate_field)).toEqual([
				'Email',
				'External_Lead_ID',
				'Email',
			]);
			expect(out[3].json.error).toContain('Outcome unknown');
			expect(out[3].json.message).toContain('Email, External_Lead_ID');
			// one create (answered 503 after writing all four), one upsert per unique field; no second create
			expect((await posts('/crm/v2.1/Leads')).map((r) => r.status)).toEqual([503]);
			expect((await posts('/crm/v2.1/Leads/upsert')).map((r) => r.status)).toEqual([200, 200]);
			const names = (await crm.listAll('/crm/v2.1/Leads?fields=Last_Name'))
				.map((r) => r.Last_Name)
				.filter((n) => n.startsWith('Mixed'));
			expect(names.sort()).toEqual(['Mixed A', 'Mixed B', 'Mixed C', 'Mixed D (no unique value)']);
			for (const o of out.slice(0, 3))
				expect((await crm.api('GET', `/crm/v2.1/Leads/${o.json.id}`)).body?.data?.[0]?.id).toBe(
					o.json.id,
				);
		} finally {
			sandbox.faultPlan.decide = original;
		}
	});

	test('without Continue On Fail the node fails naming the unsettled item; the settled ones were written once', async () => {
		await crm.hook('PUT', '/fault-plan', {
			rate500: 1,
			after: true,
			pathIncludes: '/crm/v2.1/Contacts',
		});
		const node = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Contacts',
			fieldsMode: 'json',
			recordJson: '={{ JSON.stringify($json) }}',
		});
		const run = await crm.run(node, [
			{ json: { Last_Name: 'Strict A', Email: 'strict-a@faults.example' } },
			{ json: { Last_Name: 'Strict B' } },
		]);
		const { stats } = (await crm.hook('DELETE', '/fault-plan')).body as { stats: FaultStats };
		const error = run.data.resultData.runData[node.name][0].error as any;
		// the upsert is idempotent, so it was retried through every 5xx until the tries ran out
		expect(stats.injected500).toBe(1 + RETRY.tries);
		expect(error.message).toContain('INTERNAL_ERROR');
		expect(error.message).toMatch(/^No item confirmed written; items 0–1 failed \(2\)/);
		const strict = (await crm.listAll('/crm/v2.1/Contacts?fields=Last_Name')).filter((r) =>
			String(r.Last_Name).startsWith('Strict'),
		);
		expect(strict.map((r) => r.Last_Name).sort()).toEqual(['Strict A', 'Strict B']);
		console.log(
			`strict run: faults injected: 500=${stats.injected500}; records checked: 2 (each stored once)`,
		);
	});
});
