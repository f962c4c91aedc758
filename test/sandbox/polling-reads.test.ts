// The reads the CRM Polling Trigger walks on, over HTTP (docs/protocol.md §3.7, §3.13, §5.1): a
// COQL keyset query on (Modified_Time, id) answers the rows after a position in that order, also
// while records change between two pages; GetDeletedRecords with If-Modified-Since answers the
// deletions after that second, and 304 when there are none.
import { useContractFixture } from '../harness/contract.ts';
import { advanceSandboxClock } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.coql.READ,CRM.modules.ALL', sandbox: { demo: false } });

const coql = async (query: string) =>
	await sb.call('POST', '/crm/v2.1/coql', { body: { select_query: query } });
const keyset = (t: string, id: string) =>
	`SELECT id, Modified_Time FROM Vendors WHERE (Modified_Time > '${t}' or (Modified_Time = '${t}' and id > '${id}')) ORDER BY Modified_Time ASC, id ASC LIMIT 2`;

test('a COQL keyset query on (Modified_Time, id) walks every record once, records changed between pages included', async () => {
	const created = await sb.call('POST', '/crm/v2.1/Vendors', {
		body: { data: ['a', 'b', 'c', 'd'].map((n) => ({ Vendor_Name: n })) },
	});
	expect(created.status).toBe(201);
	const ids: string[] = created.body.data.map((d: { details: { id: string } }) => d.details.id);
	const first = await coql(
		`SELECT id, Modified_Time FROM Vendors WHERE Modified_Time >= '2000-01-01T00:00:00Z' ORDER BY Modified_Time ASC, id ASC LIMIT 2`,
	);
	expect(first.status).toBe(200);
	expect(first.body.data.map((r: { id: string }) => r.id)).toEqual(ids.slice(0, 2));
	expect(first.body.info.more_records).toBe(true);
	// an already-read record and a not-yet-read one change a second later: both move behind the walk
	await advanceSandboxClock(sb.url, 1000);
	expect(
		(
			await sb.call('PUT', '/crm/v2.1/Vendors', {
				body: {
					data: [
						{ id: ids[0], Vendor_Name: 'a2' },
						{ id: ids[2], Vendor_Name: 'c2' },
					],
				},
			})
		).status,
	).toBe(200);
	const last = first.body.data[1];
	const second = await coql(keyset(last.Modified_Time, last.id));
	expect(second.body.data.map((r: { id: string }) => r.id)).toEqual([ids[3], ids[0]]);
	const third = await coql(keyset(second.body.data[1].Modified_Time, second.body.data[1].id));
	expect(third.body.data.map((r: { id: string }) => r.id)).toEqual([ids[2]]);
	expect(third.body.info.more_records).toBe(false);
	const end = await coql(keyset(third.body.data[0].Modified_Time, third.body.data[0].id));
	expect(end.status).toBe(204);
});

test('GetDeletedRecords with If-Modified-Since: the deletions after that second, 304 when none', async () => {
	const created = await sb.call('POST', '/crm/v2.1/Vendors', {
		body: { data: [{ Vendor_Name: 'gone 1' }, { Vendor_Name: 'gone 2' }] },
	});
	const [one, two] = created.body.data.map((d: { details: { id: string } }) => d.details.id);
	await advanceSandboxClock(sb.url, 1000);
	expect((await sb.call('DELETE', '/crm/v2.1/Vendors', { query: { ids: one } })).status).toBe(200);
	const listed = await sb.call('GET', '/crm/v2.1/Vendors/deleted', { query: { type: 'all' } });
	const deletedOne = listed.body.data.find((e: { id: string }) => e.id === one);
	const t1 = Date.parse(deletedOne.deleted_time);
	await advanceSandboxClock(sb.url, 1000);
	expect((await sb.call('DELETE', '/crm/v2.1/Vendors', { query: { ids: two } })).status).toBe(200);
	const since = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
	const after = await sb.call('GET', '/crm/v2.1/Vendors/deleted', {
		query: { type: 'all' },
		headers: { 'If-Modified-Since': since(t1) },
	});
	expect(after.body.data.map((e: { id: string }) => e.id)).toEqual([two]);
	const fromT1 = await sb.call('GET', '/crm/v2.1/Vendors/deleted', {
		query: { type: 'all' },
		headers: { 'If-Modified-Since': since(t1 - 1000) },
	});
	expect(fromT1.body.data.map((e: { id: string }) => e.id).sort()).toEqual([one, two].sort());
	const none = await sb.call('GET', '/crm/v2.1/Vendors/deleted', {
		query: { type: 'all' },
		headers: { 'If-Modified-Since': since(t1 + 60_000) },
	});
	expect(none.status).toBe(304);
});
