// What an AI agent's model reads about a CRM node used as a tool. With "Tool Description: Set
// Automatically" n8n (n8n-workflow NodeHelpers.getToolDescriptionForNode) sends
// "<operation action> in <node default name>"; the operation's own `description` never reaches the
// model. So every operation needs an `action` that reads as a short sentence (the e2e step
// scripts/e2e/agent-tool.mts sees the same text arrive at a chat model).
import type { INode, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { packageNodeTypes } from '../harness/crm';

const tools = Object.entries(packageNodeTypes()).filter(([, type]) => type.description.usableAsTool);

function operations(properties: INodeProperties[]): Array<{ resource: string; operation: INodePropertyOptions }> {
	const out: Array<{ resource: string; operation: INodePropertyOptions }> = [];
	for (const p of properties) {
		if (p.name !== 'operation') continue;
		for (const resource of (p.displayOptions?.show?.resource ?? []) as string[]) {
			for (const operation of (p.options ?? []) as INodePropertyOptions[]) out.push({ resource, operation });
		}
	}
	return out;
}

describe('tool descriptions the model reads', () => {
	test('every action node is usable as a tool', () => {
		expect(tools.map(([name]) => name.split('.').pop())).toEqual(
			expect.arrayContaining(['crmRecord', 'crmQuery', 'crmMail', 'crmAdmin', 'crmBulk', 'crmMetadata', 'crmNotification']),
		);
	});

	test.each(tools)('%s: each operation is described as "<action> in <node>"', (_name, type) => {
		const ops = operations(type.description.properties);
		expect(ops.length).toBeGreaterThan(0);
		for (const { resource, operation } of ops) {
			const node = { parameters: { resource, operation: operation.value, descriptionType: 'auto' } } as unknown as INode;
			const text = NodeHelpers.getToolDescriptionForNode(node, type);
			const where = `${resource}.${String(operation.value)}`;
			expect({ where, text }).toEqual({ where, text: `${operation.action} in ${type.description.defaults.name}` });
			// a short sentence in words, no API operation names or markup
			expect({ where, ok: /^[A-Z][a-z]/.test(text) && text.length <= 80 && !/[()<>_{}]/.test(text) }).toEqual({ where, ok: true });
		}
	});

	test('CRM Record → Search, as the e2e agent step sees it', () => {
		const type = packageNodeTypes()['n8n-nodes-crm-service.crmRecord'];
		const node = { parameters: { resource: 'record', operation: 'search', descriptionType: 'auto' } } as unknown as INode;
		expect(NodeHelpers.getToolDescriptionForNode(node, type)).toBe('Search records in CRM Record');
	});
});
