// CRM Bulk's job operations say how many jobs they start where n8n lets them: the notice is static
// text (n8n does not resolve expressions in it) and says where to see the count; the node's hint,
// whose condition n8n resolves against the input the node last received, appears when that input
// holds several items. The condition is evaluated here as n8n's editor does (getParameterValue with
// the previous node's output as connection input data).
import type { INode, INodeExecutionData } from 'n8n-workflow';

import { CrmBulk } from '../../../nodes/CrmBulk/CrmBulk.node';
import { packageNodeTypes } from '../../harness/crm';
import { buildWorkflow, ensureExpressionEngine } from '../../harness/n8n';

const items = (n: number): INodeExecutionData[] =>
	Array.from({ length: n }, (_, i) => ({ json: { row: i } }));

describe('CRM Bulk › how many jobs the form says it starts', () => {
	const { description } = new CrmBulk();

	async function hintShown(
		parameters: INode['parameters'],
		input: INodeExecutionData[],
	): Promise<boolean> {
		const [hint] = description.hints ?? [];
		const node: INode = {
			id: 'bulk',
			name: 'CRM Bulk',
			type: 'n8n-nodes-crm-service.crmBulk',
			typeVersion: 1.1,
			position: [0, 0],
			parameters,
		};
		const workflow = buildWorkflow({ nodes: [node], nodeTypes: packageNodeTypes() });
		await ensureExpressionEngine();
		return await workflow.expression.withIsolate(
			async () =>
				workflow.expression.getParameterValue(
					hint.displayCondition!,
					null,
					0,
					0,
					node.name,
					input,
					'manual',
					{},
				) === true,
		);
	}

	test('the hint appears when the input holds several items and the operation starts a job per item', async () => {
		const read = { resource: 'bulkRead', operation: 'create' };
		const write = { resource: 'bulkWrite', operation: 'create' };
		expect(await hintShown(read, items(40))).toBe(true);
		expect(await hintShown(write, items(2))).toBe(true);
		expect(await hintShown(read, items(1))).toBe(false);
		expect(await hintShown({ resource: 'bulkRead', operation: 'get' }, items(40))).toBe(false);
		expect(description.hints?.[0]).toMatchObject({
			whenToDisplay: 'beforeExecution',
			message: expect.stringContaining('this node will start one job for each'),
		});
	});

	test('the notice is honest that the editor cannot count the items, and says the node waits for a slot', () => {
		const notices = description.properties.filter((p) => p.name === 'jobPerItemNotice');
		expect(notices.length).toBeGreaterThan(0);
		for (const notice of notices) {
			expect(notice.displayName).toContain('The editor cannot count the items here');
			expect(notice.displayName).toContain('the node waits for a free slot');
			expect(notice.displayName).not.toMatch(/\{\{/);
		}
	});
});
