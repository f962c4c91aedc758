import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { crmRouting, noneWithId, requireV21 } from '../../../shared/transport';
import { idOptions, moduleQueryField } from '../shared';

/** GetAssignmentRule — GET /crm/{v}/settings/automation/assignment_rules/{ruleId}?module= (v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get an assignment rule',
	description: 'Retrieve one assignment rule of a module',
	routing: crmRouting(
		{
			request: {
				method: 'GET',
				url: '=/settings/automation/assignment_rules/{{ toPathSegment($parameter.ruleId) }}',
			},
			send: { preSend: [requireV21('Assignment Rule → Get (GetAssignmentRule)')] },
		},
		{ rootProperty: 'assignment_rules', notFound: noneWithId('assignment rule', 'ruleId') },
	),
};

export const returns =
	'the assignment rule with its id, name, module and default assignee (an error when no rule has the ID)';

const properties: INodeProperties[] = [
	moduleQueryField,
	idOptions(
		'Assignment Rule Name or ID',
		'ruleId',
		'getAssignmentRules',
		['module'],
		'Assignment rule to retrieve',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['assignmentRule'], operation: ['get'] } },
	properties,
);
