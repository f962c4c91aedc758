// One mistake, one message: the same wrong value gives the same error whichever way the fields are
// given (mapper, field/value pairs, raw JSON) and whichever record write it is; the mapper and the
// pairs refuse it before anything is sent, raw JSON once the CRM refused the record (no metadata
// read on runs that go through). An ID expression that yields nothing says so. Engine → sandbox
// over HTTP.
import { useCrmFixture } from '../harness/crm';
import { errorOf, outputOf } from '../harness/n8n';
import { mapper, pairs } from './CrmRecord/record-helpers';

describe('one message per mistake (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	/** the values of the Leads' Lead_Status picklist, read from the sandbox's field metadata */
	const leadStatusValues = async () =>
		((await crm.api('GET', '/crm/v2.1/settings/fields?module=Leads')).body.fields as any[])
			.find((f) => f.api_name === 'Lead_Status')
			.pick_list_values.map((v: any) => v.actual_value as string) as string[];

	/** the one message for "Hot" in Lead_Status, naming the first ten allowed values */
	const refusedHot = (allowed: string[]) =>
		`Field "Lead_Status" expects one of ${allowed.slice(0, 10).join(', ')}${allowed.length > 10 ? ', …' : ''}, got "Hot"`;

	/** requests that would have written a Lead (create, update, upsert, one record or many) */
	const leadWrites = async () =>
		(await crm.requests()).filter((r) => r.method !== 'GET' && r.url.startsWith('/crm/v2.1/Leads'));

	test('a picklist value outside its list: the same message in the mapper, the pairs and the JSON of Create, Update and Create or Update, nothing written', async () => {
		const allowed = await leadStatusValues();
		expect(allowed).not.toContain('Hot');
		const leadId = (
			await crm.api('POST', '/crm/v2.1/Leads', { data: [{ Last_Name: 'Picklist Target' }] })
		).body.data[0].details.id as string;
		// the schema the editor's mapper saves for the field: type options with the picklist's values
		const schema = [
			{ id: 'Last_Name', type: 'string' },
			{
				id: 'Lead_Status',
				type: 'options',
				options: allowed.map((v: string) => ({ name: v, value: v })),
			},
		];
		const expected = refusedHot(allowed);

		const modes = (operation: string): Array<[string, Record<string, unknown>]> => {
			const target = operation === 'update' ? { recordId: leadId } : {};
			const mapperId = operation === 'update' ? { id: leadId } : {};
			return [
				[
					'mapper',
					{
						fieldsMode: 'mapper',
						columns: mapper(
							{ ...mapperId, Last_Name: 'Picklist', Lead_Status: '={{ $json.status }}' },
							operation === 'update' ? [{ id: 'id', type: 'string' }, ...schema] : schema,
							operation === 'update' ? ['id'] : [],
						),
					},
				],
				[
					'pairs',
					{
						fieldsMode: 'pairs',
						...target,
						fieldsUi: pairs({ Last_Name: 'Picklist', Lead_Status: '={{ $json.status }}' }),
					},
				],
				[
					'json',
					{
						fieldsMode: 'json',
						...target,
						recordJson:
							'={{ JSON.stringify({ Last_Name: "Picklist", Lead_Status: $json.status }) }}',
					},
				],
			];
		};
		const messages: string[] = [];
		for (const operation of ['create', 'update', 'upsert']) {
			for (const [mode, parameters] of modes(operation)) {
				await crm.clearRequests();
				const node = crm.node('crmRecord', {
					resource: 'record',
					operation,
					module: 'Leads',
					...parameters,
				});
				const error = errorOf(await crm.run(node, [{ json: { status: 'Hot' } }]), node.name);
				expect({ operation, mode, message: error?.message }).toEqual({
					operation,
					mode,
					message: expected,
				});
				expect(error?.context?.crm).toMatchObject({
					code: 'INVALID_DATA',
					details: { api_name: 'Lead_Status' },
				});
				// raw JSON is sent as given: the CRM refuses the record, then its metadata names the values
				expect({ operation, mode, writes: (await leadWrites()).length }).toEqual({
					operation,
					mode,
					writes: mode === 'json' ? 1 : 0,
				});
				messages.push(error!.message);
			}
		}
		expect(new Set(messages).size).toBe(1);
		expect((await crm.api('GET', `/crm/v2.1/Leads/${leadId}`)).body.data[0].Last_Name).toBe(
			'Picklist Target',
		);

		// an allowed value still goes through in every mode (the check is not in the way)
		const ok = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			...modes('create')[0][1],
		});
		const [created] = outputOf(await crm.run(ok, [{ json: { status: allowed[2] } }]), ok.name);
		expect(
			(await crm.api('GET', `/crm/v2.1/Leads/${created.json.id as string}`)).body.data[0]
				.Lead_Status,
		).toBe(allowed[2]);
		const json = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			...modes('create')[2][1],
		});
		await crm.clearRequests();
		const [fromJson] = outputOf(await crm.run(json, [{ json: { status: allowed[3] } }]), json.name);
		// a run that goes through costs the write alone: no metadata read
		expect((await crm.requests()).map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual([
			'POST /crm/v2.1/Leads',
		]);
		expect(
			(await crm.api('GET', `/crm/v2.1/Leads/${fromJson.json.id as string}`)).body.data[0]
				.Lead_Status,
		).toBe(allowed[3]);
	});

	test('raw JSON, 120 items with two wrong picklist values: each refused item names the allowed values, the others are written, one metadata read', async () => {
		const allowed = await leadStatusValues();
		const input = Array.from({ length: 120 }, (_, i) => ({
			json: { last: `Json ${i}`, status: i === 7 || i === 111 ? 'Hot' : allowed[0] },
		}));
		const create = crm.node(
			'crmRecord',
			{
				resource: 'record',
				operation: 'create',
				module: 'Leads',
				fieldsMode: 'json',
				recordJson: '={{ JSON.stringify({ Last_Name: $json.last, Lead_Status: $json.status }) }}',
			},
			{ onError: 'continueRegularOutput' },
		);
		await crm.clearRequests();
		const out = outputOf(await crm.run(create, input), create.name);
		const sent = (await crm.requests()).map((r) => `${r.method} ${r.url.split('?')[0]}`);
		expect(out.map((o) => o.pairedItem)).toEqual(input.map((_, i) => ({ item: i })));
		const failed = out.flatMap((o, i) => (o.json.error ? [i] : []));
		expect(failed).toEqual([7, 111]);
		for (const i of failed) {
			expect(out[i].json.error).toBe(refusedHot(allowed));
		}
		expect(out.filter((o) => o.json.status === 'success')).toHaveLength(118);
		expect(
			(await crm.api('GET', `/crm/v2.1/Leads/${out[8].json.id as string}`)).body.data[0],
		).toMatchObject({ Last_Name: 'Json 8', Lead_Status: allowed[0] });
		// two batches, and the module's metadata read once, after the CRM refused a record
		expect(sent).toEqual([
			'POST /crm/v2.1/Leads',
			'GET /crm/v2.1/settings/fields',
			'POST /crm/v2.1/Leads',
		]);
	});

	test('a multi-select value outside its list in raw JSON is refused like in the other modes', async () => {
		await crm.clearRequests();
		const asPairs = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'pairs',
			fieldsUi: pairs({ Last_Name: 'Multi', Interests: 'CRM, Gardening' }),
		});
		const asJson = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'json',
			recordJson: '{"Last_Name": "Multi", "Interests": ["CRM", "Gardening"]}',
		});
		const pairsError = errorOf(await crm.run(asPairs), asPairs.name);
		const jsonError = errorOf(await crm.run(asJson), asJson.name);
		expect(pairsError?.message).toContain('"Gardening" is not one');
		expect(jsonError?.message).toBe(pairsError?.message);
		// the pairs sent nothing; the JSON's one request was refused: no Lead named Multi exists
		expect(await leadWrites()).toHaveLength(1);
		const search = await crm.api('GET', '/crm/v2.1/Leads/search?criteria=(Last_Name:equals:Multi)');
		expect(search.body?.data ?? []).toHaveLength(0);
	});

	test('an ID expression that yields nothing says "<parameter> is empty (item N)"', async () => {
		await crm.clearRequests();
		const lead = (await crm.api('POST', '/crm/v2.1/Leads', { data: [{ Last_Name: 'Empty Id' }] }))
			.body.data[0].details.id as string;
		const get = crm.node(
			'crmRecord',
			{ resource: 'record', operation: 'get', module: 'Leads', recordId: '={{ $json.id }}' },
			{ onError: 'continueRegularOutput' },
		);
		const out = outputOf(await crm.run(get, [{ json: { id: lead } }, { json: {} }]), get.name);
		expect(out[0].json.id).toBe(lead);
		expect(out[1].json.error).toBe('Record ID is empty (item 1)');

		const layout = crm.node('crmMetadata', {
			resource: 'layout',
			operation: 'get',
			module: 'Leads',
			layoutId: '={{ $json.layout }}',
		});
		const error = errorOf(await crm.run(layout, [{ json: { layout: '' } }]), layout.name);
		expect(error?.message).toBe('Layout ID is empty (item 0)');
		expect(error?.context?.crm).toMatchObject({
			code: 'INVALID_DATA',
			details: { api_name: 'id' },
		});

		// a value that is there but not an ID keeps its own message
		const bad = crm.node('crmMetadata', {
			resource: 'layout',
			operation: 'get',
			module: 'Leads',
			layoutId: 'standard',
		});
		expect(errorOf(await crm.run(bad), bad.name)?.message).toBe(
			'Layout ID must be digits, got "standard"',
		);
		expect(
			(await crm.requests()).filter((r) => r.url.startsWith('/crm/v2.1/settings/layouts')),
		).toHaveLength(0);
	});
});
