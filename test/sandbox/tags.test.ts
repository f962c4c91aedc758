// Contract tests of the tag routes (docs/protocol.md §5.5, §6 tag limits) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const sb = useContractFixture({
	scope: 'CRM.modules.ALL,CRM.settings.ALL',
	sandbox: { tagsPerRecord: 3, tagsPerModule: 12 },
});
const { call } = sb;
let leads: string[];
/** the names of a lead's tags, as GET /Leads/{id} answers them */
const tagsOf = async (id: string) =>
	(((await call('GET', `/crm/v2.1/Leads/${id}`)).body.data[0].Tag as any[]) ?? []).map(
		(t) => t.name,
	);

beforeAll(async () => {
	leads = (
		await call('POST', '/crm/v2.1/Leads', {
			body: { data: [{ Last_Name: 'T1' }, { Last_Name: 'T2' }] },
		})
	).body.data.map((r: any) => r.details.id);
});

describe('GetTags / CreateTags', () => {
	it('lists the seeded tags with info.count and info.allowed_count; module is required', async () => {
		const res = await call('GET', '/crm/v2.1/settings/tags', { query: { module: 'leads' } });
		expect(res.status).toBe(200);
		expect(res.body.tags.map((t: any) => t.name)).toEqual(expect.arrayContaining(['VIP']));
		expect(res.body.info).toEqual({ count: res.body.tags.length, allowed_count: 12 });
		expect(res.body.tags[0]).toEqual(
			expect.objectContaining({
				id: expect.stringMatching(/^\d{19}$/),
				color_code: expect.stringMatching(/^#/),
				created_by: expect.any(Object),
			}),
		);
		expect((await call('GET', '/crm/v2.1/settings/tags')).body).toMatchObject({
			code: 'REQUIRED_PARAM_MISSING',
			details: { param: 'module' },
		});
		expect(
			(await call('GET', '/crm/v2.1/settings/tags', { query: { module: 'Nope' } })).body.code,
		).toBe('INVALID_MODULE');
		expect(
			(await call('GET', '/crm/v2.1/settings/tags', { query: { module: 'Solutions' } })).status,
		).toBe(204);
	});

	it('creates (201), refuses long names, special characters, bad colours, duplicates; per item, in order', async () => {
		const res = await call('POST', '/crm/v2.1/settings/tags', {
			query: { module: 'Leads' },
			body: {
				tags: [
					{ name: 'Fresh', color_code: '#123ABC' },
					{ name: 'x'.repeat(26) },
					{ name: 'bad!name' },
					{ name: 'Colour', color_code: 'red' },
					{ name: 'vip' },
					{},
				],
			},
		});
		expect(res.status).toBe(201);
		expect(res.body.tags.map((t: any) => t.code)).toEqual([
			'SUCCESS',
			'INVALID_DATA',
			'INVALID_DATA',
			'INVALID_DATA',
			'DUPLICATE_DATA',
			'MANDATORY_NOT_FOUND',
		]);
		expect(res.body.tags[0]).toMatchObject({
			message: 'tags created successfully',
			details: { name: 'Fresh', color_code: '#123ABC' },
		});
		expect(res.body.tags[1]).toMatchObject({
			message: 'tag name can contain only 25 characters',
			details: { maximum_length: 25, json_path: '$.tags[1].name' },
		});
		expect(res.body.tags[2].message).toBe('special characters found in the given name');
		expect(res.body.tags[3].message).toBe('the colour is not supported');
		const allBad = await call('POST', '/crm/v2.1/settings/tags', {
			query: { module: 'Leads' },
			body: { tags: [{ name: 'bad!' }] },
		});
		expect(allBad.status).toBe(400);
		const over = await call('POST', '/crm/v2.1/settings/tags', {
			query: { module: 'Leads' },
			body: { tags: Array.from({ length: 101 }, (_, i) => ({ name: `n${i}` })) },
		});
		expect(over.body).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { limit: 100 } });
	});

	it('the per-module limit answers LIMIT_EXCEEDED once reached', async () => {
		const count = (await call('GET', '/crm/v2.1/settings/tags', { query: { module: 'Leads' } }))
			.body.tags.length;
		const res = await call('POST', '/crm/v2.1/settings/tags', {
			query: { module: 'Leads' },
			body: { tags: Array.from({ length: 13 - count }, (_, i) => ({ name: `Fill ${i}` })) },
		});
		expect(res.body.tags.at(-1)).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { limit: 12 } });
		expect(res.body.tags.slice(0, -1).every((t: any) => t.status === 'success')).toBe(true);
		// over the module allowance through add_tags too
		const add = await call('POST', `/crm/v2.1/Leads/${leads[0]}/actions/add_tags`, {
			query: { tag_names: 'Brand New' },
		});
		expect(add.status).toBe(400);
		expect(add.body.data[0]).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { limit: 12 } });
		// make room again
		const fills = (
			await call('GET', '/crm/v2.1/settings/tags', { query: { module: 'Leads' } })
		).body.tags.filter((t: any) => t.name.startsWith('Fill'));
		for (const t of fills) await call('DELETE', `/crm/v2.1/settings/tags/${t.id}`);
	});
});

