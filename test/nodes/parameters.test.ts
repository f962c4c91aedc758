// getParameter, the package's one way to read a node parameter, run by n8n's engine: in an execute
// context a parameter without an expression is resolved once per run, every item gets the same
// frozen value; one with an expression is resolved for each item.
import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { getParameter } from '../../nodes/shared/parameters';
import { outputOf, runWorkflow } from '../harness/n8n';

const probe: INodeType = {
	description: {
		displayName: 'Parameter Probe',
		name: 'parameterProbe',
		group: ['transform'],
		version: 1,
		description: 'Reads its parameters with getParameter',
		defaults: { name: 'Probe' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				default: {},
				options: [{ displayName: 'Tags', name: 'tags', type: 'string', default: '' }],
			},
			{ displayName: 'Per Item', name: 'perItem', type: 'string', default: '' },
		],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const calls: Record<string, number> = {};
		const n8nRead = this.getNodeParameter.bind(this) as (...args: unknown[]) => unknown;
		Object.assign(this, {
			getNodeParameter: (name: string, ...rest: unknown[]) => {
				calls[name] = (calls[name] ?? 0) + 1;
				return n8nRead(name, ...rest);
			},
		});
		const items = this.getInputData();
		const first = getParameter(this, 'options', 0, {});
		const out = items.map((_, itemIndex) => {
			const options = getParameter(this, 'options', itemIndex, {}) as { tags?: string };
			let mutation = 'allowed';
			try {
				options.tags = 'changed';
			} catch (error) {
				mutation = (error as Error).name;
			}
			return {
				json: {
					sameValue: options === first,
					frozen: Object.isFrozen(options),
					tags: options.tags ?? null,
					mutation,
					perItem: getParameter(this, 'perItem', itemIndex, '') as string,
				},
			};
		});
		return [[...out, { json: { calls } }]];
	},
};

describe('getParameter in an execute context', () => {
	it('resolves a parameter without an expression once per run, frozen; an expression per item', async () => {
		const run = await runWorkflow({
			nodes: [
				{
					id: 'p',
					name: 'Probe',
					type: 'parameterProbe',
					typeVersion: 1,
					position: [0, 0],
					parameters: { options: { tags: 'vip' }, perItem: '={{ "n" + $json.n }}' },
				},
			],
			nodeTypes: { parameterProbe: probe },
			input: [{ json: { n: 1 } }, { json: { n: 2 } }, { json: { n: 3 } }],
		});
		const items = outputOf(run, 'Probe').map((item) => item.json);
		expect(items.slice(0, 3)).toEqual(
			[1, 2, 3].map((n) => ({
				sameValue: true,
				frozen: true,
				tags: 'vip',
				mutation: 'TypeError',
				perItem: `n${n}`,
			})),
		);
		// n8n's own read: once for the fixed parameter (four reads), once per item for the expression
		expect(items[3]).toEqual({ calls: { options: 1, perItem: 3 } });
	});
});
