// Load options for the data hanging off records: related lists of a module (GetRelatedLists), tags
// of a module (GetTags) and the organisation's contact roles (GetContactRoles).
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { pickedValue } from '../description/properties';
import { crmRequestList } from '../transport';
import { byName } from './loadOptions';

/** Related lists of the chosen module (GetRelatedLists), attachments left out (own resource). */
export async function getRelatedLists(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const module = pickedValue(this, 'module') || undefined;
	if (!module) return [];
	const lists = await crmRequestList(this, '/settings/related_lists', 'related_lists', { module });
	return lists
		.filter((l) => l.module !== 'Attachments')
		.map((l) => ({
			name: String(l.display_label ?? l.api_name),
			value: String(l.api_name),
			description: `${String(l.api_name)} (records of ${String(l.module)})`,
		}))
		.sort(byName);
}

/** Tags of the chosen module (GetTags). */
export async function getTags(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const module = pickedValue(this, 'module') || undefined;
	if (!module) return [];
	const tags = await crmRequestList(this, '/settings/tags', 'tags', { module });
	return tags.map((t) => ({ name: String(t.name), value: String(t.id) })).sort(byName);
}

/** Contact roles of the organisation (GetContactRoles), in their sequence. */
export async function getContactRoles(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const roles = await crmRequestList(this, '/Contacts/roles', 'contact_roles');
	return roles.map((r) => ({ name: String(r.name), value: String(r.id) }));
}

export const recordRelationLoadOptions = { getRelatedLists, getTags, getContactRoles };
