import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getByIdOption } from '../../../shared/description/getById';
import { idOptions, moduleQueryField } from '../shared';

/** GetAssignmentRule — GET /crm/{v}/settings/automation/assignment_rules/{ruleId}?module= (v2.1 only) */
export const operation = getByIdOption({
	thing: 'assignment rule',
	path: '/settings/automation/assignment_rules',
	idParameter: 'ruleId',
	rootProperty: 'assignment_rules',
	description: 'Retrieve one assignment rule of a module',
	v21Only: 'Assignment Rule → Get (GetAssignmentRule)',
});

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
