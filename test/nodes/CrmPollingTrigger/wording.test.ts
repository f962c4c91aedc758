// The CRM Polling Trigger's words as n8n shows them: the notice points at the schedule where n8n
// puts it (its Poll Times above every field of the node), and the node panel, which drops
// " Trigger" from a trigger with events, shows the name the node takes on the canvas.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { DirectoryLoader } from 'n8n-core';
import type { INodeType } from 'n8n-workflow';

import { CrmPollingTrigger } from '../../../nodes/CrmPollingTrigger/CrmPollingTrigger.node';

describe('CRM Polling Trigger › wording', () => {
	test('the notice says the schedule is above: n8n puts Poll Times first', () => {
		const node: INodeType = new CrmPollingTrigger();
		// what n8n's loader does to a polling node's fields
		const loader = DirectoryLoader.prototype as unknown as {
			applySpecialNodeParameters(nodeType: INodeType): void;
		};
		loader.applySpecialNodeParameters.call(Object.create(DirectoryLoader.prototype), node);
		const names = node.description.properties.map((p) => p.name);
		expect(names.indexOf('pollTimes')).toBe(0);
		const notice = node.description.properties.find((p) => p.name === 'notice')!;
		expect(names.indexOf('notice')).toBeGreaterThan(names.indexOf('pollTimes'));
		expect(notice.displayName).toContain('on the schedule above (Poll Times)');
		expect(notice.displayName).not.toContain('below');
	});

	test('one name: the node panel (displayName without " Trigger") and the canvas (defaults) agree; the codex finds the full name', () => {
		const { description } = new CrmPollingTrigger();
		const panelName = description.displayName.replace(' Trigger', '');
		expect(panelName).toBe('CRM Polling');
		expect(description.defaults.name).toBe(panelName);
		const codex = JSON.parse(
			readFileSync(
				path.resolve(__dirname, '../../../nodes/CrmPollingTrigger/CrmPollingTrigger.node.json'),
				'utf8',
			),
		) as { node: string; alias: string[] };
		expect(codex.node).toBe('n8n-nodes-crm-service.crmPollingTrigger');
		expect(codex.alias).toContain(description.displayName);
	});
});
