import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { optionsField } from '../../../shared/description/collections';
import { collectionValues, lookup } from '../shared';

/** The user ID parameter of get, update and delete. */
export const userIdField: INodeProperties = {
	displayName: 'User ID',
	name: 'userId',
	type: 'string',
	default: '',
	required: true,
	placeholder: '4876876000000225013',
	description: 'Numeric ID of the user',
};

/** Optional user fields shared by create (Additional Fields) and update (Update Fields). */
export const userOptionalFields: INodeProperties[] = [
	{ displayName: 'Alias', name: 'alias', type: 'string', default: '' },
	{ displayName: 'City', name: 'city', type: 'string', default: '' },
	{ displayName: 'Country', name: 'country', type: 'string', default: '' },
	{
		displayName: 'Country Locale',
		name: 'country_locale',
		type: 'string',
		default: '',
		placeholder: 'en_US',
	},
	{
		displayName: 'Date Format',
		name: 'date_format',
		type: 'string',
		default: '',
		placeholder: 'MM-dd-yyyy',
	},
	{
		displayName: 'Date of Birth',
		name: 'dob',
		type: 'string',
		default: '',
		placeholder: '1990-05-31',
		description: 'Date in yyyy-MM-dd form',
	},
	{ displayName: 'Fax', name: 'fax', type: 'string', default: '' },
	{ displayName: 'First Name', name: 'first_name', type: 'string', default: '' },
	{ displayName: 'Language', name: 'language', type: 'string', default: '', placeholder: 'en_US' },
	{ displayName: 'Locale', name: 'locale', type: 'string', default: '', placeholder: 'en_US' },
	{ displayName: 'Mobile', name: 'mobile', type: 'string', default: '' },
	{ displayName: 'Phone', name: 'phone', type: 'string', default: '' },
	{
		displayName: 'Reporting To Name or ID',
		name: 'Reporting_To',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getUsers' },
		default: '',
		description:
			'User this user reports to. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{ displayName: 'State', name: 'state', type: 'string', default: '' },
	{ displayName: 'Street', name: 'street', type: 'string', default: '' },
	{
		displayName: 'Time Format',
		name: 'time_format',
		type: 'string',
		default: '',
		placeholder: 'hh:mm a',
	},
	{
		displayName: 'Time Zone',
		name: 'time_zone',
		type: 'string',
		default: '',
		placeholder: 'Europe/Berlin',
		description: 'IANA time zone. Only a user may change their own time zone.',
	},
	{ displayName: 'Website', name: 'website', type: 'string', default: '' },
	{ displayName: 'Zip', name: 'zip', type: 'string', default: '' },
];

/** Fields only an update sets (create takes them as required parameters). */
export const userUpdateOnlyFields: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: "A confirmed user's email cannot be changed",
	},
	{ displayName: 'Last Name', name: 'last_name', type: 'string', default: '' },
	{
		displayName: 'Profile Name or ID',
		name: 'profile',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getProfiles' },
		default: '',
		description:
			'Profile of the user. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Role Name or ID',
		name: 'role',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getRoles' },
		default: '',
		description:
			'Role of the user. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	optionsField('Status', 'status', { Active: 'active', Deactivated: 'disabled' }, 'active', {
		description: 'Activate (uses a licence) or deactivate the user',
	}),
];

/** A user item on the wire from collection values: role, profile and Reporting_To as `{ id }` lookups. */
export function userBody(values: IDataObject): IDataObject {
	const body = collectionValues(values);
	for (const key of ['role', 'profile', 'Reporting_To']) {
		if (body[key] !== undefined) body[key] = lookup(body[key]);
	}
	for (const key of ['first_name', 'last_name', 'email']) {
		if (typeof body[key] === 'string') body[key] = (body[key] as string).trim();
	}
	return body;
}
