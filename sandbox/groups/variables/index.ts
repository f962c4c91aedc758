// Variables and variable groups (docs/protocol.md §5.9): GetVariableGroups, GetVariableGroupById
// (and GetVariableGroupByAPIName), GetVariables, CreateVariables, UpdateVariables, DeleteVariables,
// GetVariableByID (and GetVariableForAPIName), UpdateVariableById (and UpdateVariableByAPIName),
// DeleteVariable, one file each. An all-digit path segment is an id, anything else an API name
// (§3.10). Values are checked and normalised by the variable's `type`; API names are unique in the
// organisation. v2.1 adds `source`. Codes of the variables group only (§11):
// UNABLE_TO_PARSE_DATA_TYPE, REQUIRED_PARAM_MISSING, DUPLICATE_DATA, INVALID_DATA.
// Helpers, the seed and the value checks in shared.ts.
import type { Router } from '../../router.ts';
import type { Sandbox } from '../../types.ts';
import { seedOnce } from '../shared.ts';
import { createVariables } from './create-variables.ts';
import { deleteVariable } from './delete-variable.ts';
import { deleteVariables } from './delete-variables.ts';
import { getVariableByID } from './get-variable-by-id.ts';
import { getVariableGroupById } from './get-variable-group-by-id.ts';
import { getVariableGroups } from './get-variable-groups.ts';
import { getVariables } from './get-variables.ts';
import { seedVariables } from './shared.ts';
import { updateVariableById } from './update-variable-by-id.ts';
import { updateVariables } from './update-variables.ts';

export function registerVariables(router: Router, sandbox: Sandbox): void {
	seedOnce(sandbox, 'variables', seedVariables);
	router.register([
		getVariableGroups,
		getVariableGroupById,
		getVariables,
		getVariableByID,
		createVariables,
		updateVariables,
		updateVariableById,
		deleteVariables,
		deleteVariable,
	]);
}