describe('tags on records', () => {
	it('add to one record: creates unknown names, success_count as string, per-record limit', async () => {
		const res = await call('POST', `/crm/v2.1/Leads/${leads[0]}/actions/add_tags`, {
			query: { tag_names: 'Alpha,Beta' },
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			data: [
				{
					code: 'SUCCESS',
					details: { id: leads[0], tags: ['Alpha', 'Beta'] },
					message: 'tags updated successfully',
					status: 'success',
				},
			],
			locked_count: 0,
			success_count: '1',
			wf_scheduler: false,
		});
		const limit = await call('POST', `/crm/v2.1/Leads/${leads[0]}/actions/add_tags`, {
			query: { tag_names: 'Gamma,Delta' },
		});
		expect(limit.body.data[0]).toMatchObject({
			code: 'LIMIT_EXCEEDED',
			details: { limit: 3 },
			message: 'tag limit for record or module has been exceeded',
		});
		expect(await tagsOf(leads[0])).toEqual(['Alpha', 'Beta']);
		await call('POST', `/crm/v2.1/Leads/${leads[0]}/actions/add_tags`, {
			query: { tag_names: 'Gamma', over_write: 'true' },
		});
		expect(await tagsOf(leads[0])).toEqual(['Gamma']);
		await call('POST', `/crm/v2.1/Leads/${leads[0]}/actions/remove_tags`, {
			query: { tag_names: 'gamma' },
		});
		expect(await tagsOf(leads[0])).toEqual([]);
	});

	it('many records: per-record items in ids order; unknown ids fail only their item; parameter errors', async () => {
		const res = await call('POST', '/crm/v2.1/Leads/actions/add_tags', {
			query: { tag_names: 'Shared', ids: `${leads[1]},4876876999999999999,${leads[0]}` },
		});
		expect(res.status).toBe(200);
		expect(res.body.data.map((r: any) => [r.status, r.details.id])).toEqual([
			['success', leads[1]],
			['error', '4876876999999999999'],
			['success', leads[0]],
		]);
		expect(res.body.success_count).toBe('2');
		const removed = await call('POST', '/crm/v2.1/Leads/actions/remove_tags', {
			query: { tag_names: 'Shared', ids: leads.join(',') },
		});
		expect(removed.body.success_count).toBe('2');
		expect(await tagsOf(leads[1])).toEqual([]);
		expect(
			(await call('POST', '/crm/v2.1/Leads/actions/add_tags', { query: { tag_names: 'x' } })).body,
		).toMatchObject({ code: 'REQUIRED_PARAM_MISSING', details: { param: 'ids' } });
		expect((await call('POST', `/crm/v2.1/Leads/${leads[0]}/actions/add_tags`)).body).toMatchObject(
			{ code: 'REQUIRED_PARAM_MISSING', details: { param: 'tag_names' } },
		);
		const long = await call('POST', `/crm/v2.1/Leads/${leads[0]}/actions/add_tags`, {
			query: { tag_names: 'y'.repeat(26) },
		});
		expect(long.body).toMatchObject({ code: 'INVALID_DATA', details: { maximum_length: 25 } });
	});
});

