// Contract tests of the notes routes (docs/protocol.md §5.3) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const sb = useContractFixture({ scope: 'CRM.modules.ALL' });
const { call } = sb;
let lead: string;
beforeAll(async () => {
	lead = (await call('POST', '/crm/v2.1/Leads', { body: { data: [{ Last_Name: 'Note Parent' }] } }))
		.body.data[0].details.id;
});

const note = (extra: Record<string, unknown> = {}) => ({
	Note_Title: 'T',
	Note_Content: 'C',
	Parent_Id: { id: lead },
	$se_module: 'Leads',
	...extra,
});

describe('CreateNotes', () => {
	it('201 with record items; Parent_Id carries the parent name; 400 when all fail; mixed keeps order', async () => {
		const ok = await call('POST', '/crm/v2.1/Notes', { body: { data: [note()] } });
		expect(ok.status).toBe(201);
		expect(ok.body.data[0]).toMatchObject({
			code: 'SUCCESS',
			action: 'insert',
			message: 'record added',
			status: 'success',
		});
		const stored = (await call('GET', `/crm/v2.1/Notes/${ok.body.data[0].details.id}`)).body
			.data[0];
		expect(stored).toMatchObject({
			Parent_Id: { id: lead, name: 'Note Parent' },
			$se_module: 'Leads',
			Note_Title: 'T',
		});

		const bad = await call('POST', '/crm/v2.1/Notes', {
			body: {
				data: [
					{ Note_Content: 'no parent' },
					note({ $se_module: undefined }),
					note({ Parent_Id: { id: '4876876999999999999' } }),
					note({ $se_module: 'Nope' }),
					note({ Note_Content: '' }),
				],
			},
		});
		expect(bad.status).toBe(400);
		expect(bad.body.data.map((r: any) => [r.code, r.details.api_name])).toEqual([
			['MANDATORY_NOT_FOUND', '$se_module'],
			['MANDATORY_NOT_FOUND', '$se_module'],
			['INVALID_DATA', 'Parent_Id'],
			['INVALID_DATA', '$se_module'],
			['MANDATORY_NOT_FOUND', 'Note_Content'],
		]);
		expect(bad.body.data[2].details.json_path).toBe('$.data[2].Parent_Id');

		const mixed = await call('POST', '/crm/v2.1/Notes', {
			body: { data: [note(), { Note_Content: 'x' }] },
		});
		expect(mixed.status).toBe(201);
		expect(mixed.body.data.map((r: any) => r.status)).toEqual(['success', 'error']);
	});

	it('bounds: 101 notes → LIMIT_EXCEEDED; no data → MANDATORY_NOT_FOUND', async () => {
		const res = await call('POST', '/crm/v2.1/Notes', {
			body: { data: Array.from({ length: 101 }, () => note()) },
		});
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({
			code: 'LIMIT_EXCEEDED',
			details: { limit: 100, api_name: 'data' },
		});
		expect((await call('POST', '/crm/v2.1/Notes', { body: {} })).body.code).toBe(
			'MANDATORY_NOT_FOUND',
		);
	});

	it('parent-scoped POST /{module}/{recordId}/Notes takes the parent from the path', async () => {
		const res = await call('POST', `/crm/v2.1/Leads/${lead}/Notes`, {
			body: { data: [{ Note_Content: 'scoped' }] },
		});
		expect(res.status).toBe(201);
		const id = res.body.data[0].details.id;
		expect((await call('GET', `/crm/v2.1/Notes/${id}`)).body.data[0]).toMatchObject({
			$se_module: 'Leads',
			Parent_Id: { id: lead },
		});
		const missing = await call('POST', '/crm/v2.1/Leads/4876876999999999999/Notes', {
			body: { data: [{ Note_Content: 'x' }] },
		});
		expect(missing.body).toMatchObject({
			code: 'INVALID_DATA',
			details: { id: '4876876999999999999' },
		});
	});
});

describe('reads', () => {
	it('GetNotes pages; fields keep Parent_Id/$se_module; v2.1 sort; IMS 304; GetNote 204 for unknown', async () => {
		const p = await call('GET', '/crm/v2.1/Notes', { query: { per_page: 2 } });
		expect(p.body.info).toMatchObject({ per_page: 2, count: 2, page: 1, more_records: true });
		const fields = await call('GET', '/crm/v2.1/Notes', { query: { fields: 'Note_Title' } });
		expect(Object.keys(fields.body.data[0]).sort()).toEqual([
			'$se_module',
			'Note_Title',
			'Parent_Id',
			'id',
		]);
		const sorted = await call('GET', '/crm/v2.1/Notes', {
			query: { sort_by: 'id', sort_order: 'asc' },
		});
		expect(sorted.body.info).toMatchObject({ sort_by: 'id', sort_order: 'asc' });
		expect((await call('GET', '/crm/v2.1/Notes', { query: { sort_by: 'Nope' } })).body.code).toBe(
			'INVALID_DATA',
		);
		// v2 has no sort_by: ignored
		expect((await call('GET', '/crm/v2/Notes', { query: { sort_by: 'Nope' } })).status).toBe(200);
		const future = new Date(Date.now() + 3600_000).toISOString().replace(/\.\d+Z$/, '+00:00');
		expect(
			(await call('GET', '/crm/v2.1/Notes', { headers: { 'If-Modified-Since': future } })).status,
		).toBe(304);
		expect((await call('GET', '/crm/v2.1/Notes/4876876999999999999')).status).toBe(204);
		const scoped = await call('GET', `/crm/v2.1/Leads/${lead}/Notes`);
		expect(scoped.body.data.every((n: any) => n.Parent_Id.id === lead)).toBe(true);
	});
});

