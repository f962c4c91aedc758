// Helpers shared by the user operations (docs/protocol.md §5.6): the `users` collection, the seed,
// the checks of a user item (applyFields) and the one-user update of UpdateUsers / UpdateUser.
import { DEMO_USERS } from '../../catalogue/org.ts';
import type { ErrorBody } from '../../errors.ts';
import { errorItem } from '../../errors.ts';
import type { Ctx } from '../../router.ts';
import type { Json } from '../../store.ts';
import { isDate, parseDateTime } from '../../time.ts';
import type { Sandbox } from '../../types.ts';
import { orgDoc } from '../org.ts';
import {
	PROFILE_STANDARD,
	ROLE_SALES_REP,
	isAdminProfile,
	profileDoc,
	roleDoc,
} from '../roles-profiles.ts';
import {
	TERRITORY_EUROPE,
	TERRITORY_GLOBAL,
	TERRITORY_NORTH_AMERICA,
	TERRITORY_TEXAS,
} from '../territories.ts';
import { isBlank, itemError } from '../shared.ts';

export const USERS = 'users';
export const USER_SCOPES = [['CRM.users.{ACCESS}']];

type UserStatus = 'active' | 'disabled' | 'deleted';

export interface UserDoc extends Json {
	id: string;
	first_name?: string;
	last_name: string;
	full_name: string;
	email: string;
	role: { id: string; name: string };
	profile: { id: string; name: string };
	status: UserStatus;
	confirm: boolean;
	time_zone: string;
	created_time: string;
	Modified_Time: string;
}

/** User keys only the v2.1 variant carries (§13). */
const V21_ONLY_KEYS = ['Isonline', 'sandboxDeveloper', 'category', 'sort_order_preference'];

/** Free-text user fields a client may set (besides the checked ones below). */
const TEXT_FIELDS = [
	'first_name',
	'country',
	'city',
	'street',
	'state',
	'zip',
	'phone',
	'mobile',
	'fax',
	'website',
	'alias',
	'signature',
	'language',
	'locale',
	'country_locale',
	'date_format',
	'time_format',
	'name_format',
	'decimal_separator',
	'Currency',
	'sort_order_preference',
];

export const USER_TYPES = [
	'AllUsers',
	'ActiveUsers',
	'DeactiveUsers',
	'ConfirmedUsers',
	'NotConfirmedUsers',
	'DeletedUsers',
	'ActiveConfirmedUsers',
	'AdminUsers',
	'ActiveConfirmedAdmins',
	'CurrentUser',
] as const;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A user invited but not yet confirmed, so every `type` filter has someone to list. */
const INVITED_USER_ID = '4876876000000225053';

export function userDocs(sandbox: Sandbox): UserDoc[] {
	return sandbox.store.docs<UserDoc>(USERS);
}

export function userJson(user: UserDoc, v: string): Json {
	// identity first, then every other key as stored
	const out: Json = {};
	for (const key of [
		'id',
		'first_name',
		'last_name',
		'full_name',
		'email',
		'role',
		'profile',
		'status',
		'confirm',
	])
		out[key] = user[key];
	Object.assign(out, user);
	if (v !== 'v2.1') for (const key of V21_ONLY_KEYS) delete out[key];
	return out;
}

function licenceLimit(sandbox: Sandbox): number {
	const license = (orgDoc(sandbox).license_details ?? {}) as Json;
	return Number(license.users_license_purchased ?? Number.MAX_SAFE_INTEGER);
}

const activeCount = (sandbox: Sandbox) =>
	userDocs(sandbox).filter((u) => u.status === 'active').length;

export function isPrimaryContact(sandbox: Sandbox, user: UserDoc): boolean {
	const primary = String(orgDoc(sandbox).primary_email ?? '').toLowerCase();
	return primary !== '' && user.email.toLowerCase() === primary;
}

