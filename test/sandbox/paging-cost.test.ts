// A page of records costs O(page), not O(module size), for every module (docs/protocol.md §3.6): with
// 20,000 Leads, page 1 and a deep page decode only the page's rows (the store's row counter), and
// the SQL behind them walks an index in listing order without sorting the module (its query plan).
// No timing assertions: speed belongs to the benchmarks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { Store } from '../../sandbox/store.ts';
import { useContractFixture } from '../harness/contract.ts';

const sb = useContractFixture({ scope: 'CRM.modules.ALL' });
const { call } = sb;
const EXTRA_LEADS = 20_000;
const PER_PAGE = 200;
const converted: string[] = [];
let visibleTotal = 0;

beforeAll(async () => {
	for (let batch = 0; batch < EXTRA_LEADS / 100; batch++) {
		const data = Array.from({ length: 100 }, (_, i) => ({
			Last_Name: `Paged ${String(batch * 100 + i).padStart(5, '0')}`,
			Company: 'Paging Co',
		}));
		const res = await call('POST', '/crm/v2.1/Leads', { body: { data } });
		expect(res.status).toBe(201);
	}
	// a few converted leads spread over the module: hidden from the default listing
	for (const page of [1, 40, 90]) {
		const [first] = (
			await call('GET', '/crm/v2.1/Leads', {
				query: { page, per_page: PER_PAGE, fields: 'Last_Name' },
			})
		).body.data;
		expect(
			(await call('POST', `/crm/v2.1/Leads/${first.id}/actions/convert`, { body: { data: [{}] } }))
				.status,
		).toBe(200);
		converted.push(first.id);
	}
	visibleTotal = (await call('GET', '/crm/v2.1/Leads/actions/count')).body.count;
}, 120_000);

/** Rows the store decoded while answering one request. */
async function rowsRead(
	query: Record<string, string | number>,
): Promise<{ rows: number; res: any }> {
	const stats = sb.sandbox.store.stats;
	const before = stats.recordRowsRead;
	const res = await call('GET', '/crm/v2.1/Leads', { query });
	return { rows: stats.recordRowsRead - before, res };
}

describe('GetRecords on 20,000 Leads', () => {
	it('the module holds the leads and hides the converted ones by default', () => {
		expect(visibleTotal).toBeGreaterThanOrEqual(EXTRA_LEADS - converted.length);
		expect(converted).toHaveLength(3);
	});

	it('page 1 decodes only the page (plus the look-ahead row)', async () => {
		const { rows, res } = await rowsRead({ page: 1, per_page: PER_PAGE });
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(PER_PAGE);
		expect(rows).toBeLessThanOrEqual(PER_PAGE + 1);
	});

	it('a deep page decodes only the page, and the last page ends the listing', async () => {
		const lastPage = Math.ceil(visibleTotal / PER_PAGE);
		const deep = await rowsRead({ page: lastPage - 1, per_page: PER_PAGE });
		expect(deep.res.body.data).toHaveLength(PER_PAGE);
		expect(deep.res.body.info.more_records).toBe(true);
		expect(deep.rows).toBeLessThanOrEqual(PER_PAGE + 1);
		const last = await rowsRead({ page: lastPage, per_page: PER_PAGE });
		expect(last.res.body.data).toHaveLength(visibleTotal - PER_PAGE * (lastPage - 1));
		expect(last.res.body.info.more_records).toBe(false);
		expect(last.rows).toBeLessThanOrEqual(PER_PAGE);
		const ids = [...deep.res.body.data, ...last.res.body.data].map((r: any) => r.id);
		for (const id of converted) expect(ids).not.toContain(id);
	});

	it('sorted pages (sort_by) decode only the page too, in the requested order', async () => {
		const { rows, res } = await rowsRead({
			page: 60,
			per_page: PER_PAGE,
			sort_by: 'Last_Name',
			sort_order: 'asc',
		});
		expect(rows).toBeLessThanOrEqual(PER_PAGE + 1);
		const names = res.body.data.map((r: any) => r.Last_Name);
		expect(names).toEqual([...names].sort());
		expect(res.body.info).toMatchObject({ sort_by: 'Last_Name', sort_order: 'asc' });
	});

	it('converted=true and converted=both list through the index as well', async () => {
		const only = await rowsRead({ converted: 'true', per_page: PER_PAGE });
		expect(only.res.body.data.map((r: any) => r.id).sort()).toEqual([...converted].sort());
		expect(only.rows).toBeLessThanOrEqual(converted.length);
		const both = await rowsRead({ converted: 'both', page: 90, per_page: PER_PAGE });
		expect(both.res.body.data).toHaveLength(PER_PAGE);
		expect(both.rows).toBeLessThanOrEqual(PER_PAGE + 1);
	});

	it.each([
		['default listing', {}],
		['converted only', { converted: true }],
		['sorted descending', { sortBy: 'Last_Name', sortOrder: 'desc' as const }],
		['sorted ascending', { sortBy: 'Last_Name', sortOrder: 'asc' as const }],
	])('the SQL plan of a deep page (%s) uses an index and no temporary sort', (_name, options) => {
		const plan = sb.sandbox.store.explainList('Leads', {
			converted: false,
			...options,
			offset: 19_000,
			limit: PER_PAGE + 1,
		});
		expect(plan.join('\n')).toMatch(/USING (COVERING )?INDEX/);
		expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
		expect(plan.join('\n')).not.toMatch(/^SCAN records$/m);
	});

	it('every module pages the same way (Accounts: default listing plan)', () => {
		const plan = sb.sandbox.store
			.explainList('Accounts', { converted: false, offset: 100, limit: 11 })
			.join('\n');
		expect(plan).toMatch(/USING (COVERING )?INDEX/);
		expect(plan).not.toMatch(/TEMP B-TREE/);
	});
});

describe('a store written before the converted column existed', () => {
	it('gets the column filled from the records on open', () => {
		const dir = mkdtempSync(join(tmpdir(), 'crm-sandbox-paging-'));
		const path = join(dir, 'old.db');
		try {
			const old = new DatabaseSync(path);
			old.exec(
				`CREATE TABLE records (id TEXT PRIMARY KEY, module TEXT NOT NULL, seq INTEGER NOT NULL, modified INTEGER NOT NULL, data TEXT NOT NULL)`,
			);
			const insert = old.prepare(
				'INSERT INTO records (id, module, seq, modified, data) VALUES (?, ?, ?, ?, ?)',
			);
			insert.run('1', 'Leads', 1, 0, JSON.stringify({ id: '1', Last_Name: 'Kept' }));
			insert.run(
				'2',
				'Leads',
				2,
				0,
				JSON.stringify({ id: '2', Last_Name: 'Converted', $converted: true }),
			);
			old.close();
			const store = new Store(path);
			try {
				expect(store.listRecords('Leads', { converted: false }).map((r) => r.id)).toEqual(['1']);
				expect(store.listRecords('Leads', { converted: true }).map((r) => r.id)).toEqual(['2']);
				expect(store.listRecords('Leads').map((r) => r.id)).toEqual(['1', '2']);
			} finally {
				store.close();
			}
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
