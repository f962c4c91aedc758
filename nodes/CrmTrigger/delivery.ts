import { timingSafeEqual } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { crmApiRequest } from '../shared/transport';
import type { CrmContext } from '../shared/transport';
import type { ChannelState } from './channel';

/** The body the CRM POSTs to a channel's URL (wire-contract §9.4). */
export interface DeliveryBody extends IDataObject {
	server_time?: number;
	module?: string;
	ids?: string[];
	operation?: string;
	affected_fields?: IDataObject[];
	affected_values?: Array<{ record_id?: string; values?: IDataObject }>;
	channel_id?: string;
	token?: string;
}

/** Delivery `operation` → the trigger's event name. */
const EVENT_OF: Record<string, string> = { insert: 'create', update: 'edit', delete: 'delete' };

/** GetRecords accepts at most 100 ids per request (§6). */
export const IDS_PER_REQUEST = 100;

function sameSecret(expected: string, actual: string): boolean {
	const a = Buffer.from(expected);
	const b = Buffer.from(actual);
	return a.length > 0 && a.length === b.length && timingSafeEqual(a, b);
}

/** §9.5: accept only the channel this node created, with the token it set (constant-time compare). */
export function isGenuine(state: ChannelState, body: DeliveryBody): boolean {
	if (!state.channelId || !state.token) return false;
	if (String(body.channel_id ?? '') !== state.channelId) return false;
	return sameSecret(state.token, typeof body.token === 'string' ? body.token : '');
}

/** One item per changed record: module, operation, id, server time (ISO) and, on request, what changed. */
export function itemsOf(body: DeliveryBody, includeAffected: boolean): IDataObject[] {
	const module = String(body.module ?? '');
	const operation = EVENT_OF[String(body.operation)] ?? String(body.operation ?? '');
	const serverTime = new Date(typeof body.server_time === 'number' ? body.server_time : Date.now()).toISOString();
	const fieldsById = new Map<string, unknown>();
	for (const entry of body.affected_fields ?? []) {
		for (const [id, fields] of Object.entries(entry ?? {})) fieldsById.set(id, fields);
	}
	const valuesById = new Map<string, IDataObject>();
	for (const entry of body.affected_values ?? []) {
		if (entry?.record_id !== undefined) valuesById.set(String(entry.record_id), entry.values ?? {});
	}
	return (body.ids ?? []).map((rawId) => {
		const id = String(rawId);
		const json: IDataObject = { module, operation, id, server_time: serverTime };
		if (includeAffected) {
			json.affected_fields = (fieldsById.get(id) as string[] | undefined) ?? [];
			if (operation !== 'delete') json.affected_values = valuesById.get(id) ?? {};
		}
		return json;
	});
}

/**
 * Adds `record` to the items of created and edited records: GetRecords with up to 100 ids per
 * request. Deleted records (and records gone before the fetch) keep only id, module and operation.
 */
export async function attachRecords(this: CrmContext, items: IDataObject[]): Promise<void> {
	const wanted = items.filter((i) => i.operation !== 'delete');
	if (wanted.length === 0) return;
	const module = String(wanted[0].module);
	const ids = [...new Set(wanted.map((i) => String(i.id)))];
	const records = new Map<string, IDataObject>();
	for (let start = 0; start < ids.length; start += IDS_PER_REQUEST) {
		const body = await crmApiRequest.call(this, {
			method: 'GET',
			path: `/${encodeURIComponent(module)}`,
			// converted leads are hidden from GetRecords unless asked for (§3.2)
			qs: { ids: ids.slice(start, start + IDS_PER_REQUEST).join(','), ...(module === 'Leads' ? { converted: 'both' } : {}) },
		});
		for (const record of (body.data as IDataObject[] | undefined) ?? []) records.set(String(record.id), record);
	}
	for (const item of wanted) {
		const record = records.get(String(item.id));
		if (record) item.record = record;
	}
}