export function seedUsers(sandbox: Sandbox): void {
	const time = sandbox.formatTime();
	const admin = DEMO_USERS[0];
	const by = { id: admin.id, name: admin.full_name };
	const territory = (t: { id: string; name: string }, manager: boolean) => ({
		id: t.id,
		name: t.name,
		manager,
	});
	const extras: Record<string, Json> = {
		[DEMO_USERS[0].id]: {
			city: 'Austin',
			phone: '+1 512 555 0100',
			territories: [territory(TERRITORY_GLOBAL, true)],
			Reporting_To: null,
		},
		[DEMO_USERS[1].id]: {
			city: 'Dallas',
			phone: '+1 214 555 0101',
			territories: [territory(TERRITORY_NORTH_AMERICA, true)],
		},
		[DEMO_USERS[2].id]: {
			city: 'Houston',
			mobile: '+1 713 555 0102',
			territories: [territory(TERRITORY_TEXAS, true)],
		},
		[DEMO_USERS[3].id]: {
			city: 'London',
			country: 'United Kingdom',
			time_zone: 'Europe/London',
			territories: [territory(TERRITORY_EUROPE, true)],
		},
		[DEMO_USERS[4].id]: {
			city: 'Berlin',
			country: 'Germany',
			time_zone: 'Europe/Berlin',
			territories: [],
		},
	};
	const reportsTo = (u: UserDoc) => {
		if (u.id === admin.id) return null;
		const to = u.id === DEMO_USERS[1].id ? admin : DEMO_USERS[1];
		return { id: to.id, name: to.full_name };
	};
	for (const u of userDocs(sandbox)) {
		sandbox.store.putDoc(USERS, u.id, {
			...defaults(by),
			country: 'United States',
			Reporting_To: reportsTo(u),
			...u,
			...extras[u.id],
			created_by: by,
			Modified_By: by,
		});
	}
	if (!sandbox.store.doc(USERS, INVITED_USER_ID)) {
		const invited: UserDoc = {
			...defaults(by),
			id: INVITED_USER_ID,
			first_name: 'Nina',
			last_name: 'Okafor',
			full_name: 'Nina Okafor',
			email: 'nina.okafor@sandbox.example',
			role: { ...ROLE_SALES_REP },
			profile: { ...PROFILE_STANDARD },
			status: 'active',
			confirm: false,
			time_zone: 'UTC',
			country: 'United States',
			city: 'Denver',
			territories: [],
			Reporting_To: { id: DEMO_USERS[1].id, name: DEMO_USERS[1].full_name },
			created_time: time,
			Modified_Time: time,
			created_by: by,
			Modified_By: by,
		};
		sandbox.store.putDoc(USERS, invited.id, invited);
	}
}

/** Keys every user carries (values a new user starts with). */
export function defaults(by: { id: string; name: string }): Json {
	return {
		language: 'en_US',
		locale: 'en_US',
		country_locale: 'en_US',
		date_format: 'MM-dd-yyyy',
		time_format: 'hh:mm a',
		name_format: 'Salutation,First Name,Last Name',
		decimal_separator: 'Period',
		personal_account: false,
		default_tab_group: '0',
		offset: 0,
		Isonline: false,
		sandboxDeveloper: false,
		category: 'regular_user',
		sort_order_preference: 'Last Name',
		territories: [],
		created_by: by,
		Modified_By: by,
	};
}

/** A lookup given as `"<id>"` or `{ "id": "<id>" }`. */
export function idOf(value: unknown): string | undefined {
	if (typeof value === 'string' || typeof value === 'number')
		return String(value).trim() || undefined;
	if (value && typeof value === 'object' && !Array.isArray(value)) {
		const id = (value as Json).id;
		if (typeof id === 'string' || typeof id === 'number') return String(id).trim() || undefined;
	}
	return undefined;
}

interface Check {
	ctx: Ctx;
	index: number;
}

export const fail = (
	code: string,
	apiName: string | undefined,
	c: Check,
	message?: string,
	extra: Json = {},
) => itemError(c.ctx, 'users', c.index, code, apiName, message, extra);

