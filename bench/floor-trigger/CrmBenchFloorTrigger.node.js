// Bench only, never shipped (bench row P6, docs/contributing.md "Benchmarks"): the floor any
// community webhook trigger pays in n8n. A trigger node of a custom package with the CRM credential
// attached, whose webhook() returns the delivery's body as the CRM Trigger's items are shaped (one
// per record id, with the delivery's module, operation and time), so that the nodes after it have
// the same number of items to work on: no check, no CRM call, no credential read. n8n gives it what
// it gives the CRM Trigger and not its own Webhook node: an expression isolate for the start node,
// and the credential permission check of the workflow.
'use strict';

class CrmBenchFloorTrigger {
	constructor() {
		this.description = {
			displayName: 'CRM Bench Floor Trigger',
			name: 'crmBenchFloorTrigger',
			group: ['trigger'],
			version: 1,
			description: 'Bench floor: answers a POST with its body as one item',
			defaults: { name: 'Floor Trigger' },
			inputs: [],
			outputs: ['main'],
			credentials: [{ name: 'crmOAuth2Api', required: true }],
			webhooks: [
				{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
			],
			properties: [],
		};
	}

	async webhook() {
		const body = this.getBodyData();
		const ids = Array.isArray(body.ids) ? body.ids : [];
		const items = ids.map((id) => ({
			module: body.module,
			operation: body.operation,
			id: String(id),
			server_time: body.server_time,
			affected_fields: body.affected_fields,
		}));
		return { workflowData: [this.helpers.returnJsonArray(items)] };
	}
}

module.exports = { CrmBenchFloorTrigger };