describe('UpdateTags / UpdateTag / MergeTags / DeleteTag / GetRecordCountForTag', () => {
	it('rename propagates to records; merge moves records; delete removes the tag from records', async () => {
		await call('POST', '/crm/v2.1/Leads/actions/add_tags', {
			query: { tag_names: 'Old,Other', ids: leads.join(','), over_write: 'true' },
		});
		const tags = (await call('GET', '/crm/v2.1/settings/tags', { query: { module: 'Leads' } })).body
			.tags;
		const old = tags.find((t: any) => t.name === 'Old');
		const other = tags.find((t: any) => t.name === 'Other');

		const upd = await call('PUT', '/crm/v2.1/settings/tags', {
			query: { module: 'Leads' },
			body: {
				tags: [
					{ id: old.id, name: 'Renamed' },
					{ id: '4876876999999999999', name: 'x' },
				],
			},
		});
		expect(upd.body.tags.map((t: any) => t.code)).toEqual(['SUCCESS', 'TAG_ID_NOT_FOUND']);
		expect(upd.body.tags[0].message).toBe('tags updated successfully');
		expect(await tagsOf(leads[0])).toEqual(['Renamed', 'Other']);
		const one = await call('PUT', `/crm/v2.1/settings/tags/${old.id}`, {
			query: { module: 'Leads' },
			body: { tags: [{ name: 'Renamed2', color_code: '#000000' }] },
		});
		expect(one.body.tags[0].details).toMatchObject({ name: 'Renamed2', color_code: '#000000' });
		const dup = await call('PUT', `/crm/v2.1/settings/tags/${old.id}`, {
			query: { module: 'Leads' },
			body: { tags: [{ name: 'other' }] },
		});
		expect(dup.body.tags[0].code).toBe('DUPLICATE_DATA');

		expect(
			(
				await call('GET', `/crm/v2.1/settings/tags/${old.id}/actions/records_count`, {
					query: { module: 'Leads' },
				})
			).body,
		).toEqual({ count: '2' });

		const merge = await call('POST', `/crm/v2.1/settings/tags/${old.id}/actions/merge`, {
			body: { tags: [{ conflict_id: other.id }] },
		});
		expect(merge.body.tags[0]).toMatchObject({
			code: 'SUCCESS',
			message: 'tags merged successfully',
		});
		expect(await tagsOf(leads[0])).toEqual(['Other']);
		const left = (
			(await call('GET', '/crm/v2.1/settings/tags', { query: { module: 'Leads' } })).body
				.tags as any[]
		).map((t) => t.id);
		expect(left).toContain(other.id);
		expect(left).not.toContain(old.id);
		const twoItems = await call('POST', `/crm/v2.1/settings/tags/${other.id}/actions/merge`, {
			body: { tags: [{ conflict_id: '1' }, { conflict_id: '2' }] },
		});
		expect(twoItems.body).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { limit: 1 } });

		const del = await call('DELETE', `/crm/v2.1/settings/tags/${other.id}`);
		expect(del.body.tags[0].message).toBe('tags deleted successfully');
		expect(await tagsOf(leads[0])).toEqual([]);
		expect((await call('DELETE', `/crm/v2.1/settings/tags/${other.id}`)).body.code).toBe(
			'TAG_ID_NOT_FOUND',
		);
	});

	it('scopes: tag settings need CRM.settings.tags.*, record tags need a module UPDATE scope', async () => {
		const readTags = (
			await grantToken(sb.url, { scope: 'CRM.settings.tags.READ,CRM.modules.leads.READ' })
		).access_token;
		expect(
			(await api(`${sb.url}/crm/v2.1/settings/tags`, readTags, { query: { module: 'Leads' } }))
				.status,
		).toBe(200);
		expect(
			(
				await api(`${sb.url}/crm/v2.1/settings/tags`, readTags, {
					method: 'POST',
					query: { module: 'Leads' },
					body: { tags: [{ name: 'z' }] },
				})
			).body.code,
		).toBe('OAUTH_SCOPE_MISMATCH');
		expect(
			(
				await api(`${sb.url}/crm/v2.1/Leads/${leads[0]}/actions/add_tags`, readTags, {
					method: 'POST',
					query: { tag_names: 'z' },
				})
			).body.code,
		).toBe('OAUTH_SCOPE_MISMATCH');
		const write = (await grantToken(sb.url, { scope: 'CRM.modules.leads.WRITE' })).access_token;
		expect(
			(
				await api(`${sb.url}/crm/v2.1/Leads/${leads[0]}/actions/remove_tags`, write, {
					method: 'POST',
					query: { tag_names: 'z' },
				})
			).status,
		).toBe(200);
	});
});
