// Contact roles (docs/protocol.md §5.9): the settings list on /Contacts/roles (GetContactRoles,
// CreateContactRoles, UpdateContactRoles, DeleteContactRoles, GetContactRole, UpdateContactRole,
// DeleteContactRole) and roles of contacts on a deal on /Deals/{dealId}/Contact_Roles
// (GetAllContactRolesOfDeal, GetContactRoleOfDeal, AddContactRoleToDeal, RemoveContactRoleFromDeal).
//
// A contact's role on a deal is the relation field `Contact_Role` of the Deals ↔ Contacts link that
// the related-records group keeps (the Deals "Contact Roles" list), so GetRelatedRecords on
// /Deals/{id}/Contacts shows the same contacts and roles.
import { HttpError, errorItem } from '../errors.ts';
import type { ErrorBody } from '../errors.ts';
import type { Ctx, Router } from '../router.ts';
import { operation } from '../router.ts';
import type { Sandbox } from '../types.ts';
import { eachItem, resultsReply, seedOnce, successItem, writeEach } from './shared.ts';
import type { Json, StoredRecord } from '../store.ts';
import { FIRST_PAGE, idsParam, info, listReply, wrapperList } from '../wire.ts';
import {
	deleteRelation,
	emitRelatedChange,
	getRelation,
	putRelation,
	relationsOf,
	resolveContactRole,
} from './related/shared.ts';
import type { RelationDoc } from './related/shared.ts';

/** Contact roles: CRM.modules.ALL (§2.3, **assumed**). */
const SETTINGS_SCOPES = [['CRM.modules.ALL']];
/** Deal-side operations: also CRM.modules.deals.{ACCESS} (§2.3, **assumed**). */
const DEAL_SCOPES = [['CRM.modules.deals.{ACCESS}']];

const ROLES = 'contact_roles';
const CONTACT_ROLES_WRITE_MAX = 100;
const CONTACT_ROLE_NAME_MAX = 50;
/** `ids` of DeleteContactRoles and GetAllContactRolesOfDeal (**assumed** bound). */
const CONTACT_ROLE_IDS_MAX = 100;

interface ContactRoleDoc {
	id: string;
	name: string;
	sequence_number: number;
}

const DEFAULT_ROLES = [
	'Purchasing',
	'Technical Buyer',
	'Economic Buyer',
	'Evaluator',
	'Executive Sponsor',
	'Influencer',
	'Decision Maker',
	'Other',
];

function roles(sandbox: Sandbox): ContactRoleDoc[] {
	return sandbox.store
		.docs<ContactRoleDoc>(ROLES)
		.sort((a, b) => a.sequence_number - b.sequence_number);
}

function fail(
	ctx: Ctx,
	code: string,
	apiName: string,
	index: number,
	message?: string,
	extra: Json = {},
): ErrorBody {
	const details: Json = { api_name: apiName, ...extra };
	if (ctx.v === 'v2.1') details.json_path = `$.contact_roles[${index}].${apiName}`;
	return errorItem(code, details, message);
}

/** Limit of roles in the organisation: `knobs.contactRolesMax` (default unlimited, §6 **assumed**). */
function rolesMax(sandbox: Sandbox): number {
	const value = Number(sandbox.config.knobs.contactRolesMax);
	return Number.isFinite(value) && value > 0 ? value : Number.POSITIVE_INFINITY;
}

function checkName(ctx: Ctx, name: unknown, index: number, selfId?: string): ErrorBody | undefined {
	if (typeof name !== 'string' || name.trim() === '')
		return fail(ctx, 'MANDATORY_NOT_FOUND', 'name', index);
	if (name.trim().length > CONTACT_ROLE_NAME_MAX) {
		return fail(ctx, 'INVALID_DATA', 'name', index, 'invalid data', {
			maximum_length: CONTACT_ROLE_NAME_MAX,
		});
	}
	const lower = name.trim().toLowerCase();
	const other = roles(ctx.sandbox).find((r) => r.name.toLowerCase() === lower && r.id !== selfId);
	if (other) return fail(ctx, 'DUPLICATE_DATA', 'name', index, 'duplicate data', { id: other.id });
	return undefined;
}

