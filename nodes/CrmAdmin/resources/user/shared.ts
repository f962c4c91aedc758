import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { optionsField, textField } from '../../../shared/description/collections';
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
	textField('Alias', 'alias'),
	textField('City', 'city'),
	textField('Country', 'country'),
	textField('Country Locale', 'country_locale', { placeholder: 'en_US' }),
	textField('Date Format', 'date_format', { placeholder: 'MM-dd-yyyy' }),
	textField('Date of Birth', 'dob', {
		placeholder: '1990-05-31',
		description: 'Date in yyyy-MM-dd form',
	}),
	textField('Fax', 'fax'),
	textField('First Name', 'first_name'),
	textField('Language', 'language', { placeholder: 'en_US' }),
	textField('Locale', 'locale', { placeholder: 'en_US' }),
	textField('Mobile', 'mobile'),
	textField('Phone', 'phone'),
	{
		displayName: 'Reporting To Name or ID',
		name: 'Reporting_To',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getUsers' },
		default: '',
		description:
			'User this user reports to. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	textField('State', 'state'),
	textField('Street', 'street'),
	textField('Time Format', 'time_format', { placeholder: 'hh:mm a' }),
	textField('Time Zone', 'time_zone', {
		placeholder: 'Europe/Berlin',
		description: 'IANA time zone. Only a user may change their own time zone.',
	}),
	textField('Website', 'website'),
	textField('Zip', 'zip'),
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
	textField('Last Name', 'last_name'),
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
