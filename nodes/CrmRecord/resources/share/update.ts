import { shareWriteOperation } from './shared';

/** UpdateSharePermissions — PUT /crm/{v}/{module}/{recordId}/actions/share, body `share` [1..10] */
export const { operation, returns, description } = shareWriteOperation('PUT', {
	name: 'Update Permissions',
	value: 'update',
	action: 'Update the sharing permissions of a record',
	description: 'Change the permission of users a record is shared with',
});
