import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { crmApiRequest } from '../shared/transport';

/** Standard modules a watch channel accepts (docs/protocol.md §9.1); custom modules are watchable too. */
export const WATCHABLE_STANDARD_MODULES = [
	'Leads',
	'Accounts',
	'Contacts',
	'Deals',
	'Campaigns',
	'Tasks',
	'Cases',
	'Events',
	'Calls',
	'Solutions',
	'Products',
	'Vendors',
	'Price_Books',
	'Quotes',
	'Sales_Orders',
	'Purchase_Orders',
	'Invoices',
	'Appointments',
	'Services',
];

/** Watchable modules of the connected CRM (standard and custom), from GetModules. */
export async function getWatchableModules(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const { modules = [] } = (await crmApiRequest.call(this, { method: 'GET', path: '/settings/modules' })) as {
		modules?: IDataObject[];
	};
	return modules
		.filter(
			(m) =>
				m.api_supported !== false &&
				(m.generated_type === 'custom' || WATCHABLE_STANDARD_MODULES.includes(m.api_name as string)),
		)
		.map((m) => ({
			name: `${m.plural_label as string}${m.generated_type === 'custom' ? ' (Custom)' : ''}`,
			value: m.api_name as string,
			description: m.api_name as string,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}
