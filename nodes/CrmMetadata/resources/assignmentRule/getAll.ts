import { settingsListOperation } from '../shared';

/** GetAssignmentRules — GET /crm/{v}/settings/automation/assignment_rules (v2.1 only) */
export const { operation, returns, description } = settingsListOperation({
	resource: 'assignmentRule',
	things: 'assignment rules',
	url: '/settings/automation/assignment_rules',
	rootProperty: 'assignment_rules',
	description: 'List the assignment rules of every module',
	v21Only: 'Assignment Rule → Get Many (GetAssignmentRules)',
	returns: 'one item per assignment rule, with its id, name, module and default assignee',
	properties: [],
});
