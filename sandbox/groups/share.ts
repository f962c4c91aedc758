// Record sharing (docs/protocol.md §5.9): GetSharedRecordDetails, ShareRecord, UpdateSharePermissions,
// RevokeSharedRecord on /{module}/{recordId}/actions/share. One document per shared record in the
// `shares` collection. Limits of §6: 1..10 items per request and at most 10 users per record
// (SHARE_LIMIT_EXCEEDED). Deleting a record removes its sharing.
import { HttpError, errorItem } from '../errors.ts';
import type { ErrorBody } from '../errors.ts';
import { recordName } from '../records.ts';
import type { Ctx, Router } from '../router.ts';
import { operation } from '../router.ts';
import type { Sandbox } from '../types.ts';
import type { Json, StoredRecord } from '../store.ts';
import { paramKey } from '../wire.ts';
import { resultsReply, successItem } from './shared.ts';

/** Sharing: CRM.share.ALL or CRM.share.{mod}.{ACCESS} (§2.3). */
const SHARE_SCOPES = [['CRM.share.{mod}.{ACCESS}']];

const SHARES = 'shares';
const SHARE_ITEMS_MAX = 10;
const SHARE_USERS_PER_RECORD = 10;
const SHARE_PERMISSIONS = ['read_only', 'read_write', 'full_access'];
const SHARE_LIMIT_MESSAGE = `cannot share a record to more than ${SHARE_USERS_PER_RECORD} users`;

interface UserDoc {
	id: string;
	full_name: string;
	email: string;
	status?: string;
}

interface ShareEntry {
	user: { id: string; name: string; email: string };
	permission: string;
	share_related_records: boolean;
	shared_time: string;
	shared_by: { id: string; name: string };
	shared_through: { module: string; id: string; entity_name: string };
}

interface ShareDoc {
	id: string;
	module: string;
	record_id: string;
	shares: ShareEntry[];
}

const docId = (module: string, recordId: string) => `${module}:${recordId}`;

function recordOf(ctx: Ctx): StoredRecord {
	const record = ctx.sandbox.store.getRecord(ctx.module!.api_name, ctx.params.recordId);
	if (!record)
		throw new HttpError(
			'ENTITY_ID_INVALID',
			{ id: ctx.params.recordId },
			'the id given seems to be invalid',
		);
	return record;
}

function sharesOf(ctx: Ctx, record: StoredRecord): ShareEntry[] {
	return (
		ctx.sandbox.store.doc<ShareDoc>(SHARES, docId(ctx.module!.api_name, record.id))?.shares ?? []
	);
}

function saveShares(ctx: Ctx, record: StoredRecord, shares: ShareEntry[]): void {
	const id = docId(ctx.module!.api_name, record.id);
	if (shares.length === 0) ctx.sandbox.store.deleteDoc(SHARES, id);
	else {
		const doc: ShareDoc = { id, module: ctx.module!.api_name, record_id: record.id, shares };
		ctx.sandbox.store.putDoc(SHARES, id, doc);
	}
}

function ownerId(record: StoredRecord): string | undefined {
	const owner = record.Owner as Json | undefined;
	return owner?.id === undefined ? undefined : String(owner.id);
}

/** The `share` list of a request: 1..10 items; more is SHARE_LIMIT_EXCEEDED (§6). */
function shareItems(ctx: Ctx): unknown[] {
	const list = ctx.json().share;
	if (list === undefined || list === null) throw HttpError.mandatory('share');
	if (!Array.isArray(list))
		throw HttpError.invalidData({ api_name: 'share', expected_data_type: 'jsonarray' });
	if (list.length === 0) throw HttpError.mandatory('share');
	if (list.length > SHARE_ITEMS_MAX) {
		throw new HttpError(
			'SHARE_LIMIT_EXCEEDED',
			{ limit: SHARE_ITEMS_MAX, api_name: 'share' },
			SHARE_LIMIT_MESSAGE,
		);
	}
	return list;
}

function fail(ctx: Ctx, code: string, apiName: string, index: number, message?: string): ErrorBody {
	const details: Json = { api_name: apiName };
	if (ctx.v === 'v2.1') details.json_path = `$.share[${index}].${apiName}`;
	return errorItem(code, details, message);
}

/**
 * Applies the share items to a record's sharing. `mode` 'share' refuses users who already see the
 * record; 'update' changes their permission (and adds users not shared yet).
 */