function checkSequence(ctx: Ctx, value: unknown, index: number): ErrorBody | undefined {
	if (value === undefined) return undefined;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
		return fail(ctx, 'INVALID_DATA', 'sequence_number', index, 'invalid data', {
			expected_data_type: 'integer',
		});
	}
	return undefined;
}

/** Clears a deleted role from every deal–contact link that carried it. */
function clearRole(sandbox: Sandbox, roleId: string): void {
	for (const doc of sandbox.store.docs<RelationDoc>('relations')) {
		const role = doc.fields.Contact_Role as Json | null | undefined;
		if (role && role.id === roleId)
			sandbox.store.putDoc('relations', doc.id, {
				...doc,
				fields: { ...doc.fields, Contact_Role: null },
			});
	}
}

const settingsOpts = { scopes: SETTINGS_SCOPES };
const dealOpts = { scopes: DEAL_SCOPES };

function createOne(ctx: Ctx, item: unknown, index: number): Json | ErrorBody {
	const { sandbox } = ctx;
	const { store } = sandbox;
	if (!item || typeof item !== 'object' || Array.isArray(item))
		return errorItem('INVALID_DATA', {}, 'invalid data');
	const input = item as Json;
	const problem =
		checkName(ctx, input.name, index) ?? checkSequence(ctx, input.sequence_number, index);
	if (problem) return problem;
	const all = roles(sandbox);
	if (all.length >= rolesMax(sandbox)) {
		return errorItem(
			'LIMIT_EXCEEDED',
			{ limit: rolesMax(sandbox), api_name: 'contact_roles' },
			'the limit has been exceeded',
		);
	}
	const doc: ContactRoleDoc = {
		id: store.nextId(),
		name: String(input.name).trim(),
		sequence_number:
			(input.sequence_number as number | undefined) ??
			all.reduce((m, r) => Math.max(m, r.sequence_number), 0) + 1,
	};
	store.putDoc(ROLES, doc.id, doc);
	return successItem(doc.id, 'contact role added');
}

function updateOne(ctx: Ctx, item: unknown, index: number, pathId?: string): Json | ErrorBody {
	const { store } = ctx.sandbox;
	if (!item || typeof item !== 'object' || Array.isArray(item))
		return errorItem('INVALID_DATA', {}, 'invalid data');
	const input = item as Json;
	const id = pathId ?? (input.id === undefined || input.id === null ? undefined : String(input.id));
	if (!id) return fail(ctx, 'MANDATORY_NOT_FOUND', 'id', index);
	const existing = store.doc<ContactRoleDoc>(ROLES, id);
	if (!existing) return errorItem('INVALID_DATA', { id }, 'the id given seems to be invalid');
	const problem =
		(input.name !== undefined ? checkName(ctx, input.name, index, id) : undefined) ??
		checkSequence(ctx, input.sequence_number, index);
	if (problem) return problem;
	const updated: ContactRoleDoc = {
		...existing,
		name: input.name !== undefined ? String(input.name).trim() : existing.name,
		sequence_number: (input.sequence_number as number | undefined) ?? existing.sequence_number,
	};
	store.putDoc(ROLES, id, updated);
	if (updated.name !== existing.name) {
		for (const doc of store.docs<RelationDoc>('relations')) {
			const role = doc.fields.Contact_Role as Json | null | undefined;
			if (role && role.id === id)
				store.putDoc('relations', doc.id, {
					...doc,
					fields: { ...doc.fields, Contact_Role: { id, name: updated.name } },
				});
		}
	}
	return successItem(id, 'contact role updated');
}

function deleteOne(sandbox: Sandbox, id: string): Json | ErrorBody {
	const { store } = sandbox;
	if (!store.doc<ContactRoleDoc>(ROLES, id))
		return errorItem('INVALID_DATA', { id }, 'the id given seems to be invalid');
	store.deleteDoc(ROLES, id);
	clearRole(sandbox, id);
	return successItem(id, 'contact role deleted');
}

