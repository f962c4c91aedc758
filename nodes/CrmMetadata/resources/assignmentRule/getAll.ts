import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { settingsListOption } from '../shared';

/** GetAssignmentRules — GET /crm/{v}/settings/automation/assignment_rules (v2.1 only) */
export const operation = settingsListOption({
	things: 'assignment rules',
	url: '/settings/automation/assignment_rules',
	rootProperty: 'assignment_rules',
	description: 'List the assignment rules of every module',
	v21Only: 'Assignment Rule → Get Many (GetAssignmentRules)',
});

export const returns =
	'one item per assignment rule, with its id, name, module and default assignee';

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['assignmentRule'], operation: ['getAll'] } },
	properties,
);
