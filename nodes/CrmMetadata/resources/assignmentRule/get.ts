import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../../shared/descriptions';
import { requireV21 } from '../../../shared/transport';
import { idOptions } from '../common';

/** GetAssignmentRule — GET /crm/{v}/settings/automation/assignment_rules/{ruleId}?module= (v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get an assignment rule',
	description: 'Retrieve one assignment rule of a module; API v2.1 only (GetAssignmentRule)',
	routing: {
		request: { method: 'GET', url: '=/settings/automation/assignment_rules/{{ toPathSegment($parameter.ruleId) }}' },
		send: { preSend: [requireV21('Assignment Rule → Get (GetAssignmentRule)')] },
	},
};

const properties: INodeProperties[] = [
	{ ...moduleSelect, routing: { send: { type: 'query', property: 'module' } } },
	idOptions('Assignment Rule Name or ID', 'ruleId', 'getAssignmentRules', ['module'], 'Assignment rule to retrieve'),
];

export const description = updateDisplayOptions({ show: { resource: ['assignmentRule'], operation: ['get'] } }, properties);