// GetContactRoles
export const getContactRoles = operation('GET', '/Contacts/roles', settingsOpts, (ctx) =>
	listReply('contact_roles', roles(ctx.sandbox)),
);

// CreateContactRoles
const createContactRoles = operation('POST', '/Contacts/roles', settingsOpts, (ctx) => {
	return writeEach(ctx, 'contact_roles', CONTACT_ROLES_WRITE_MAX, 201, (item, index) =>
		createOne(ctx, item, index),
	);
});

// UpdateContactRoles
const updateContactRoles = operation('PUT', '/Contacts/roles', settingsOpts, (ctx) => {
	return writeEach(ctx, 'contact_roles', CONTACT_ROLES_WRITE_MAX, 200, (item, index) =>
		updateOne(ctx, item, index),
	);
});

// DeleteContactRoles: `ids` required in v2.1, optional in v2 (nothing to delete then)
const deleteContactRoles = operation('DELETE', '/Contacts/roles', settingsOpts, (ctx) => {
	const ids = idsParam(ctx, 'ids', CONTACT_ROLE_IDS_MAX, ctx.v === 'v2.1');
	if (!ids) return { status: 204 };
	return resultsReply(
		'contact_roles',
		200,
		eachItem(ctx, ids, (id) => deleteOne(ctx.sandbox, id)),
	);
});

// GetContactRole
const getContactRole = operation('GET', '/Contacts/roles/:id', settingsOpts, (ctx) => {
	const { store } = ctx.sandbox;
	const role = store.doc<ContactRoleDoc>(ROLES, ctx.params.id);
	return role ? { body: { contact_roles: [role] } } : { status: 204 };
});

// UpdateContactRole
const updateContactRole = operation('PUT', '/Contacts/roles/:id', settingsOpts, (ctx) => {
	return writeEach(ctx, 'contact_roles', CONTACT_ROLES_WRITE_MAX, 200, (item, index) =>
		updateOne(ctx, item, index, ctx.params.id),
	);
});

// DeleteContactRole
const deleteContactRole = operation('DELETE', '/Contacts/roles/:id', settingsOpts, (ctx) => {
	const { store } = ctx.sandbox;
	const result = store.transaction(() => deleteOne(ctx.sandbox, ctx.params.id));
	return resultsReply('contact_roles', 200, [result]);
});

// ---- roles of contacts on a deal --------------------------------------------------------

const dealOf = (ctx: Ctx): StoredRecord | undefined =>
	ctx.sandbox.store.getRecord('Deals', ctx.params.dealId);
const contactJson = (contact: StoredRecord, doc: RelationDoc): Json => ({
	...contact,
	Contact_Role: doc.fields.Contact_Role ?? null,
});

// GetAllContactRolesOfDeal: `ids` (contact ids) required in v2.1, optional in v2
const getAllContactRolesOfDeal = operation(
	'GET',
	'/Deals/:dealId/Contact_Roles',
	dealOpts,
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const ids = idsParam(ctx, 'ids', CONTACT_ROLE_IDS_MAX, ctx.v === 'v2.1');
		const deal = dealOf(ctx);
		if (!deal) return { status: 204 };
		const wanted = ids ? new Set(ids) : undefined;
		const data: Json[] = [];
		for (const { other, doc } of relationsOf(
			sandbox,
			{ module: 'Deals', id: deal.id },
			'Contacts',
		)) {
			if (wanted && !wanted.has(other.id)) continue;
			const contact = store.getRecord('Contacts', other.id);
			if (contact) data.push(contactJson(contact, doc));
		}
		if (data.length === 0) return { status: 204 };
		return { body: { data, info: info(FIRST_PAGE, data.length, false) } };
	},
);

// GetContactRoleOfDeal
const getContactRoleOfDeal = operation(
	'GET',
	'/Deals/:dealId/Contact_Roles/:contactId',
	dealOpts,
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const deal = dealOf(ctx);
		const contact = store.getRecord('Contacts', ctx.params.contactId);
		if (!deal || !contact) return { status: 204 };
		const doc = getRelation(
			sandbox,
			{ module: 'Deals', id: deal.id },
			{ module: 'Contacts', id: contact.id },
		);
		if (!doc) return { status: 204 };
		return { body: { data: [contactJson(contact, doc)], info: info(FIRST_PAGE, 1, false) } };
	},
);