/**
 * Validates and applies the writable keys of one user item onto `target` (a new or an existing
 * user); answers an error item or undefined. Uniqueness is checked against `taken` (lower-case
 * e-mails of every other live user, plus those claimed earlier in the request).
 */
export function applyFields(
	sandbox: Sandbox,
	input: Json,
	target: UserDoc,
	c: Check,
	taken: Set<string>,
	creating: boolean,
): ErrorBody | undefined {
	if (creating || 'last_name' in input) {
		if (isBlank(input.last_name))
			return fail('MANDATORY_NOT_FOUND', 'last_name', c, 'required field not found');
	}
	if (creating) {
		for (const key of ['email', 'role', 'profile']) {
			if (isBlank(input[key]))
				return fail('MANDATORY_NOT_FOUND', key, c, 'required field not found');
		}
	}
	for (const key of ['last_name', ...TEXT_FIELDS]) {
		if (key in input && input[key] !== null && typeof input[key] !== 'string') {
			return fail('INVALID_DATA', key, c, 'invalid data', { expected_data_type: 'string' });
		}
	}
	if ('email' in input) {
		const email = String(input.email ?? '').trim();
		if (!creating && email.toLowerCase() !== target.email.toLowerCase() && target.confirm) {
			return fail(
				'EMAIL_UPDATE_NOT_ALLOWED',
				'email',
				c,
				'cannot update email of a confirmed user',
			);
		}
		if (!EMAIL_RE.test(email))
			return fail('PATTERN_NOT_MATCHED', 'email', c, 'the email is not in a valid format');
		if (taken.has(email.toLowerCase()))
			return fail('DUPLICATE_DATA', 'email', c, 'same email already present');
	}
	let role: UserDoc['role'] | undefined;
	if ('role' in input) {
		const r = roleDoc(sandbox, idOf(input.role) ?? '');
		if (!r) return fail('INVALID_DATA', 'role', c, 'the id given seems to be invalid');
		role = { id: r.id, name: r.name };
	}
	let profile: UserDoc['profile'] | undefined;
	if ('profile' in input) {
		const p = profileDoc(sandbox, idOf(input.profile) ?? '');
		if (!p) return fail('INVALID_DATA', 'profile', c, 'the id given seems to be invalid');
		profile = { id: p.id, name: p.name };
	}
	let reportingTo: Json | null | undefined;
	if ('Reporting_To' in input) {
		if (input.Reporting_To === null) reportingTo = null;
		else {
			const to = sandbox.store.doc<UserDoc>(USERS, idOf(input.Reporting_To) ?? '');
			if (!to || to.status === 'deleted' || to.id === target.id) {
				return fail('INVALID_DATA', 'Reporting_To', c, 'the id given seems to be invalid');
			}
			reportingTo = { id: to.id, name: to.full_name };
		}
	}
	if ('dob' in input && input.dob !== null && !isDate(input.dob)) {
		return fail('INVALID_DATA', 'dob', c, 'invalid data', { expected_data_type: 'date' });
	}
	if ('time_zone' in input) {
		if (typeof input.time_zone !== 'string' || input.time_zone.trim() === '') {
			return fail('INVALID_DATA', 'time_zone', c, 'invalid data');
		}
		const actor = sandbox.user(c.ctx);
		if (!creating && input.time_zone !== target.time_zone && actor.id !== target.id) {
			return fail('INVALID_REQUEST', 'time_zone', c, 'cannot update the time zone of another user');
		}
	}
	let status: UserStatus | undefined;
	if (!creating && 'status' in input) {
		if (input.status !== 'active' && input.status !== 'disabled')
			return fail('INVALID_DATA', 'status', c, 'invalid data');
		if (input.status === target.status) {
			return input.status === 'active'
				? fail('ID_ALREADY_ACTIVE', 'status', c, 'user already active')
				: fail('ID_ALREADY_DEACTIVATED', 'status', c, 'user already deactivated');
		}
		if (input.status === 'disabled' && isPrimaryContact(sandbox, target)) {
			return fail(
				'INVALID_REQUEST',
				'status',
				c,
				'primary contact cannot be deleted or deactivated',
			);
		}
		status = input.status;
	}
	if ((creating || status === 'active') && activeCount(sandbox) >= licenceLimit(sandbox)) {
		return errorItem('LICENSE_LIMIT_EXCEEDED', {}, 'licence limit exceeded');
	}

	// every check passed: apply
	for (const key of TEXT_FIELDS) if (key in input) target[key] = input[key];
	if ('last_name' in input) target.last_name = String(input.last_name).trim();
	if ('email' in input) target.email = String(input.email).trim();
	if ('dob' in input) target.dob = input.dob;
	if ('time_zone' in input) target.time_zone = String(input.time_zone);
	if (role) target.role = role;
	if (profile) target.profile = profile;
	if (reportingTo !== undefined) target.Reporting_To = reportingTo;
	if (status) target.status = status;
	target.full_name = [target.first_name, target.last_name]
		.filter((s) => typeof s === 'string' && s !== '')
		.join(' ');
	return undefined;
}

