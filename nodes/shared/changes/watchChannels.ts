// The watch-channel model of docs/protocol.md §9, shared by the CRM Trigger (which keeps its own
// channel) and the CRM Notification node (which manages channels by hand).
import { randomBytes } from 'crypto';
import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { apiModules, byName, moduleLabel } from '../methods/loadOptions';

/** Path of the watch routes below the REST root. */
export const WATCH_PATH = '/actions/watch';
/** Items per `watch` list (§6). */
export const WATCH_MAX = 100;
/** `token` length (§6). */
export const TOKEN_MAX = 50;
/** `channel_expiry`: at most now + 1 day (§6). */
export const MAX_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** What a subscription asks for: events, where they go, and the two flags of §9.1. */
export interface ChannelWish {
	events: string[];
	notifyUrl: string;
	affectedValues: boolean;
	relatedActions: boolean;
}

/** A wish as the keys of a `watch` item (§9.1); what the wish leaves out is not sent (the CRM keeps or defaults it). */
export function wishKeys(wish: Partial<ChannelWish>): IDataObject {
	const keys: IDataObject = {};
	if (wish.events !== undefined) keys.events = wish.events;
	if (wish.notifyUrl !== undefined) keys.notify_url = wish.notifyUrl;
	if (wish.affectedValues !== undefined) keys.return_affected_field_values = wish.affectedValues;
	if (wish.relatedActions !== undefined) keys.notify_on_related_action = wish.relatedActions;
	return keys;
}

/** A random Long channel id (18 digits, no leading zero): a JSON string on the wire (§3.1). */
export function newChannelId(): string {
	const digits = Array.from(randomBytes(17), (b) => String(b % 10)).join('');
	return `${1 + (randomBytes(1)[0] % 9)}${digits}`;
}

/** A random verification token: 48 hex characters (the contract allows ≤ TOKEN_MAX, recommends 32–50). */
export function newToken(): string {
	return randomBytes(24).toString('hex');
}

/** Standard modules a watch channel accepts (§9.1); custom modules are watchable too. */
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
export async function getWatchableModules(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return (await apiModules(this))
		.filter(
			(m) =>
				m.generated_type === 'custom' || WATCHABLE_STANDARD_MODULES.includes(m.api_name as string),
		)
		.map((m) => ({
			name: moduleLabel(m),
			value: m.api_name as string,
			description: m.api_name as string,
		}))
		.sort(byName);
}
