// Load options built on the admin reads (users, roles, profiles, territories, currencies, taxes,
// variable groups). Any node may offer them, e.g. `getUsers` for owner fields.
import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { crmRequestAllItems, crmRequestList } from '../transport';
import { byName, option } from './loadOptions';

/** Active users (GetUsers `type=ActiveUsers`, every page): for owner and user fields. */
export async function getUsers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const users = await crmRequestAllItems(this, {
		path: '/users',
		rootProperty: 'users',
		qs: { type: 'ActiveUsers' },
	});
	return users
		.map((u) => ({
			name: String(u.full_name ?? u.email ?? u.id),
			value: String(u.id),
			description: String(u.email ?? ''),
		}))
		.sort(byName);
}

/** Roles (GetRoles), with the role each reports to. */
export async function getRoles(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const roles = await crmRequestList(this, '/settings/roles', 'roles');
	return roles
		.map((r) => {
			const reportsTo = (r.reporting_to as IDataObject | null)?.name;
			return {
				name: String(r.display_label ?? r.name),
				value: String(r.id),
				description: reportsTo ? `Reports to ${String(reportsTo)}` : 'Top of the hierarchy',
			};
		})
		.sort(byName);
}

/** Profiles (GetProfiles). */
export async function getProfiles(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const profiles = await crmRequestList(this, '/settings/profiles', 'profiles');
	return profiles
		.map((p) => ({
			name: String(p.display_label ?? p.name),
			value: String(p.id),
			description: String(p.description ?? ''),
		}))
		.sort(byName);
}

/** Territories (GetTerritories). */
export async function getTerritories(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const territories = await crmRequestList(this, '/settings/territories', 'territories');
	return territories
		.map((t) => ({
			name: String(t.name),
			value: String(t.id),
			description: String(t.description ?? ''),
		}))
		.sort(byName);
}

/** Currencies of the organisation (GetCurrencies). */
export async function getCurrencies(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const currencies = await crmRequestList(this, '/org/currencies', 'currencies');
	return currencies
		.map((c) => ({
			name: `${String(c.name)} (${String(c.iso_code)})${c.is_base ? ' - Base' : ''}`,
			value: String(c.id),
			description: c.is_active === false ? 'Inactive' : `Exchange rate ${String(c.exchange_rate)}`,
		}))
		.sort(byName);
}

/** Taxes of the organisation (GetTaxes). */
export async function getTaxes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const taxes = await crmRequestList(this, '/org/taxes', 'taxes');
	return taxes
		.map((t) => ({ name: String(t.display_label ?? t.name), value: String(t.id) }))
		.sort(byName);
}

/** Variable groups (GetVariableGroups). */
export async function getVariableGroups(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const groups = await crmRequestList(this, '/settings/variable_groups', 'variable_groups');
	return groups
		.map((g) => option(String(g.display_label ?? g.name), String(g.id), String(g.api_name ?? '')))
		.sort(byName);
}

export const adminLoadOptions = {
	getUsers,
	getRoles,
	getProfiles,
	getTerritories,
	getCurrencies,
	getTaxes,
	getVariableGroups,
};