/** Lower-case e-mails of live users other than `exceptId`. */
export function takenEmails(sandbox: Sandbox, exceptId?: string): Set<string> {
	return new Set(
		userDocs(sandbox)
			.filter((u) => u.status !== 'deleted' && u.id !== exceptId)
			.map((u) => u.email.toLowerCase()),
	);
}

export function matchesType(sandbox: Sandbox, ctx: Ctx, user: UserDoc, type: string): boolean {
	const live = user.status !== 'deleted';
	const active = user.status === 'active';
	const admin = isAdminProfile(user.profile?.id);
	switch (type) {
		case 'AllUsers':
			return live;
		case 'ActiveUsers':
			return active;
		case 'DeactiveUsers':
			return user.status === 'disabled';
		case 'ConfirmedUsers':
			return live && user.confirm;
		case 'NotConfirmedUsers':
			return live && !user.confirm;
		case 'DeletedUsers':
			return user.status === 'deleted';
		case 'ActiveConfirmedUsers':
			return active && user.confirm;
		case 'AdminUsers':
			return live && admin;
		case 'ActiveConfirmedAdmins':
			return active && user.confirm && admin;
		case 'CurrentUser':
			return user.id === sandbox.user(ctx).id;
		default:
			return false;
	}
}

export const modifiedAfter = (u: UserDoc, since: number) =>
	(parseDateTime(u.Modified_Time) ?? 0) > since;

/** Stamps `Modified_Time` / `Modified_By` with the acting user. */
export function touch(ctx: Ctx, user: UserDoc): void {
	const actor = ctx.sandbox.user(ctx);
	user.Modified_Time = ctx.sandbox.formatTime();
	user.Modified_By = { id: actor.id, name: actor.name };
}

/** Updates one user (UpdateUsers item or UpdateUser); answers its result item. */
export function updateOne(ctx: Ctx, raw: unknown, index: number, id: string | undefined): Json {
	const { sandbox } = ctx;
	const c = { ctx, index };
	if (!raw || typeof raw !== 'object' || Array.isArray(raw))
		return fail('INVALID_DATA', undefined, c, 'invalid data');
	if (!id) return fail('MANDATORY_NOT_FOUND', 'id', c, 'required field not found');
	const existing = sandbox.store.doc<UserDoc>(USERS, id);
	if (!existing) return fail('INVALID_DATA', 'id', c, 'the id given seems to be invalid', { id });
	if (existing.status === 'deleted')
		return fail('CANNOT_UPDATE_DELETED_USER', 'id', c, 'deleted user cannot be updated', { id });
	const user = structuredClone(existing);
	const error = applyFields(sandbox, raw as Json, user, c, takenEmails(sandbox, id), false);
	if (error) return error;
	touch(ctx, user);
	sandbox.store.putDoc(USERS, user.id, user);
	return {
		code: 'SUCCESS',
		details: { id: user.id, email: user.email },
		message: 'User updated',
		status: 'success',
	};
}
