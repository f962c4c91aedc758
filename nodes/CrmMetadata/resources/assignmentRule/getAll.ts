import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { crmRouting, requireV21 } from '../../../shared/transport';

/** GetAssignmentRules — GET /crm/{v}/settings/automation/assignment_rules (v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many assignment rules',
	description: 'List the assignment rules of every module',
	routing: crmRouting(
		{
			request: { method: 'GET', url: '/settings/automation/assignment_rules' },
			send: { preSend: [requireV21('Assignment Rule → Get Many (GetAssignmentRules)')] },
		},
		{ rootProperty: 'assignment_rules' },
	),
};

export const returns =
	'one item per assignment rule, with its id, name, module and default assignee';

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['assignmentRule'], operation: ['getAll'] } },
	properties,
);
