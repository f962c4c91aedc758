import { createHash, randomUUID, timingSafeEqual } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { ChannelState } from './channel';

/** The body the CRM POSTs to a channel's URL (docs/protocol.md §9.4), once validated. */
export interface DeliveryBody {
	server_time: number;
	module: string;
	ids: string[];
	operation: 'insert' | 'update' | 'delete';
	/** record id → changed field API names */
	affected_fields: Record<string, string[]>;
	/** record id → new values (channels with `return_affected_field_values`) */
	affected_values: Record<string, IDataObject>;
	channel_id: string;
}

/** Delivery `operation` → the trigger's event name. */
const EVENT_OF: Record<string, string> = { insert: 'create', update: 'edit', delete: 'delete' };

/** A delivery lists the records of one API request; the contract's batches hold at most 100, bulk jobs more. */
const MAX_IDS = 50_000;
/** 2001-01-01 … 2100-01-01: anything outside is not an epoch-ms `server_time`. */
const SERVER_TIME_MIN = 978_307_200_000;
const SERVER_TIME_MAX = 4_102_444_800_000;

/**
 * Item key that carries a record change's identity from webhook() (or the catch-up) to execute(),
 * which completes it (dedupe.ts changeKey) and removes it before the items leave the node.
 */
export const CHANGE_KEY = '_crmChange';
/** Item key of a change the catch-up read: the Modified_Time it was read with (ISO), the rest of an edit's key. */
export const CHANGE_TIME = '_crmModified';
/**
 * Item key of the run: one id per request (or catch-up execution), on every item. n8n copies an
 * execution's input into its Retry, so the retry carries the id of the execution it repeats and
 * learns from the store whether that execution made its claim (dedupe.ts claimChanges `run`).
 */
export const CHANGE_RUN = '_crmRun';

/** `items` with one new run id (CHANGE_RUN). */
export function stampRun(items: IDataObject[]): IDataObject[] {
	const run = randomUUID();
	for (const item of items) item[CHANGE_RUN] = run;
	return items;
}

function sameSecret(expected: string, actual: string): boolean {
	const a = Buffer.from(expected);
	const b = Buffer.from(actual);
	return a.length > 0 && a.length === b.length && timingSafeEqual(a, b);
}

/** §9.5: accept only the channel this node created, with the token it set (constant-time compare). */
export function isGenuine(state: ChannelState, body: IDataObject): boolean {
	if (!state.channelId || !state.token) return false;
	if (String(body.channel_id ?? '') !== state.channelId) return false;
	return sameSecret(state.token, typeof body.token === 'string' ? body.token : '');
}

const isObject = (v: unknown): v is IDataObject =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks every field of a genuine delivery against §9.4. Answers the typed body, or the reason it
 * is malformed (answered 400): a delivery we cannot read must never throw inside n8n.
 */
export function parseDelivery(raw: IDataObject): { body: DeliveryBody } | { error: string } {
	const { server_time: serverTime, module, operation, ids } = raw;
	if (
		typeof serverTime !== 'number' ||
		!Number.isFinite(serverTime) ||
		serverTime < SERVER_TIME_MIN ||
		serverTime > SERVER_TIME_MAX
	) {
		return { error: '"server_time" must be epoch milliseconds' };
	}
	if (typeof module !== 'string' || !/^[A-Za-z][A-Za-z0-9_]{0,99}$/.test(module)) {
		return { error: '"module" must be a module API name' };
	}
	if (typeof operation !== 'string' || !(operation in EVENT_OF)) {
		return { error: '"operation" must be "insert", "update" or "delete"' };
	}
	if (
		!Array.isArray(ids) ||
		ids.length > MAX_IDS ||
		!ids.every(
			(id) => (typeof id === 'string' || typeof id === 'number') && /^\d{1,30}$/.test(String(id)),
		)
	) {
		return { error: '"ids" must be a list of record IDs' };
	}
	const affectedFields: Record<string, string[]> = {};
	if (raw.affected_fields !== undefined) {
		if (!Array.isArray(raw.affected_fields)) return { error: '"affected_fields" must be a list' };
		for (const entry of raw.affected_fields as unknown[]) {
			if (!isObject(entry))
				return { error: '"affected_fields" entries must map a record ID to field names' };
			for (const [id, fields] of Object.entries(entry)) {
				if (!Array.isArray(fields) || !fields.every((f) => typeof f === 'string')) {
					return { error: `"affected_fields" of record ${id} must be a list of field names` };
				}
				affectedFields[id] = fields as string[];
			}
		}
	}
	const affectedValues: Record<string, IDataObject> = {};
	if (raw.affected_values !== undefined) {
		if (!Array.isArray(raw.affected_values)) return { error: '"affected_values" must be a list' };
		for (const entry of raw.affected_values as unknown[]) {
			if (
				!isObject(entry) ||
				(typeof entry.record_id !== 'string' && typeof entry.record_id !== 'number') ||
				(entry.values !== undefined && !isObject(entry.values))
			) {
				return { error: '"affected_values" entries must be { record_id, values }' };
			}
			affectedValues[String(entry.record_id)] = (entry.values as IDataObject | undefined) ?? {};
		}
	}
	if (raw.query_params !== undefined && !isObject(raw.query_params))
		return { error: '"query_params" must be an object' };
	return {
		body: {
			server_time: serverTime,
			module,
			operation: operation as DeliveryBody['operation'],
			ids: [...new Set(ids.map(String))],
			affected_fields: affectedFields,
			affected_values: affectedValues,
			channel_id: String(raw.channel_id),
		},
	};
}

export function hashOf(parts: unknown[]): string {
	return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 24);
}

/** The delivery as sent: a copy posted again is the same delivery (same server time included). */
export function deliveryKey(body: DeliveryBody): string {
	return hashOf([
		'd',
		body.channel_id,
		body.server_time,
		body.module,
		body.operation,
		[...body.ids].sort(),
	]);
}

/**
 * One record's change as the delivery and the catch-up both know it: module, event and record id.
 * A record is created and deleted once; an edit is told apart by the record's Modified_Time, which
 * execute() adds (dedupe.ts changeKey). Neither the channel nor the send time is part of it: a
 * change the catch-up reads after a delivery brought it, or a re-send with its own `server_time`,
 * has the same key.
 */
export function changeBase(module: string, operation: string, id: string): string {
	return `${operation}|${module}|${id}`;
}

/** One item per changed record: module, operation, id, server time (ISO) and, on request, what changed. */
export function itemsOf(body: DeliveryBody, includeAffected: boolean): IDataObject[] {
	const operation = EVENT_OF[body.operation];
	const serverTime = new Date(body.server_time).toISOString();
	return body.ids.map((id) => {
		const json: IDataObject = { module: body.module, operation, id, server_time: serverTime };
		if (includeAffected) {
			json.affected_fields = body.affected_fields[id] ?? [];
			if (operation !== 'delete') json.affected_values = body.affected_values[id] ?? {};
		}
		json[CHANGE_KEY] = changeBase(body.module, operation, id);
		return json;
	});
}
