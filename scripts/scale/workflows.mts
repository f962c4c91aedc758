// The workflows of the scale run (deal stage, new leads, polling, the bench's floors) and the
// credential's scopes.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';

import { REPO, nodeType } from '../n8n-runtime.mts';
import { FLOOR_PATH } from './bench-trigger.mts';
import {
	BENCH,
	CATCH_UP_MINUTES,
	CREDENTIAL,
	FLOOR_TRIGGER_WEBHOOK_ID,
	LEAD_NOTE,
	POLL_CREDENTIAL,
	WF,
} from './options.mts';
import { pollingWorkflow } from './polling.mts';

// ---- workflows ------------------------------------------------------------------------------------

/** The deals workflow's Filter and Set: the same nodes after the CRM Trigger and after the floor's Webhook (P6). */
export function stageNodes(): Array<Record<string, unknown>> {
	return [
		{
			id: randomUUID(),
			name: 'Stage changed?',
			type: 'n8n-nodes-base.filter',
			typeVersion: 2.2,
			position: [220, 0],
			parameters: {
				conditions: {
					options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
					conditions: [
						{
							id: 'd1',
							leftValue: "={{ ($json.affected_fields || []).includes('Stage') }}",
							rightValue: '',
							operator: { type: 'boolean', operation: 'true', singleValue: true },
						},
					],
					combinator: 'and',
				},
				looseTypeValidation: true,
				options: {},
			},
		},
		{
			id: randomUUID(),
			name: 'Stage change',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [440, 0],
			parameters: {
				mode: 'manual',
				includeOtherFields: false,
				assignments: {
					assignments: [
						{ id: 'e1', name: 'deal_id', value: '={{ $json.id }}', type: 'string' },
						{
							id: 'e2',
							name: 'new_stage',
							value: '={{ $json.affected_values?.Stage ?? $json.record?.Stage }}',
							type: 'string',
						},
						{
							id: 'e3',
							name: 'modified',
							value: '={{ $json.record?.Modified_Time }}',
							type: 'string',
						},
					],
				},
				options: {},
			},
		},
	];
}

export function stageConnections(trigger: string): Record<string, unknown> {
	return {
		[trigger]: { main: [[{ node: 'Stage changed?', type: 'main', index: 0 }]] },
		'Stage changed?': { main: [[{ node: 'Stage change', type: 'main', index: 0 }]] },
	};
}

export function workflows(): Array<Record<string, unknown>> {
	const credentials = { crmOAuth2Api: CREDENTIAL };
	const trigger = (id: string, modules: string[], events: string[]) => ({
		id: randomUUID(),
		name: 'CRM Trigger',
		type: nodeType('crmTrigger'),
		typeVersion: 1,
		position: [0, 0],
		webhookId: id,
		parameters: {
			modules,
			events,
			output: 'records',
			options: { includeAffected: true, catchUpMinutes: CATCH_UP_MINUTES },
		},
		credentials,
	});
	const deals = {
		id: WF.deals.id,
		name: WF.deals.name,
		nodes: [trigger(randomUUID(), ['Deals'], ['edit']), ...stageNodes()],
		connections: stageConnections('CRM Trigger'),
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
	if (BENCH) {
		// n8n's floor for P6: a Webhook node that answers at once (docs/protocol.md §9.4 bodies, as the CRM sends them)
		const floor = {
			id: WF.floor.id,
			name: WF.floor.name,
			nodes: [
				{
					id: randomUUID(),
					name: WF.floor.trigger,
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: randomUUID(),
					parameters: {
						httpMethod: 'POST',
						path: FLOOR_PATH,
						responseMode: 'onReceived',
						options: {},
					},
				},
				...stageNodes(),
			],
			connections: stageConnections(WF.floor.trigger),
			settings: { executionOrder: 'v1' },
			active: false,
			pinData: {},
		};
		const floorTrigger = {
			id: WF.floorTrigger.id,
			name: WF.floorTrigger.name,
			nodes: [
				{
					id: randomUUID(),
					name: WF.floorTrigger.trigger,
					type: 'CUSTOM.crmBenchFloorTrigger',
					typeVersion: 1,
					position: [0, 0],
					webhookId: FLOOR_TRIGGER_WEBHOOK_ID,
					parameters: {},
					credentials,
				},
				...stageNodes(),
			],
			connections: stageConnections(WF.floorTrigger.trigger),
			settings: { executionOrder: 'v1' },
			active: false,
			pinData: {},
		};
		return [deals, floor, floorTrigger];
	}
	return [
		deals,
		{
			id: WF.leads.id,
			name: WF.leads.name,
			nodes: [
				trigger(randomUUID(), ['Leads'], ['create']),
				{
					id: randomUUID(),
					name: 'Update lead',
					type: nodeType('crmRecord'),
					typeVersion: 1,
					position: [220, 0],
					parameters: {
						resource: 'record',
						operation: 'update',
						module: 'Leads',
						fieldsMode: 'json',
						updateBy: 'id',
						recordId: '={{ $json.id }}',
						recordJson: `={{ JSON.stringify({ Description: '${LEAD_NOTE}' + $json.record.Last_Name, Lead_Status: 'Contacted' }) }}`,
					},
					credentials,
				},
			],
			connections: { 'CRM Trigger': { main: [[{ node: 'Update lead', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
			active: false,
			pinData: {},
		},
		pollingWorkflow({
			...WF.polling,
			nodeType: nodeType('crmPollingTrigger'),
			credentials: { crmOAuth2Api: POLL_CREDENTIAL },
		}),
	];
}

export function credentialScopes(): string {
	try {
		const req = createRequire(path.join(REPO, 'package.json'));
		const mod = req(path.join(REPO, 'dist', 'credentials', 'CrmOAuth2Api.credentials.js')) as {
			DEFAULT_SCOPES?: string[];
		};
		if (Array.isArray(mod.DEFAULT_SCOPES)) return mod.DEFAULT_SCOPES.join(',');
	} catch {
		// fall back to what the two workflows need
	}
	return 'CRM.modules.ALL,CRM.settings.ALL,CRM.notifications.ALL,CRM.users.ALL,CRM.org.ALL';
}
