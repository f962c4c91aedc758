import { deleteByIds } from '../shared';
import { contactRoleIdField, contactRoleList } from './shared';
import { writeOperation } from '../../../shared/description/nodeDescription';

/** DeleteContactRoles — DELETE /crm/{v}/Contacts/roles?ids=…, up to 100 IDs per request (custom operation) */
export const { operation, returns, description, execute } = writeOperation('delete', {
	resource: 'contactRole',
	thing: 'contact role',
	description: 'Delete contact roles',
	properties: [contactRoleIdField],
	async execute() {
		return await deleteByIds.call(this, contactRoleList);
	},
});
