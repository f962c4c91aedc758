// Sandbox contract of the record group beyond CRUD (docs/protocol.md §5.1): UpsertRecords,
// SearchRecords, RecordCount, GetDeletedRecords, photos, MassUpdate (§8.3), ConvertLead,
// territory assignment; statuses and codes per §3.8 and §12.
import { useContractFixture } from '../harness/contract';
import { api, grantToken } from '../harness/sandbox';
import { waitFor } from '../harness/wait';

const ALL = 'CRM.modules.ALL,CRM.mass_update.ALL,CRM.settings.ALL';

describe('records › actions over HTTP', () => {
	const sb = useContractFixture({ scope: ALL, sandbox: { jobStepMs: 40, knobs: {} } });
	let v21: string;
	let v2: string;
	beforeAll(async () => {
		v21 = `${sb.url}/crm/v2.1`;
		v2 = `${sb.url}/crm/v2`;
	});

	const post = async (url: string, body: unknown) =>
		await api(url, sb.token, { method: 'POST', body });

	test('UpsertRecords: 200, insert then update with duplicate_field; unknown check field 400 INVALID_DATA; all failed 400', async () => {
		const first = await post(`${v21}/Contacts/upsert`, {
			data: [{ Last_Name: 'Up', Email: 'up@example.com' }],
			duplicate_check_fields: ['Email'],
		});
		expect(first.status).toBe(200);
		expect(first.body.data[0]).toMatchObject({
			code: 'SUCCESS',
			action: 'insert',
			duplicate_field: null,
			message: 'record added',
		});
		const second = await post(`${v21}/Contacts/upsert`, {
			data: [{ Last_Name: 'Up2', Email: 'UP@example.com' }],
		});
		expect(second.body.data[0]).toMatchObject({
			action: 'update',
			duplicate_field: 'Email',
			message: 'record updated',
			details: { id: first.body.data[0].details.id },
		});
		const bad = await post(`${v21}/Contacts/upsert`, {
			data: [{ Last_Name: 'x' }],
			duplicate_check_fields: ['Nope'],
		});
		expect(bad.status).toBe(400);
		expect(bad.body).toMatchObject({ code: 'INVALID_DATA', details: { api_name: 'Nope' } });
		const failed = await post(`${v21}/Contacts/upsert`, {
			data: [{ Email: 'missing.last@example.com' }],
		});
		expect(failed.status).toBe(400);
		expect(failed.body.data[0]).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'Last_Name' },
		});
		const tooMany = await post(`${v21}/Contacts/upsert`, {
			data: Array.from({ length: 101 }, () => ({ Last_Name: 'x' })),
		});
		expect(tooMany.body).toMatchObject({
			code: 'LIMIT_EXCEEDED',
			details: { limit: 100, api_name: 'data' },
		});
	});

	test('SearchRecords: criteria grammar and errors; 204 when nothing matches', async () => {
		const ok = await api(`${v21}/Leads/search`, sb.token, {
			query: { criteria: '((Lead_Source:equals:Web)or(Lead_Source:equals:Chat))', per_page: 5 },
		});
		expect(ok.status).toBe(200);
		expect(ok.body.data.every((r: any) => ['Web', 'Chat'].includes(r.Lead_Source))).toBe(true);
		expect(ok.body.info).toMatchObject({ per_page: 5, page: 1 });
		const none = await api(`${v21}/Leads/search`, sb.token, {
			query: { email: 'nobody@nowhere.example' },
		});
		expect(none.status).toBe(204);
		const missing = await api(`${v21}/Leads/search`, sb.token);
		expect(missing.body).toMatchObject({ code: 'REQUIRED_PARAM_MISSING' });
		const badOp = await api(`${v21}/Leads/search`, sb.token, {
			query: { criteria: '(Last_Name:contains:x)' },
		});
		expect(badOp.status).toBe(400);
		expect(badOp.body).toMatchObject({
			code: 'INVALID_QUERY',
			details: { api_name: 'Last_Name', operator: 'contains' },
		});
		const eleven = `(${Array.from({ length: 11 }, (_, i) => `(Last_Name:equals:A${i})`).join('or')})`;
		const limit = await api(`${v21}/Leads/search`, sb.token, { query: { criteria: eleven } });
		expect(limit.body).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { limit: 10 } });
		const twoKinds = await api(`${v21}/Leads/search`, sb.token, {
			query: { email: 'a@b.c', word: 'x' },
		});
		expect(twoKinds.body.code).toBe('INVALID_QUERY');
	});

	test('RecordCount: v2.1 only (404 INVALID_URL_PATTERN under v2), counts with criteria', async () => {
		const all = await api(`${v21}/Deals/actions/count`, sb.token);
		expect(all.status).toBe(200);
		// every deal, as GetRecords lists them
		let listed = 0;
		for (let page = 1, more = true; more; page++) {
			const res = await api(`${v21}/Deals`, sb.token, {
				query: { fields: 'Deal_Name', per_page: 200, page },
			});
			listed += res.status === 204 ? 0 : res.body.data.length;
			more = res.status === 200 && res.body.info.more_records === true;
		}
		expect(all.body.count).toBe(listed);
		const some = await api(`${v21}/Deals/actions/count`, sb.token, {
			query: { criteria: '(Amount:greater_than:1000000000)' },
		});
		expect(some.body).toEqual({ count: 0 });
		const underV2 = await api(`${v2}/Deals/actions/count`, sb.token);
		expect(underV2.status).toBe(404);
		expect(underV2.body.code).toBe('INVALID_URL_PATTERN');
	});

	test('GetDeletedRecords: DeletedRecord items, type filter, 304 with If-Modified-Since', async () => {
		const created = await post(`${v21}/Solutions`, { data: [{ Solution_Title: 'Gone' }] });
		const id = created.body.data[0].details.id;
		await api(`${v21}/Solutions/${id}`, sb.token, { method: 'DELETE' });
		const list = await api(`${v21}/Solutions/deleted`, sb.token, { query: { type: 'recycle' } });
		expect(list.body.data[0]).toMatchObject({ id, display_name: 'Gone', type: 'recycle' });
		expect(list.body.info).toMatchObject({ count: 1, more_records: false });
		expect(
			(await api(`${v21}/Solutions/deleted`, sb.token, { query: { type: 'permanent' } })).status,
		).toBe(204);
		expect(
			(await api(`${v21}/Solutions/deleted`, sb.token, { query: { type: 'bogus' } })).body.code,
		).toBe('INVALID_DATA');
		const later = new Date(Date.now() + 60_000).toISOString().replace(/\.\d+Z$/, '+00:00');
		expect(
			(await api(`${v21}/Solutions/deleted`, sb.token, { headers: { 'If-Modified-Since': later } }))
				.status,
		).toBe(304);
	});

	test('photos: upload (multipart `file`), download with Content-Disposition, non-image 400, no photo 204', async () => {
		const id = (await api(`${v21}/Leads`, sb.token, { query: { per_page: 1 } })).body.data[0].id;
		const form = new FormData();
		form.append('file', new Blob([Buffer.from('GIF89a')], { type: 'image/gif' }), 'résumé.gif');
		const up = await fetch(`${v21}/Leads/${id}/photo`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${sb.token}` },
			body: form,
		});
		expect(up.status).toBe(200);
		expect(await up.json()).toEqual({
			code: 'SUCCESS',
			details: {},
			message: 'photo uploaded successfully',
			status: 'success',
		});
		const down = await fetch(`${v21}/Leads/${id}/photo`, {
			headers: { Authorization: `Bearer ${sb.token}` },
		});
		expect(down.headers.get('content-type')).toBe('image/gif');
		expect(down.headers.get('content-disposition')).toBe(
			"attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.gif",
		);
		expect(Buffer.from(await down.arrayBuffer()).toString()).toBe('GIF89a');
		const text = new FormData();
		text.append('file', new Blob(['hi'], { type: 'text/plain' }), 'a.txt');
		const bad = await fetch(`${v21}/Leads/${id}/photo`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${sb.token}` },
			body: text,
		});
		expect(await bad.json()).toMatchObject({
			code: 'INVALID_DATA',
			message: 'the image format is invalid',
		});
		expect(
			(await api(`${v21}/Leads/${id}/photo`, sb.token, { method: 'DELETE' })).body.message,
		).toBe('Photo deleted');
		expect((await api(`${v21}/Leads/${id}/photo`, sb.token)).status).toBe(204);
	});

	test('MassUpdate: exactly one selector, ids ≤500, the scheduled job advances on its own, unknown job 400', async () => {
		const none = await post(`${v21}/Leads/actions/mass_update`, { data: [{ Rating: 'Active' }] });
		expect(none.body.code).toBe('MANDATORY_NOT_FOUND');
		const two = await post(`${v21}/Leads/actions/mass_update`, {
			data: [{ Rating: 'Active' }],
			ids: ['1'],
			cvid: '2',
		});
		expect(two.body.code).toBe('MANDATORY_NOT_FOUND');
		const many = await post(`${v21}/Leads/actions/mass_update`, {
			data: [{ Rating: 'Active' }],
			ids: Array.from({ length: 501 }, (_, i) => String(i + 1)),
		});
		expect(many.body).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { limit: 500 } });
		const unique = await post(`${v21}/Leads/actions/mass_update`, {
			data: [{ Email: 'x@y.z' }],
			ids: ['1'],
		});
		expect(unique.body).toMatchObject({ code: 'INVALID_DATA', details: { api_name: 'Email' } });

		// a seeded view of Leads, as GetCustomViews lists them
		const viewer = (await grantToken(sb.url, { scope: 'CRM.settings.custom_views.READ' }))
			.access_token;
		const [view] = (
			await api(`${v21}/settings/custom_views`, viewer, { query: { module: 'Leads' } })
		).body.custom_views;
		const scheduled = await post(`${v21}/Leads/actions/mass_update`, {
			data: [{ Interests: ['CRM'] }],
			cvid: view.id,
		});
		expect(scheduled.status).toBe(202);
		const jobId = scheduled.body.data[0].details.job_id;
		const seen = new Set<string>();
		// job state polling with a deadline (the job steps every 40 ms)
		await waitFor(
			async () => {
				const status = await api(`${v21}/Leads/actions/mass_update`, sb.token, {
					query: { job_id: jobId },
				});
				seen.add(status.body.data[0].Status);
				if (status.body.data[0].Status === 'COMPLETED') {
					const s = status.body.data[0];
					expect(s.Total_Count).toBe(s.Updated_Count + s.Not_Updated_Count + s.Failed_Count);
					return true;
				}
				return false;
			},
			{ timeout: 5000, interval: 20, what: 'mass update COMPLETED' },
		);
		expect([...seen].at(-1)).toBe('COMPLETED');
		const unknown = await api(`${v21}/Leads/actions/mass_update`, sb.token, {
			query: { job_id: '4876876000000000009' },
		});
		expect(unknown.body.code).toBe('INVALID_DATA');
		const noId = await api(`${v21}/Leads/actions/mass_update`, sb.token);
		expect(noId.body).toMatchObject({
			code: 'REQUIRED_PARAM_MISSING',
			details: { param: 'job_id' },
		});
	});

	test('MassUpdate needs a mass_update scope (401 OAUTH_SCOPE_MISMATCH without)', async () => {
		const narrow = (await grantToken(sb.url, { scope: 'CRM.modules.ALL' })).access_token;
		const res = await api(`${v21}/Leads/actions/mass_update`, narrow, {
			method: 'POST',
			body: { data: [{ Rating: 'Active' }], ids: ['1'] },
		});
		expect(res.status).toBe(401);
		expect(res.body.code).toBe('OAUTH_SCOPE_MISMATCH');
		const perModule = (
			await grantToken(sb.url, { scope: 'CRM.modules.ALL,CRM.mass_update.leads.UPDATE' })
		).access_token;
		const id = (await api(`${v21}/Leads`, sb.token, { query: { per_page: 1 } })).body.data[0].id;
		const ok = await api(`${v21}/Leads/actions/mass_update`, perModule, {
			method: 'POST',
			body: { data: [{ Rating: 'Active' }], ids: [id] },
		});
		expect(ok.status).toBe(200);
	});

	test('ConvertLead: [=1] body, Deals validation rolls everything back, ID_ALREADY_CONVERTED, converted lead refuses updates', async () => {
		const lead = (
			await post(`${v21}/Leads`, {
				data: [{ Last_Name: 'Conv', Company: 'Conv Corp', Email: 'conv@example.com' }],
			})
		).body.data[0].details.id;
		const twoItems = await post(`${v21}/Leads/${lead}/actions/convert`, { data: [{}, {}] });
		expect(twoItems.body).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { limit: 1 } });
		const contactsCount = async () =>
			(await api(`${v21}/Contacts/actions/count`, sb.token)).body.count;
		const contactsBefore = await contactsCount();
		const badDeal = await post(`${v21}/Leads/${lead}/actions/convert`, {
			data: [{ Deals: { Deal_Name: 'No stage', Closing_Date: '2025-01-31' } }],
		});
		expect(badDeal.status).toBe(400);
		expect(badDeal.body).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'Stage' },
		});
		expect(await contactsCount()).toBe(contactsBefore);
		const ok = await post(`${v21}/Leads/${lead}/actions/convert`, {
			data: [{ Deals: { Deal_Name: 'Dated', Stage: 'Qualification', Closing_Date: '2025-01-31' } }],
		});
		expect(ok.status).toBe(200);
		expect(ok.body.data[0]).toEqual({
			Contacts: expect.any(String),
			Accounts: expect.any(String),
			Deals: expect.any(String),
		});
		const again = await post(`${v21}/Leads/${lead}/actions/convert`, { data: [{}] });
		expect(again.body).toMatchObject({ code: 'ID_ALREADY_CONVERTED' });
		const upd = await api(`${v21}/Leads/${lead}`, sb.token, {
			method: 'PUT',
			body: { data: [{ City: 'X' }] },
		});
		expect(upd.status).toBe(400);
		expect(upd.body.data[0].code).toBe('CONVERTED_RECORD');
		const mismatch = await post(
			`${v21}/Leads/${(await post(`${v21}/Leads`, { data: [{ Last_Name: 'M' }] })).body.data[0].details.id}/actions/convert`,
			{
				data: [
					{
						Accounts: ok.body.data[0].Accounts,
						Contacts: (
							await post(`${v21}/Contacts`, {
								data: [
									{
										Last_Name: 'Other',
										Account_Name: {
											id: (await post(`${v21}/Accounts`, { data: [{ Account_Name: 'Elsewhere' }] }))
												.body.data[0].details.id,
										},
									},
								],
							})
						).body.data[0].details.id,
					},
				],
			},
		);
		expect(mismatch.body.code).toBe('DATA_MISMATCH');
	});

	test('territory assignment: v2.1 only, per-item errors, TERRITORY_NOT_ENABLED when switched off', async () => {
		const id = (await api(`${v21}/Accounts`, sb.token, { query: { per_page: 1 } })).body.data[0].id;
		const res = await post(`${v21}/Accounts/actions/assign_territories`, {
			data: [
				{ id, Territories: [{ id: '4876876000000361001' }] },
				{ id: '4876876000999999999', Territories: [{ id: '4876876000000361001' }] },
			],
		});
		expect(res.status).toBe(200);
		expect(res.body.data[0]).toEqual({
			code: 'SUCCESS',
			details: { id },
			message: 'territory assignment updated',
			status: 'success',
		});
		expect(res.body.data[1]).toMatchObject({ code: 'INVALID_DATA' });
		expect((await api(`${v21}/Accounts/${id}`, sb.token)).body.data[0].Territories).toEqual([
			expect.objectContaining({
				id: '4876876000000361001',
				Name: 'Global',
				$assigned_by: expect.any(Object),
			}),
		]);
		expect(
			(
				await post(`${v2}/Accounts/actions/assign_territories`, {
					data: [{ id, Territories: [{ id: '1' }] }],
				})
			).status,
		).toBe(404);
		const removed = await post(`${v21}/Accounts/${id}/actions/remove_territories`, {
			data: [{ Territories: [{ id: '4876876000000361001' }] }],
		});
		expect(removed.body.data[0].message).toBe('territory assignment removed');
		sb.sandbox.config.knobs.territoriesEnabled = false;
		const off = await post(`${v21}/Accounts/${id}/actions/assign_territories`, {
			data: [{ Territories: [{ id: '4876876000000361001' }] }],
		});
		expect(off.status).toBe(403);
		expect(off.body.code).toBe('TERRITORY_NOT_ENABLED');
		sb.sandbox.config.knobs.territoriesEnabled = true;
	});
});
