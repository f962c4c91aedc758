// CRM Admin › Variable through n8n's engine against the sandbox: GetVariables, GetVariableByID,
// GetVariableForAPIName, CreateVariables, UpdateVariableById / UpdateVariableByAPIName /
// UpdateVariables, DeleteVariable / DeleteVariables.
import { useCrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

const GENERAL = '4876876000000391001';
const INTEGRATIONS = '4876876000000391003';
const DISCOUNT = '4876876000000391103';

describe('CRM Admin › Variable (engine → sandbox over HTTP)', () => {
	const crm = useCrmFixture();

	const variable = (params: Record<string, unknown>, extra = {}) =>
		crm.node('crmAdmin', { resource: 'variable', ...params } as any, extra);
	const read = async (key: string, group: string) =>
		(await crm.api('GET', `/crm/v2.1/settings/variables/${key}?group=${group}`)).body
			?.variables?.[0];

	test('Get Many lists a group; Get reads by ID or by API name', async () => {
		const getAll = variable({ operation: 'getAll', group: INTEGRATIONS });
		expect(outputOf(await crm.run(getAll), getAll.name).map((i) => i.json.api_name)).toEqual([
			'ERP_Endpoint',
			'Sync_Enabled',
		]);
		const byId = variable({ operation: 'get', group: GENERAL, getBy: 'id', variableId: DISCOUNT });
		expect(outputOf(await crm.run(byId), byId.name)[0].json).toMatchObject({
			api_name: 'Discount_Limit',
			value: 15,
			source: 'crm',
		});
		const byName = variable({
			operation: 'get',
			group: 'Integrations',
			getBy: 'apiName',
			variableApiName: 'Sync_Enabled',
		});
		expect(outputOf(await crm.run(byName), byName.name)[0].json).toMatchObject({
			id: '4876876000000391109',
			value: true,
		});
		const bad = variable({
			operation: 'get',
			group: GENERAL,
			getBy: 'apiName',
			variableApiName: '12345',
		});
		expect(errorOf(await crm.run(bad), bad.name)?.message).toContain(
			'Variable API Name must be a non-numeric API name',
		);
	});

	test('Create types values by the variable type and sends one CreateVariables request', async () => {
		await crm.clearRequests();
		const create = variable({
			operation: 'create',
			variableName: '={{ $json.name }}',
			variableType: '={{ $json.type }}',
			group: GENERAL,
			value: '={{ $json.value }}',
			additionalFields: { description: 'from n8n' },
		});
		const out = outputOf(
			await crm.run(create, [
				{ json: { name: 'Max Seats', type: 'integer', value: '25' } },
				{ json: { name: 'Beta Enabled', type: 'checkbox', value: 'TRUE' } },
				{ json: { name: 'Margin', type: 'percent', value: '12.5' } },
			]),
			create.name,
		);
		expect(out.map((i) => i.json.message)).toEqual([
			'variable added',
			'variable added',
			'variable added',
		]);
		expect((await crm.requests()).filter((r) => r.method === 'POST')).toHaveLength(1);
		expect(await read('Max_Seats', 'General')).toMatchObject({
			type: 'integer',
			value: 25,
			description: 'from n8n',
		});
		expect(await read('Beta_Enabled', 'General')).toMatchObject({ type: 'checkbox', value: true });
		expect(await read('Margin', 'General')).toMatchObject({ type: 'percent', value: 12.5 });

		const bad = variable(
			{
				operation: 'create',
				variableName: 'Bad',
				variableType: 'integer',
				group: GENERAL,
				value: 'many',
			},
			{ name: 'Bad' },
		);
		expect(errorOf(await crm.run(bad), 'Bad')?.message).toContain('is not a whole number');
		const dup = variable(
			{ operation: 'create', variableName: 'Max Seats', variableType: 'text', group: GENERAL },
			{ name: 'Dup' },
		);
		expect(errorOf(await crm.run(dup), 'Dup')?.message).toContain('DUPLICATE_DATA');
	});

	test('Update: by ID or API name as a chunk of one, several in one UpdateVariables request', async () => {
		await crm.clearRequests();
		const byId = variable({
			operation: 'update',
			updateBy: 'id',
			variableId: DISCOUNT,
			updateFields: { value: '30' },
		});
		expect(outputOf(await crm.run(byId), byId.name)[0].json).toMatchObject({
			id: DISCOUNT,
			message: 'variable updated',
		});
		const byName = variable({
			operation: 'update',
			updateBy: 'apiName',
			variableApiName: 'Sync_Enabled',
			updateFields: { type: 'checkbox', value: 'false' },
		});
		expect(outputOf(await crm.run(byName), byName.name)[0].json.message).toBe('variable updated');
		const puts = (await crm.requests()).filter((r) => r.method === 'PUT').map((r) => r.url);
		expect(puts).toEqual([
			`/crm/v2.1/settings/variables/${DISCOUNT}`,
			'/crm/v2.1/settings/variables/Sync_Enabled',
		]);
		expect(await read(DISCOUNT, GENERAL)).toMatchObject({ value: 30 });
		expect(await read('Sync_Enabled', 'Integrations')).toMatchObject({ value: false });

		await crm.clearRequests();
		const many = variable({
			operation: 'update',
			updateBy: 'apiName',
			variableApiName: '={{ $json.name }}',
			updateFields: { description: '={{ $json.text }}' },
		});
		const out = outputOf(
			await crm.run(many, [
				{ json: { name: 'Company_Tagline', text: 'Tagline' } },
				{ json: { name: 'ERP_Endpoint', text: 'ERP' } },
			]),
			many.name,
		);
		expect(out.map((i) => i.json.status)).toEqual(['success', 'success']);
		expect((await crm.requests()).filter((r) => r.method === 'PUT').map((r) => r.url)).toEqual([
			'/crm/v2.1/settings/variables',
		]);
		expect((await read('ERP_Endpoint', 'Integrations')).description).toBe('ERP');
	});

	test('Delete: one uses DeleteVariable, several one DeleteVariables request', async () => {
		const ids = (await crm.api('GET', '/crm/v2.1/settings/variables?group=General')).body.variables
			.filter((v: any) => ['Max_Seats', 'Beta_Enabled', 'Margin'].includes(v.api_name))
			.map((v: any) => v.id);
		await crm.clearRequests();
		const one = variable({ operation: 'delete', variableId: ids[0] });
		expect(outputOf(await crm.run(one), one.name)[0].json).toMatchObject({
			id: ids[0],
			message: 'variable deleted',
		});
		const many = variable({ operation: 'delete', variableId: '={{ $json.id }}' }, { name: 'Many' });
		expect(
			outputOf(
				await crm.run(
					many,
					ids.slice(1).map((id: string) => ({ json: { id } })),
				),
				'Many',
			),
		).toHaveLength(2);
		const deletes = (await crm.requests()).filter((r) => r.method === 'DELETE').map((r) => r.url);
		expect(deletes[0]).toBe(`/crm/v2.1/settings/variables/${ids[0]}`);
		expect(deletes[1]).toMatch(/^\/crm\/v2\.1\/settings\/variables\?ids=/);
		const left = (
			await crm.api('GET', '/crm/v2.1/settings/variables?group=General')
		).body.variables.map((v: any) => v.api_name);
		expect(left).toEqual(['Company_Tagline', 'Discount_Limit', 'Fiscal_Year_Start']);
	});
});