describe('UpdateNotes / UpdateNote / DeleteNotes / DeleteNote', () => {
	it('updates by id, refuses unknown ids per item, deletes', async () => {
		const [a, b] = (
			await call('POST', '/crm/v2.1/Notes', { body: { data: [note(), note()] } })
		).body.data.map((r: any) => r.details.id);
		const upd = await call('PUT', '/crm/v2.1/Notes', {
			body: {
				data: [
					{ id: a, Note_Title: 'A2' },
					{ id: '4876876999999999999', Note_Title: 'x' },
					{ Note_Title: 'no id' },
				],
			},
		});
		expect(upd.status).toBe(200);
		expect(upd.body.data.map((r: any) => r.code)).toEqual([
			'SUCCESS',
			'INVALID_DATA',
			'MANDATORY_NOT_FOUND',
		]);
		expect(upd.body.data[0].message).toBe('record updated');
		const one = await call('PUT', `/crm/v2.1/Notes/${b}`, {
			body: { data: [{ Note_Content: 'B2' }] },
		});
		expect(one.body.data[0]).toMatchObject({ status: 'success', details: { id: b } });
		expect((await call('GET', `/crm/v2.1/Notes/${b}`)).body.data[0].Note_Content).toBe('B2');
		const moved = await call('PUT', `/crm/v2.1/Notes/${b}`, {
			body: { data: [{ Parent_Id: { id: '4876876999999999999' } }] },
		});
		expect(moved.body.data[0]).toMatchObject({
			code: 'INVALID_DATA',
			details: { api_name: 'Parent_Id' },
		});

		const del = await call('DELETE', '/crm/v2.1/Notes', {
			query: { ids: `${a},4876876999999999999` },
		});
		expect(del.body.data.map((r: any) => r.status)).toEqual(['success', 'error']);
		expect((await call('DELETE', `/crm/v2.1/Notes/${b}`)).body.data[0].message).toBe(
			'record deleted',
		);
		expect((await call('GET', `/crm/v2.1/Notes/${b}`)).status).toBe(204);
		expect((await call('DELETE', '/crm/v2.1/Notes')).body.code).toBe('REQUIRED_PARAM_MISSING');
		const many = Array.from({ length: 101 }, (_, i) =>
			String(4876876000000000000n + BigInt(i)),
		).join(',');
		expect((await call('DELETE', '/crm/v2.1/Notes', { query: { ids: many } })).body).toMatchObject({
			code: 'LIMIT_EXCEEDED',
			details: { limit: 100 },
		});
	});
});

describe('scopes, events, cascade', () => {
	it('needs CRM.modules.notes.* (or CRM.modules.ALL)', async () => {
		const notesOnly = (await grantToken(sb.url, { scope: 'CRM.modules.notes.READ' })).access_token;
		expect((await api(`${sb.url}/crm/v2.1/Notes`, notesOnly)).status).toBe(200);
		const create = await api(`${sb.url}/crm/v2.1/Notes`, notesOnly, {
			method: 'POST',
			body: { data: [note()] },
		});
		expect(create.body.code).toBe('OAUTH_SCOPE_MISMATCH');
	});

	it('writes fire record change events; deleting the parent deletes its notes', async () => {
		// the change events the service published (test hook GET /__sandbox/changes, docs/protocol.md §14)
		await api(`${sb.url}/__sandbox/changes`, undefined, { method: 'DELETE' });
		const parent = (
			await call('POST', '/crm/v2.1/Leads', { body: { data: [{ Last_Name: 'Doomed' }] } })
		).body.data[0].details.id;
		const id = (
			await call('POST', `/crm/v2.1/Leads/${parent}/Notes`, {
				body: { data: [{ Note_Content: 'bye' }] },
			})
		).body.data[0].details.id;
		await call('DELETE', `/crm/v2.1/Leads/${parent}`);
		const events: any[] = (await api(`${sb.url}/__sandbox/changes`)).body.changes;
		const seen = events.map((e) => `${e.module}:${e.operation}`);
		expect(seen.slice(0, 2)).toEqual(['Leads:insert', 'Notes:insert']);
		expect(seen.slice(2).sort()).toEqual(['Leads:delete', 'Notes:delete']);
		expect(events.find((e) => e.module === 'Notes' && e.operation === 'delete').ids).toEqual([id]);
		expect((await call('GET', `/crm/v2.1/Notes/${id}`)).status).toBe(204);
	});
});