/**
 * A change of one contact's role on a deal: 400 for an unknown deal, the change in a transaction,
 * its one result item. `readsItem`: the body's one `data` item is read (and checked) first.
 */
function dealRoleChange(
	method: 'PUT' | 'DELETE',
	readsItem: boolean,
	change: (ctx: Ctx, deal: StoredRecord, item: unknown) => Json | ErrorBody,
) {
	return operation(method, '/Deals/:dealId/Contact_Roles/:contactId', dealOpts, (ctx) => {
		const item = readsItem ? wrapperList(ctx, 'data', 1)[0] : undefined;
		const deal = dealOf(ctx);
		if (!deal)
			throw HttpError.invalidData({ id: ctx.params.dealId }, 'the id given seems to be invalid');
		const result = ctx.sandbox.store.transaction(() => change(ctx, deal, item));
		return resultsReply('data', 200, [result]);
	});
}

// AddContactRoleToDeal: exactly one item {Contact_Role: role id or name}
const addContactRoleToDeal = dealRoleChange('PUT', true, (ctx, deal, item) => {
	const { sandbox } = ctx;
	const contact = sandbox.store.getRecord('Contacts', ctx.params.contactId);
	if (!contact)
		return errorItem(
			'INVALID_DATA',
			{ id: ctx.params.contactId },
			'the id given seems to be invalid',
		);
	const value =
		item && typeof item === 'object' && !Array.isArray(item)
			? (item as Json).Contact_Role
			: undefined;
	const details = (apiName: string): Json =>
		ctx.v === 'v2.1'
			? { api_name: apiName, json_path: `$.data[0].${apiName}` }
			: { api_name: apiName };
	if (value === undefined || value === null || value === '')
		return errorItem('MANDATORY_NOT_FOUND', details('Contact_Role'));
	const role = resolveContactRole(sandbox, value);
	if (!role)
		return errorItem(
			'INVALID_DATA',
			details('Contact_Role'),
			'the contact role given seems to be invalid',
		);
	const { created } = putRelation(
		sandbox,
		{ module: 'Deals', id: deal.id },
		{ module: 'Contacts', id: contact.id },
		{ Contact_Role: role },
	);
	emitRelatedChange(sandbox, { module: 'Deals', id: deal.id }, 'Contacts', ctx.v);
	return successItem(contact.id, created ? 'relation added' : 'relation updated');
});

// RemoveContactRoleFromDeal
const removeContactRoleFromDeal = dealRoleChange('DELETE', false, (ctx, deal) => {
	const ends = [
		{ module: 'Deals', id: deal.id },
		{ module: 'Contacts', id: ctx.params.contactId },
	] as const;
	if (!deleteRelation(ctx.sandbox, ends[0], ends[1])) {
		return errorItem(
			'INVALID_DATA',
			{ id: ctx.params.contactId },
			'the contact has no role on the deal',
		);
	}
	emitRelatedChange(ctx.sandbox, ends[0], 'Contacts', ctx.v);
	return successItem(ctx.params.contactId, 'relation removed');
});

export function registerContactRoles(router: Router, sandbox: Sandbox): void {
	const { store } = sandbox;
	seedOnce(sandbox, 'contact_roles', () => {
		DEFAULT_ROLES.forEach((name, i) => {
			const id = store.nextId();
			store.putDoc(ROLES, id, { id, name, sequence_number: i + 1 });
		});
	});
	router.register([
		getContactRoles,
		createContactRoles,
		updateContactRoles,
		deleteContactRoles,
		getContactRole,
		updateContactRole,
		deleteContactRole,
		getAllContactRolesOfDeal,
		getContactRoleOfDeal,
		addContactRoleToDeal,
		removeContactRoleFromDeal,
	]);
}
