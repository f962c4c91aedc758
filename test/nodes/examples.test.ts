// Every workflow of examples/ against the nodes as they are now: each CRM node's saved parameters
// are checked as the editor reads them (known names, shown for the saved modes, option values that
// exist, loaded-option values the sandbox offers, no parameter issue n8n would paint red, the
// node's current version), so that `npm test` catches an example drifting from its node. Opening
// and running each example in n8n, and checking its output, is scripts/e2e/examples.mts.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { PACKAGE, useCrmFixture } from '../harness/crm';

const EXAMPLES_DIR = path.resolve(__dirname, '..', '..', 'examples');
const files = readdirSync(EXAMPLES_DIR)
	.filter((f) => f.endsWith('.json'))
	.sort();

interface ExampleWorkflow {
	name: string;
	nodes: INode[];
	connections: Record<string, unknown>;
}

const load = (file: string) =>
	JSON.parse(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as ExampleWorkflow;

const isExpression = (value: unknown) => typeof value === 'string' && value.startsWith('=');

/** A parameter's value that loads its options from the CRM, to be checked against what the sandbox offers. */
interface LoadedValue {
	method: string;
	/** the parameter path the editor sends with the load-options call */
	path: string;
	values: string[];
}

/**
 * What the editor would object to in one level of saved parameters: names the description does not
 * have, names not shown for the saved modes (the editor drops them: a missing mode parameter),
 * option values not in the list. Loaded options are collected in `loaded`.
 */
function problemsOf(
	props: INodeProperties[],
	saved: INodeParameters,
	all: INodeParameters,
	path: string,
	node: INode,
	description: INodeTypeDescription,
	loaded: LoadedValue[],
): string[] {
	const problems: string[] = [];
	for (const [name, value] of Object.entries(saved)) {
		const candidates = props.filter((p) => p.name === name);
		const where = `${path}.${name}`;
		if (candidates.length === 0) {
			problems.push(`${where}: no such parameter`);
			continue;
		}
		const shown = candidates.filter((p) =>
			NodeHelpers.displayParameterPath({ parameters: all }, p, path, node, description),
		);
		if (shown.length === 0) {
			problems.push(`${where}: saved, but not shown for the saved modes (the editor drops it)`);
			continue;
		}
		const prop = shown[0];
		if (isExpression(value)) continue;
		if (prop.type === 'options' || prop.type === 'multiOptions') {
			const values = (Array.isArray(value) ? value : [value]).map(String);
			const method = prop.typeOptions?.loadOptionsMethod;
			if (method) loaded.push({ method, path: where, values });
			else {
				const allowed = (prop.options ?? []).map((o) => String((o as { value: unknown }).value));
				for (const v of values)
					if (!allowed.includes(v))
						problems.push(`${where}: the value "${v}" is not one of ${JSON.stringify(allowed)}`);
			}
		} else if (prop.type === 'collection' && value && typeof value === 'object') {
			problems.push(
				...problemsOf(
					prop.options as INodeProperties[],
					value as INodeParameters,
					all,
					where,
					node,
					description,
					loaded,
				),
			);
		} else if (prop.type === 'fixedCollection' && value && typeof value === 'object') {
			for (const [group, entries] of Object.entries(value as INodeParameters)) {
				const option = (prop.options as INodePropertyCollection[]).find((o) => o.name === group);
				if (!option) {
					problems.push(`${where}.${group}: no such group`);
					continue;
				}
				const list = prop.typeOptions?.multipleValues
					? (entries as INodeParameters[])
					: [entries as INodeParameters];
				list.forEach((entry, i) => {
					const at = prop.typeOptions?.multipleValues
						? `${where}.${group}[${i}]`
						: `${where}.${group}`;
					problems.push(...problemsOf(option.values, entry, all, at, node, description, loaded));
				});
			}
		}
	}
	return problems;
}

describe('examples/: every CRM node as the current node reads it', () => {
	const crm = useCrmFixture();
	const descriptionOf = (type: string) =>
		(crm.nodeTypes[type] as any).description as INodeTypeDescription;

	test('examples/ holds the workflows the README lists', () => {
		expect(files.length).toBeGreaterThanOrEqual(5);
	});

	describe.each(files)('%s', (file) => {
		const workflow = load(file);
		const crmNodes = workflow.nodes.filter((n) => n.type.startsWith(`${PACKAGE}.`));

		test.each(crmNodes.map((n) => [n.name, n] as const))(
			'node "%s": parameters as the editor reads them',
			async (_name, node) => {
				const description = descriptionOf(node.type);
				expect(description).toBeDefined();
				const versions = ([] as number[]).concat(description.version);
				// the parameters as n8n resolves them on opening (defaults filled, hidden ones dropped)
				const resolved = NodeHelpers.getNodeParameters(
					description.properties,
					node.parameters,
					true,
					false,
					node,
					description,
				)!;
				const loaded: LoadedValue[] = [];
				const problems = problemsOf(
					description.properties,
					node.parameters,
					resolved,
					'parameters',
					node,
					description,
					loaded,
				);
				// the issues n8n paints red on the canvas node and in its panel
				const issues = NodeHelpers.getNodeParametersIssues(
					description.properties,
					{ ...node, parameters: resolved },
					description,
				);
				if (issues) problems.push(...NodeHelpers.nodeIssuesToString(issues, node));
				// values of lists loaded from the CRM: the sandbox offers them for these parameters
				const nodeName = node.type.slice(PACKAGE.length + 1);
				for (const entry of loaded) {
					const options = await crm.loadOptions(nodeName, entry.method, resolved, entry.path);
					const offered = options.map((o) => String(o.value));
					for (const v of entry.values) {
						if (!offered.includes(v))
							problems.push(
								`${entry.path}: the value "${v}" is not supported (${entry.method} offers ${offered.length} values)`,
							);
					}
				}
				// an example is built as a new user would build it: the node's current version
				if (node.typeVersion !== (description.defaultVersion ?? Math.max(...versions))) {
					problems.push(
						`typeVersion ${node.typeVersion}: the node is at version ${description.defaultVersion ?? Math.max(...versions)}`,
					);
				}
				expect(problems).toEqual([]);
			},
		);
	});
});
