// Get by ID of an ID that does not exist, through n8n's engine against the sandbox: whatever the
// service answers for it (204, 400 INVALID_DATA naming the id, 404 RESOURCE_NOT_FOUND), the node
// fails with "No … with ID …", outputs nothing with "On Not Found" = Return Nothing, and gives an
// error item with Continue On Fail.
import { crmFixture } from '../harness/crm';
import type { CrmFixture } from '../harness/crm';
import { errorOf, outputOf } from '../harness/n8n';

const MISSING = '4876876000000999001';

describe('Get by ID of a missing ID (engine → sandbox over HTTP)', () => {
	let crm: CrmFixture;
	let leadId: string;
	beforeAll(async () => {
		crm = await crmFixture();
		const created = await crm.api('POST', '/crm/v2.1/Leads', { data: [{ Last_Name: 'Present' }] });
		leadId = created.body.data[0].details.id;
	});
	afterAll(async () => await crm.close());

	const lastStatus = async () => (await crm.requests()).at(-1)?.status;

	test('Record → Get: the 204 of a missing ID is an error naming the module and the ID', async () => {
		const get = crm.node('crmRecord', {
			resource: 'record',
			operation: 'get',
			module: 'Leads',
			getBy: 'id',
			recordId: MISSING,
		});
		const error = errorOf(await crm.run(get), get.name);
		expect(await lastStatus()).toBe(204);
		expect(error?.message).toBe(`No Leads record with ID ${MISSING}`);
		expect(error?.httpCode).toBe('404');

		const byExternal = crm.node('crmRecord', {
			resource: 'record',
			operation: 'get',
			module: 'Leads',
			getBy: 'externalId',
			externalField: 'External_Lead_ID',
			externalValue: 'NOT-THERE',
		});
		expect(errorOf(await crm.run(byExternal), byExternal.name)?.message).toBe(
			'No Leads record with external ID NOT-THERE',
		);
	});

	test('Record → Get with On Not Found = Return Nothing outputs no item; an existing ID still outputs its record', async () => {
		const get = crm.node('crmRecord', {
			resource: 'record',
			operation: 'get',
			module: 'Leads',
			getBy: 'id',
			recordId: '={{ $json.id }}',
			onNotFound: 'returnNothing',
		});
		const out = outputOf(
			await crm.run(get, [{ json: { id: MISSING } }, { json: { id: leadId } }]),
			get.name,
		);
		expect(out.map((i) => [i.json.id, i.json.Last_Name, i.pairedItem])).toEqual([
			[leadId, 'Present', { item: 1 }],
		]);
	});

	test('Record → Get with Continue On Fail: the missing ID becomes an error item, the others are output', async () => {
		const get = crm.node(
			'crmRecord',
			{
				resource: 'record',
				operation: 'get',
				module: 'Leads',
				getBy: 'id',
				recordId: '={{ $json.id }}',
			},
			{ onError: 'continueRegularOutput' },
		);
		const out = outputOf(
			await crm.run(get, [{ json: { id: leadId } }, { json: { id: MISSING } }]),
			get.name,
		);
		expect(out).toHaveLength(2);
		expect(out[0].json).toMatchObject({ id: leadId, Last_Name: 'Present' });
		expect(out[1].json.error).toBe(`No Leads record with ID ${MISSING}`);
	});

	test('Metadata → Layout Get: the 400 INVALID_DATA naming the ID reads the same way', async () => {
		const get = crm.node('crmMetadata', {
			resource: 'layout',
			operation: 'get',
			module: 'Leads',
			layoutId: MISSING,
		});
		const error = errorOf(await crm.run(get), get.name);
		expect(await lastStatus()).toBe(400);
		expect(error?.message).toBe(`No layout with ID ${MISSING}`);

		const nothing = crm.node('crmMetadata', {
			resource: 'layout',
			operation: 'get',
			module: 'Leads',
			layoutId: MISSING,
			onNotFound: 'returnNothing',
		});
		expect(outputOf(await crm.run(nothing), nothing.name)).toEqual([]);
	});

	test('Admin → Role Get: error by default, nothing with Return Nothing, an error item with Continue On Fail', async () => {
		const get = crm.node('crmAdmin', { resource: 'role', operation: 'get', roleId: MISSING });
		expect(errorOf(await crm.run(get), get.name)?.message).toBe(`No role with ID ${MISSING}`);

		const nothing = crm.node('crmAdmin', {
			resource: 'role',
			operation: 'get',
			roleId: MISSING,
			onNotFound: 'returnNothing',
		});
		expect(outputOf(await crm.run(nothing), nothing.name)).toEqual([]);

		const goOn = crm.node(
			'crmAdmin',
			{ resource: 'role', operation: 'get', roleId: MISSING },
			{ onError: 'continueRegularOutput' },
		);
		const out = outputOf(await crm.run(goOn), goOn.name);
		expect(out.map((i) => i.json.error)).toEqual([`No role with ID ${MISSING}`]);
	});

	test('Bulk → Bulk Read Get Job: the 404 RESOURCE_NOT_FOUND reads the same way', async () => {
		const get = crm.node('crmBulk', { resource: 'bulkRead', operation: 'get', jobId: MISSING });
		const error = errorOf(await crm.run(get), get.name);
		expect(await lastStatus()).toBe(404);
		expect(error?.message).toBe(`No bulk read job with ID ${MISSING}`);
	});

	test('a Get Many that finds nothing stays empty and successful (no On Not Found there)', async () => {
		const getAll = crm.node('crmRecord', {
			resource: 'record',
			operation: 'getAll',
			module: 'Leads',
			returnAll: true,
			options: { ids: MISSING },
		});
		const run = await crm.run(getAll);
		expect(errorOf(run, getAll.name)).toBeUndefined();
		expect(outputOf(run, getAll.name)).toEqual([]);
	});
});