function applyShares(
	ctx: Ctx,
	record: StoredRecord,
	items: unknown[],
	mode: 'share' | 'update',
): Array<Json | ErrorBody> {
	const { sandbox } = ctx;
	const shares = [...sharesOf(ctx, record)];
	const me = sandbox.user(ctx);
	const seen = new Set<string>();
	const results = items.map((item, index): Json | ErrorBody => {
		if (!item || typeof item !== 'object' || Array.isArray(item))
			return errorItem('INVALID_DATA', {}, 'invalid data');
		const input = item as Json;
		const userRef = input.user;
		const userId = userRef && typeof userRef === 'object' ? (userRef as Json).id : userRef;
		if (userId === undefined || userId === null || userId === '')
			return fail(ctx, 'MANDATORY_NOT_FOUND', 'user', index);
		const user = sandbox.store.doc<UserDoc>('users', String(userId));
		if (!user || (user.status !== undefined && user.status !== 'active')) {
			return fail(ctx, 'INVALID_DATA', 'user', index, 'the id given seems to be invalid');
		}
		if (input.permission === undefined || input.permission === null || input.permission === '') {
			return fail(ctx, 'MANDATORY_NOT_FOUND', 'permission', index);
		}
		if (typeof input.permission !== 'string' || !SHARE_PERMISSIONS.includes(input.permission)) {
			return fail(ctx, 'INVALID_DATA', 'permission', index, 'permission is invalid');
		}
		const related = input.share_related_records ?? false;
		if (typeof related !== 'boolean')
			return fail(ctx, 'INVALID_DATA', 'share_related_records', index);
		if (user.id === ownerId(record) || seen.has(user.id)) {
			return fail(ctx, 'DUPLICATE_DATA', 'user', index, 'record is already visible to the user');
		}
		const existing = shares.findIndex((s) => s.user.id === user.id);
		if (existing !== -1 && mode === 'share')
			return fail(ctx, 'DUPLICATE_DATA', 'user', index, 'record is already visible to the user');
		if (existing === -1 && shares.length >= SHARE_USERS_PER_RECORD) {
			return errorItem(
				'SHARE_LIMIT_EXCEEDED',
				{ limit: SHARE_USERS_PER_RECORD, id: user.id },
				SHARE_LIMIT_MESSAGE,
			);
		}
		seen.add(user.id);
		const entry: ShareEntry = {
			user: { id: user.id, name: user.full_name, email: user.email },
			permission: input.permission,
			share_related_records: related,
			shared_time: sandbox.formatTime(),
			shared_by: { id: me.id, name: me.name },
			shared_through: {
				module: ctx.module!.api_name,
				id: record.id,
				entity_name: recordName(ctx.module!, record),
			},
		};
		if (existing === -1) shares.push(entry);
		else shares[existing] = { ...entry, shared_time: shares[existing].shared_time };
		return successItem(user.id, 'record will be shared successfully');
	});
	saveShares(ctx, record, shares);
	return results;
}

const opts = { scopes: SHARE_SCOPES };
const path = '/:module/:recordId/actions/share';

// GetSharedRecordDetails
const getSharedRecordDetails = operation('GET', path, opts, (ctx) => {
	const { store } = ctx.sandbox;
	const record = recordOf(ctx);
	const view = ctx.q('view') ?? 'summary';
	if (view !== 'summary' && view !== 'manage') {
		throw HttpError.invalidData({ [paramKey(ctx)]: 'view' });
	}
	const sharedTo = ctx.q('sharedTo');
	const shares = sharesOf(ctx, record).filter(
		(s) => sharedTo === undefined || s.user.id === sharedTo,
	);
	if (view === 'summary') {
		if (shares.length === 0) return { status: 204 };
		return { body: { share: shares } };
	}
	const owner = ownerId(record);
	const shareable = store
		.docs<UserDoc>('users')
		.filter((u) => (u.status === undefined || u.status === 'active') && u.id !== owner)
		.map((u) => ({ id: u.id, full_name: u.full_name, email: u.email }));
	return { body: { share: shares, shareable_user: shareable } };
});

// ShareRecord
const shareRecord = operation('POST', path, opts, (ctx) => {
	const { store } = ctx.sandbox;
	const record = recordOf(ctx);
	const items = shareItems(ctx);
	const results = store.transaction(() => applyShares(ctx, record, items, 'share'));
	return resultsReply('share', 200, results);
});

// UpdateSharePermissions
const updateSharePermissions = operation('PUT', path, opts, (ctx) => {
	const { store } = ctx.sandbox;
	const record = recordOf(ctx);
	const items = shareItems(ctx);
	const results = store.transaction(() => applyShares(ctx, record, items, 'update'));
	return resultsReply('share', 200, results);
});

// RevokeSharedRecord: `share` is one object (**assumed**)
const revokeSharedRecord = operation('DELETE', path, opts, (ctx) => {
	const record = recordOf(ctx);
	if (sharesOf(ctx, record).length === 0)
		throw HttpError.invalidData({}, 'no sharing available to revoke');
	saveShares(ctx, record, []);
	return {
		body: {
			share: { code: 'SUCCESS', details: {}, message: 'Sharing Revoked', status: 'success' },
		},
	};
});

export function registerShare(router: Router, sandbox: Sandbox): void {
	const { store } = sandbox;
	// cascade: a deleted record is shared with no one
	store.onChange((event) => {
		if (event.operation !== 'delete') return;
		for (const change of event.changes) store.deleteDoc(SHARES, docId(event.module, change.id));
	});
	router.register([
		getSharedRecordDetails,
		shareRecord,
		updateSharePermissions,
		revokeSharedRecord,
	]);
}
