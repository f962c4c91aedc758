// Note resource (docs/protocol.md §5.3) through the engine against the sandbox: create (batched, and the
// per-record list mode with its 100-note limit), get many (all / of a record), get, update, delete,
// and the cascade on record delete.
import { crmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

describe('CRM Record › Note', () => {
	let crm: CrmFixture;
	let leadId: string;
	let accountId: string;

	beforeAll(async () => {
		crm = await crmFixture();
		leadId = (await crm.api('POST', '/crm/v2.1/Leads', { data: [{ Last_Name: 'Noted' }] })).body
			.data[0].details.id;
		accountId = (
			await crm.api('POST', '/crm/v2.1/Accounts', { data: [{ Account_Name: 'Noted Accounts' }] })
		).body.data[0].details.id;
	});
	afterAll(async () => await crm.close());

	test("create on two parents in one request, list a record's notes, get, update, delete", async () => {
		await crm.clearRequests();
		const create = crm.node('crmRecord', {
			resource: 'note',
			operation: 'create',
			module: '={{ $json.module }}',
			recordId: '={{ $json.id }}',
			noteTitle: '={{ $json.title }}',
			noteContent: 'Called, left a message',
		});
		const created = outputOf(
			await crm.run(create, [
				{ json: { module: 'Leads', id: leadId, title: 'First call' } },
				{ json: { module: 'Accounts', id: accountId, title: 'Account call' } },
			]),
			create.name,
		);
		expect(created.map((i) => i.json.status)).toEqual(['success', 'success']);
		expect(
			(await crm.requests()).filter(
				(r) => r.method === 'POST' && r.url.startsWith('/crm/v2.1/Notes'),
			),
		).toHaveLength(1);
		const noteId = created[0].json.id as string;
		const stored = (await crm.api('GET', `/crm/v2.1/Notes/${noteId}`)).body.data[0];
		expect(stored).toMatchObject({
			Note_Title: 'First call',
			Note_Content: 'Called, left a message',
			$se_module: 'Leads',
			Parent_Id: { id: leadId },
		});

		const ofLead = crm.node('crmRecord', {
			resource: 'note',
			operation: 'getAll',
			ofRecord: true,
			module: 'Leads',
			recordId: leadId,
			returnAll: true,
		});
		const leadNotes = outputOf(await crm.run(ofLead), ofLead.name);
		expect(leadNotes.map((i) => i.json.id)).toEqual([noteId]);

		const all = crm.node('crmRecord', {
			resource: 'note',
			operation: 'getAll',
			returnAll: true,
			options: { fields: 'Note_Title' },
		});
		const allNotes = outputOf(await crm.run(all), all.name);
		expect(allNotes.map((i) => i.json.id)).toEqual(
			expect.arrayContaining(created.map((i) => i.json.id)),
		);
		expect(allNotes.find((i) => i.json.id === noteId)!.json).toMatchObject({
			Note_Title: 'First call',
			$se_module: 'Leads',
		});

		const get = crm.node('crmRecord', { resource: 'note', operation: 'get', noteId });
		expect(outputOf(await crm.run(get), get.name)[0].json).toMatchObject({
			id: noteId,
			Note_Title: 'First call',
		});

		const update = crm.node('crmRecord', {
			resource: 'note',
			operation: 'update',
			noteId,
			updateFields: { Note_Content: 'Called back, meeting set' },
		});
		expect(outputOf(await crm.run(update), update.name)[0].json).toMatchObject({
			id: noteId,
			action: 'update',
		});
		expect((await crm.api('GET', `/crm/v2.1/Notes/${noteId}`)).body.data[0].Note_Content).toBe(
			'Called back, meeting set',
		);

		const del = crm.node('crmRecord', {
			resource: 'note',
			operation: 'delete',
			noteId: '={{ $json.id }}',
		});
		const deleted = outputOf(
			await crm.run(
				del,
				created.map((i) => ({ json: { id: i.json.id } })),
			),
			del.name,
		);
		expect(deleted.map((i) => i.json.message)).toEqual(['record deleted', 'record deleted']);
		expect((await crm.api('GET', `/crm/v2.1/Notes/${noteId}`)).status).toBe(204);
	});

	test('a note on an unknown parent fails only its item', async () => {
		const create = crm.node(
			'crmRecord',
			{
				resource: 'note',
				operation: 'create',
				module: 'Leads',
				recordId: '={{ $json.id }}',
				noteContent: 'x',
			},
			{ onError: 'continueRegularOutput' },
		);
		const out = outputOf(
			await crm.run(create, [{ json: { id: leadId } }, { json: { id: '4876876999999999999' } }]),
			create.name,
		);
		expect(out[0].json.status).toBe('success');
		expect(out[1].json.error).toContain('INVALID_DATA');
		expect((out[1].json.details as any).details).toMatchObject({ api_name: 'Parent_Id' });
	});

	test('notes list mode: one request per record with its notes; 101 notes are refused before any request', async () => {
		const notes = Array.from({ length: 3 }, (_, i) => ({
			Note_Title: `Bulk ${i}`,
			Note_Content: `Body ${i}`,
		}));
		const create = crm.node('crmRecord', {
			resource: 'note',
			operation: 'create',
			inputMode: 'list',
			module: 'Accounts',
			recordId: accountId,
			notes: '={{ $json.notes }}',
		});
		const out = outputOf(await crm.run(create, [{ json: { notes } }]), create.name);
		expect(out).toHaveLength(3);
		expect(
			out.every(
				(i) => i.json.status === 'success' && i.pairedItem && (i.pairedItem as any).item === 0,
			),
		).toBe(true);
		const listed = (await crm.api('GET', `/crm/v2.1/Accounts/${accountId}/Notes`)).body.data.map(
			(n: any) => n.Note_Title,
		);
		expect(listed).toEqual(expect.arrayContaining(['Bulk 0', 'Bulk 1', 'Bulk 2']));

		await crm.clearRequests();
		const tooMany = Array.from({ length: 101 }, (_, i) => ({ Note_Content: `n${i}` }));
		const error = errorOf(
			await crm.run(create, [{ json: { notes: notes } }, { json: { notes: tooMany } }]),
			create.name,
		);
		expect(error?.message).toContain('at most 100 notes');
		expect(error?.message).toContain('101');
		expect((await crm.requests()).filter((r) => r.url.includes('/Notes'))).toHaveLength(0);
	});

	test('deleting a record deletes its notes (cascade)', async () => {
		const doomed = (await crm.api('POST', '/crm/v2.1/Leads', { data: [{ Last_Name: 'Doomed' }] }))
			.body.data[0].details.id;
		const note = (
			await crm.api('POST', '/crm/v2.1/Notes', {
				data: [{ Note_Content: 'bye', Parent_Id: { id: doomed }, $se_module: 'Leads' }],
			})
		).body.data[0].details.id;
		await crm.api('DELETE', `/crm/v2.1/Leads/${doomed}`);
		expect((await crm.api('GET', `/crm/v2.1/Notes/${note}`)).status).toBe(204);
	});
});
