// What an AI agent's model reads about a CRM node used as a tool. n8n builds the tool variant of a
// `usableAsTool` node ("<Node> Tool", name + "Tool") and sends the model the node's
// `toolDescription`, resolved as an expression (n8n-core createNodeAsTool → n8n-workflow
// NodeHelpers.getToolDescriptionForNode). Ours follows the chosen operation and says what it returns.
import { deepCopy, NodeHelpers, Workflow } from 'n8n-workflow';
import type {
	INode,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { packageNodeTypes } from '../harness/crm';
import { ensureExpressionEngine, TestNodeTypes } from '../harness/n8n';

const tools = Object.entries(packageNodeTypes()).filter(
	([, type]) => type.description.usableAsTool,
);

/** The tool variant as n8n's loader makes it (n8n's tool-generation createAiTools / convertNodeToAiTool). */
function toolVariant(type: INodeType): INodeType {
	const source = type.description;
	const replacements =
		typeof source.usableAsTool === 'object' ? source.usableAsTool.replacements : {};
	const description = { ...deepCopy(source), ...replacements } as INodeTypeDescription;
	description.name += 'Tool';
	description.displayName += ' Tool';
	delete description.usableAsTool;
	return { ...type, description } as INodeType;
}

function operations(
	properties: INodeProperties[],
): Array<{ resource: string; operation: INodePropertyOptions }> {
	const out: Array<{ resource: string; operation: INodePropertyOptions }> = [];
	for (const p of properties) {
		if (p.name !== 'operation') continue;
		for (const resource of (p.displayOptions?.show?.resource ?? []) as string[]) {
			for (const operation of (p.options ?? []) as INodePropertyOptions[])
				out.push({ resource, operation });
		}
	}
	return out;
}

/** The description n8n hands the model for a tool node saved with these parameters (within an execution, which holds an expression isolate). */
async function offeredDescription(
	tool: INodeType,
	parameters: INode['parameters'],
): Promise<string> {
	const type = `test.${tool.description.name}`;
	const node: INode = {
		id: '1',
		name: 'Tool',
		type,
		typeVersion: tool.description.defaultVersion ?? 1,
		position: [0, 0],
		parameters,
	};
	// the Workflow fills in the defaults, as at execution
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		nodeTypes: new TestNodeTypes({ [type]: tool }),
		active: false,
	});
	const filled = workflow.getNode('Tool')!;
	const resolve = () =>
		workflow.expression.getParameterValue(
			filled.parameters.toolDescription as string,
			null,
			0,
			0,
			'Tool',
			[],
			'manual',
			{},
		) as string;
	const acquired = await workflow.expression.acquireIsolate();
	try {
		return NodeHelpers.getToolDescriptionForNode(
			filled,
			{ description: tool.description } as INodeType,
			resolve,
		);
	} finally {
		if (acquired) await workflow.expression.releaseIsolate();
	}
}

beforeAll(ensureExpressionEngine);

describe('tool descriptions the model reads', () => {
	test('every action node is usable as a tool', () => {
		expect(tools.map(([name]) => name.split('.').pop())).toEqual(
			expect.arrayContaining([
				'crmRecord',
				'crmQuery',
				'crmMail',
				'crmAdmin',
				'crmBulk',
				'crmMetadata',
				'crmNotification',
			]),
		);
	});

	test.each(tools)(
		'%s: each operation tells the model what it does and what it returns',
		async (_name, type) => {
			const tool = toolVariant(type);
			// n8n adds its own "Tool Description" pair only to nodes without a toolDescription
			expect(tool.description.properties.filter((p) => p.name === 'toolDescription')).toHaveLength(
				1,
			);
			const ops = operations(type.description.properties);
			expect(ops.length).toBeGreaterThan(0);
			for (const { resource, operation } of ops) {
				const text = await offeredDescription(tool, { resource, operation: operation.value });
				const where = `${resource}.${String(operation.value)}: ${text}`;
				expect({ where, start: text.slice(0, `${operation.action} in the CRM`.length) }).toEqual({
					where,
					start: `${operation.action} in the CRM`,
				});
				expect({ where, returns: /\. Returns [a-z0-9"].+\.$/.test(text) }).toEqual({
					where,
					returns: true,
				});
				// words only: no unresolved expression, no markup or API names
				expect({
					where,
					ok: !/undefined|[<>_{}]|\$parameter/.test(text) && text.length <= 320,
				}).toEqual({ where, ok: true });
			}
		},
	);

	test('CRM Record → Search, as the e2e agent step sees it', async () => {
		const tool = toolVariant(packageNodeTypes()['n8n-nodes-crm-service.crmRecord']);
		expect(await offeredDescription(tool, { resource: 'record', operation: 'search' })).toBe(
			'Search records in the CRM: find records by criteria, email, phone or word. Returns one item per matching record, with its id and field values.',
		);
	});

	test('a description the person wrote is what the model reads', async () => {
		const tool = toolVariant(packageNodeTypes()['n8n-nodes-crm-service.crmRecord']);
		const own = 'Finds a customer by e-mail';
		expect(
			await offeredDescription(tool, {
				resource: 'record',
				operation: 'search',
				toolDescription: own,
			}),
		).toBe(own);
	});

	test('changing the operation in the editor changes the description (nothing of the old one is kept)', async () => {
		const tool = toolVariant(packageNodeTypes()['n8n-nodes-crm-service.crmRecord']);
		const node = { typeVersion: 1.1 } as INode;
		// the editor: a new node gets every default, a change keeps only what differs from them
		const created = NodeHelpers.getNodeParameters(
			tool.description.properties,
			{ resource: 'record', operation: 'search' },
			true,
			false,
			node,
			tool.description,
		)!;
		expect(created.toolText_record_search).toMatch(/^Search records/);
		const changed = NodeHelpers.getNodeParameters(
			tool.description.properties,
			{ ...created, operation: 'get' },
			false,
			false,
			node,
			tool.description,
		)!;
		expect(Object.keys(changed).filter((k) => k.startsWith('tool'))).toEqual([]);
		expect(await offeredDescription(tool, changed)).toMatch(
			/^Get a record in the CRM: .*\. Returns the record with its id and field values/,
		);
	});

	test('the plain node (not a tool) saves none of it', () => {
		const type = packageNodeTypes()['n8n-nodes-crm-service.crmRecord'];
		const node = { typeVersion: 1.1 } as INode;
		const filled = NodeHelpers.getNodeParameters(
			type.description.properties,
			{ resource: 'record', operation: 'search' },
			true,
			false,
			node,
			type.description,
		)!;
		expect(Object.keys(filled).filter((k) => k.startsWith('tool'))).toEqual([]);
	});
});
