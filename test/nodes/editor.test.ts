// What the editor shows, at the engine level: load options and the resource mapper called through
// n8n-core's LoadOptionsContext (the path of the editor's /dynamic-node-parameters requests) against
// the sandbox, the parameters' displayOptions as n8n evaluates them, and the record writes and bulk
// conditions those parameters produce. The browser side: scripts/e2e/record-mapper.mts and
// scripts/e2e/bulk-conditions.mts.
import { LoadOptionsContext } from 'n8n-core';
import type {
	ILoadOptionsFunctions,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
	ResourceMapperFields,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { crmFixture } from '../harness/crm';
import type { CrmFixture } from '../harness/crm';
import { buildAdditionalData, buildWorkflow, outputOf } from '../harness/n8n';

const plain = (text: string) =>
	text
		.toLowerCase()
		.replace(/[\s_]+/g, ' ')
		.trim();

describe('editor experience (load options, mapper, displayOptions)', () => {
	let crm: CrmFixture;
	beforeAll(async () => {
		crm = await crmFixture();
	});
	afterAll(async () => {
		await crm.close();
	});

	function contextFor(nodeName: string, parameters: Record<string, unknown>, path: string) {
		const node = crm.node(nodeName, parameters as any);
		const workflow = buildWorkflow({ nodes: [node], nodeTypes: crm.nodeTypes });
		const additionalData = buildAdditionalData({ credentialsHelper: crm.helper });
		additionalData.currentNodeParameters = node.parameters;
		const ctx = new LoadOptionsContext(workflow, node, additionalData, path);
		return {
			ctx: ctx as unknown as ILoadOptionsFunctions,
			type: crm.nodeTypes[`n8n-nodes-crm-service.${nodeName}`] as any,
		};
	}

	async function load(
		nodeName: string,
		method: string,
		parameters: Record<string, unknown>,
		path = 'parameters.x',
	): Promise<INodePropertyOptions[]> {
		const { ctx, type } = contextFor(nodeName, parameters, path);
		return await type.methods.loadOptions[method].call(ctx);
	}

	async function mapperFields(parameters: Record<string, unknown>): Promise<ResourceMapperFields> {
		const { ctx, type } = contextFor(
			'crmRecord',
			{ resource: 'record', ...parameters },
			'parameters.columns',
		);
		return await type.methods.resourceMapping.getRecordMappingFields.call(ctx);
	}

	const description = (nodeName: string) =>
		(crm.nodeTypes[`n8n-nodes-crm-service.${nodeName}`] as any).description as INodeTypeDescription;

	/** the properties of an operation with their name, as n8n would show them for `parameters` */
	function shown(
		nodeName: string,
		parameters: Record<string, unknown>,
		name: string,
	): INodeProperties[] {
		const desc = description(nodeName);
		const node = crm.node(nodeName, parameters as any);
		return desc.properties.filter(
			(p) => p.name === name && NodeHelpers.displayParameter(parameters as any, p, node, desc),
		);
	}

	test('Module options: Leads and Contacts listed, no option repeats its own name as description', async () => {
		const modules = await load('crmRecord', 'getModules', {
			resource: 'record',
			operation: 'getAll',
		});
		const leads = modules.find((m) => m.value === 'Leads');
		expect(leads).toEqual({ name: 'Leads', value: 'Leads' });
		expect(modules.map((m) => m.value)).toEqual(
			expect.arrayContaining(['Leads', 'Contacts', 'Deals']),
		);
		const repeating = modules.filter(
			(m) => m.description !== undefined && plain(m.description) === plain(m.name),
		);
		expect(repeating).toEqual([]);
	});

	test('before a module is chosen the mapper is hidden and its method reports nothing', async () => {
		expect(await mapperFields({ operation: 'create', module: '' })).toEqual({ fields: [] });
		const columns = description('crmRecord').properties.filter((p) => p.name === 'columns');
		expect(columns.length).toBeGreaterThan(0);
		for (const p of columns) {
			expect(p.typeOptions?.resourceMapper).toMatchObject({
				hideNoDataError: true,
				supportAutoMap: false,
			});
			expect(p.typeOptions?.loadOptionsDependsOn).toEqual(['module']);
		}
		expect(
			shown(
				'crmRecord',
				{ resource: 'record', operation: 'create', fieldsMode: 'mapper', module: '' },
				'columns',
			),
		).toHaveLength(0);
		expect(
			shown(
				'crmRecord',
				{ resource: 'record', operation: 'create', fieldsMode: 'mapper', module: 'Leads' },
				'columns',
			),
		).toHaveLength(1);
		// an expression for the module shows the mapper too
		expect(
			shown(
				'crmRecord',
				{ resource: 'record', operation: 'create', fieldsMode: 'mapper', module: '={{ "Leads" }}' },
				'columns',
			),
		).toHaveLength(1);
	});

	test('one mode selector: Define Fields offers the mapper, automatic mapping, pairs and JSON', () => {
		for (const operation of ['create', 'update', 'upsert']) {
			const [mode] = shown('crmRecord', { resource: 'record', operation }, 'fieldsMode');
			expect((mode.options as INodePropertyOptions[]).map((o) => o.value)).toEqual([
				'mapper',
				'auto',
				'pairs',
				'json',
			]);
			expect(mode.default).toBe('mapper');
		}
	});

	// n8n 2.40.7's mapper keeps only text, number and boolean values (a multi-select's list is dropped)
	// and gives its inputs no typeOptions (no date-only picker): both are text inputs saying the format
	test('mapper fields: multi-select picklists and date-only fields are labelled text inputs, labels without value lists', async () => {
		const { fields } = await mapperFields({ operation: 'create', module: 'Leads' });
		const byId = Object.fromEntries(fields.map((f) => [f.id, f]));
		expect(byId.Interests).toMatchObject({
			displayName: 'Interests (Comma-Separated)',
			type: 'string',
		});
		expect(byId.Last_Contacted_Date).toMatchObject({
			displayName: 'Last Contacted Date (yyyy-MM-dd)',
			type: 'string',
		});
		expect(byId.Follow_Up_Time.type).toBe('dateTime');
		expect(fields.filter((f) => /list of|…/.test(f.displayName))).toEqual([]);
	});

	test('a mapper write with a multi-select list and a date lands typed in the CRM', async () => {
		const node = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'mapper',
			columns: {
				mappingMode: 'defineBelow',
				value: {
					Last_Name: 'Mapper Multi',
					Interests: 'CRM, Support',
					Last_Contacted_Date: '2026-03-01',
				},
				matchingColumns: [],
				schema: (await mapperFields({ operation: 'create', module: 'Leads' })).fields,
			} as any,
		});
		const [item] = outputOf(await crm.run(node), node.name);
		const id = (item.json as any).id ?? (item.json as any).details?.id;
		const record = (await crm.api('GET', `/crm/v2.1/Leads/${id as string}`)).body.data[0];
		expect(record).toMatchObject({
			Last_Name: 'Mapper Multi',
			Interests: ['CRM', 'Support'],
			Last_Contacted_Date: '2026-03-01',
		});
	});

	test('"Map Input Fields Automatically": input keys that are fields are sent, others ignored; update finds the record by Update By', async () => {
		const create = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'auto',
		});
		const created = outputOf(
			await crm.run(create, [
				{ json: { Last_Name: 'Auto Mapped', Company: 'Auto Co', not_a_field: 'x' } },
			]),
			create.name,
		);
		const id = ((created[0].json as any).id ?? (created[0].json as any).details?.id) as string;
		expect((await crm.api('GET', `/crm/v2.1/Leads/${id}`)).body.data[0]).toMatchObject({
			Last_Name: 'Auto Mapped',
			Company: 'Auto Co',
		});
		// the mapper is hidden in this mode; Update By is shown
		expect(
			shown(
				'crmRecord',
				{ resource: 'record', operation: 'update', fieldsMode: 'auto', module: 'Leads' },
				'columns',
			),
		).toHaveLength(0);
		expect(
			shown(
				'crmRecord',
				{ resource: 'record', operation: 'update', fieldsMode: 'auto', module: 'Leads' },
				'updateBy',
			),
		).toHaveLength(1);
		const update = crm.node('crmRecord', {
			resource: 'record',
			operation: 'update',
			module: 'Leads',
			fieldsMode: 'auto',
			updateBy: 'id',
			recordId: id,
		});
		await crm.run(update, [{ json: { id, City: 'Auto City', other: 1 } }]);
		expect((await crm.api('GET', `/crm/v2.1/Leads/${id}`)).body.data[0]).toMatchObject({
			Last_Name: 'Auto Mapped',
			City: 'Auto City',
		});
	});

	test("a mapper saved in n8n's own auto mode still maps the input automatically", async () => {
		const node = crm.node('crmRecord', {
			resource: 'record',
			operation: 'create',
			module: 'Leads',
			fieldsMode: 'mapper',
			columns: { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] },
		});
		const [item] = outputOf(
			await crm.run(node, [{ json: { Last_Name: 'Saved Auto', Company: 'Saved Co' } }]),
			node.name,
		);
		const id = ((item.json as any).id ?? (item.json as any).details?.id) as string;
		expect((await crm.api('GET', `/crm/v2.1/Leads/${id}`)).body.data[0]).toMatchObject({
			Last_Name: 'Saved Auto',
			Company: 'Saved Co',
		});
	});

	describe('bulk read conditions', () => {
		const conditionValues = () => {
			const conditions = description('crmBulk').properties.find((p) => p.name === 'conditions')!;
			return (conditions.options as any[])[0].values as INodeProperties[];
		};
		/** the condition's parameters n8n shows for one condition's values */
		const visible = (values: Record<string, unknown>) => {
			const desc = description('crmBulk');
			const node = crm.node('crmBulk', { resource: 'bulkRead', operation: 'create' });
			return conditionValues()
				.filter((p) => NodeHelpers.displayParameter(values as any, p, node, desc))
				.map((p) => p.name);
		};

		test('the upper bound shows only for Between / Not Between; picklist fields get value dropdowns', () => {
			expect(visible({ field: 'No_of_Employees', comparator: 'equal' })).toEqual([
				'field',
				'comparator',
				'value',
			]);
			expect(visible({ field: 'No_of_Employees', comparator: 'between' })).toEqual([
				'field',
				'comparator',
				'value',
				'valueTo',
			]);
			expect(visible({ field: 'No_of_Employees', comparator: 'not_between' })).toContain('valueTo');
			expect(visible({ field: 'Lead_Source|picklist', comparator: 'equal' })).toEqual([
				'field',
				'comparator',
				'picklistValue',
			]);
			expect(visible({ field: 'Lead_Source|picklist', comparator: 'in' })).toEqual([
				'field',
				'comparator',
				'picklistValues',
			]);
			// saved conditions on a picklist (plain API name) keep their text value
			expect(visible({ field: 'Lead_Source', comparator: 'equal' })).toEqual([
				'field',
				'comparator',
				'value',
			]);
		});

		test('criteria fields mark picklists; the value dropdown lists the chosen picklist', async () => {
			const fields = await load('crmBulk', 'getCriteriaFields', {
				resource: 'bulkRead',
				operation: 'create',
				module: 'Leads',
			});
			const byName = Object.fromEntries(
				fields.map((f) => [String(f.value).replace('|picklist', ''), f.value]),
			);
			expect(byName.Lead_Source).toBe('Lead_Source|picklist');
			expect(byName.Last_Name).toBe('Last_Name');
			expect(byName.Created_Time).toBe('Created_Time');
			const parameters = {
				resource: 'bulkRead',
				operation: 'create',
				module: 'Leads',
				filterType: 'conditions',
				conditions: {
					condition: [
						{ field: 'Last_Name', comparator: 'equal' },
						{ field: 'Lead_Source|picklist', comparator: 'equal' },
					],
				},
			};
			const values = await load(
				'crmBulk',
				'getCriteriaValues',
				parameters,
				'parameters.conditions.condition[1].picklistValue',
			);
			const leadSource = (
				await crm.api('GET', '/crm/v2.1/settings/fields?module=Leads')
			).body.fields.find((f: any) => f.api_name === 'Lead_Source');
			expect(values.map((v) => v.value)).toEqual(
				leadSource.pick_list_values.map((v: any) => v.actual_value),
			);
			expect(values.map((v) => v.value)).toContain('Web');
			expect(
				await load(
					'crmBulk',
					'getCriteriaValues',
					parameters,
					'parameters.conditions.condition[0].picklistValue',
				),
			).toEqual([]);
		});

		test('picklist dropdown values go out as criteria values', async () => {
			const node = crm.node('crmBulk', {
				resource: 'bulkRead',
				operation: 'create',
				module: 'Leads',
				filterType: 'conditions',
				matchType: 'and',
				conditions: {
					condition: [
						{ field: 'Lead_Source|picklist', comparator: 'equal', picklistValue: 'Web' },
						{
							field: 'Lead_Source|picklist',
							comparator: 'not_in',
							picklistValues: ['Chat', 'Partner'],
						},
						{
							field: 'Created_Time',
							comparator: 'between',
							value: '2020-01-01T00:00:00Z',
							valueTo: '2030-01-01T00:00:00Z',
						},
					],
				},
				waitForCompletion: false,
			});
			const [item] = outputOf(await crm.run(node), node.name);
			const jobId = String((item.json as any).details?.id ?? (item.json as any).id);
			const job = (await crm.api('GET', `/crm/bulk/v2.1/read/${jobId}`)).body.data[0];
			expect(job.query.criteria.group.slice(0, 2)).toEqual([
				{ api_name: 'Lead_Source', comparator: 'equal', value: 'Web' },
				{ api_name: 'Lead_Source', comparator: 'not_in', value: ['Chat', 'Partner'] },
			]);
			expect(job.query.criteria.group[2]).toMatchObject({
				api_name: 'Created_Time',
				comparator: 'between',
			});
		});
	});
});
