import { createHash } from 'crypto';
import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
	IWebhookFunctions,
	IWebhookResponseData,
	SchedulingFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import {
	channelIdsAt,
	channelView,
	disable,
	listChannels,
	matches,
	RENEWAL_CHECK,
	renew,
	renewalDue,
	subscribe,
} from './channel';
import type { ChannelState, ChannelWish } from './channel';
import { attachRecords, isGenuine, itemsOf } from './delivery';
import type { DeliveryBody } from './delivery';
import { getWatchableModules } from './methods';

/**
 * Deliveries already turned into an execution (§9.5: the same delivery may arrive twice): a hash of
 * channel, server time, module, operation and sorted ids → arrival ms, in static data, for 10
 * minutes and at most 500 keys.
 */
const SEEN_KEY = 'recentDeliveries';
const SEEN_WINDOW_MS = 10 * 60 * 1000;
const SEEN_MAX = 500;

function deliveryKey(body: DeliveryBody): string {
	const ids = (body.ids ?? []).map(String).sort();
	const parts = [String(body.channel_id ?? ''), String(body.server_time ?? ''), String(body.module ?? ''), String(body.operation ?? ''), ids];
	return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 24);
}

/** Recent delivery keys, pruned to the window and the size bound. */
function recentDeliveries(state: ChannelState, now: number): Record<string, number> {
	const kept = Object.entries((state[SEEN_KEY] ?? {}) as Record<string, number>)
		.filter(([, at]) => typeof at === 'number' && now - at < SEEN_WINDOW_MS)
		.sort((a, b) => a[1] - b[1])
		.slice(-SEEN_MAX);
	return Object.fromEntries(kept);
}

const STATE_KEYS = ['channelId', 'token', 'notifyUrl', 'events', 'affectedValues', 'relatedActions', 'expiresAt', 'lifetimeMs', SEEN_KEY];

function stateOf(ctx: IHookFunctions | IWebhookFunctions | ITriggerFunctions): ChannelState {
	return ctx.getWorkflowStaticData('node') as ChannelState;
}

function clearState(state: ChannelState): void {
	for (const key of STATE_KEYS) delete state[key];
}

/** The channel the node's parameters describe, at this webhook URL (production or test). */
function wishOf(ctx: IHookFunctions): ChannelWish {
	const modules = ctx.getNodeParameter('modules', []) as string[];
	const events = ctx.getNodeParameter('events', []) as string[];
	const options = ctx.getNodeParameter('options', {}) as { includeAffected?: boolean; relatedActions?: boolean };
	const notifyUrl = ctx.getNodeWebhookUrl('default');
	if (!notifyUrl) throw new NodeOperationError(ctx.getNode(), 'n8n gave the trigger no webhook URL');
	if (modules.length === 0) throw new NodeOperationError(ctx.getNode(), 'Choose at least one module to watch');
	if (events.length === 0) throw new NodeOperationError(ctx.getNode(), 'Choose at least one event to watch');
	const operations = events.includes('all') ? ['all'] : events;
	return {
		events: modules.flatMap((m) => operations.map((op) => `${m}.${op}`)),
		notifyUrl,
		affectedValues: options.includeAffected === true,
		relatedActions: options.relatedActions !== false,
	};
}

export class CrmTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CRM Trigger',
		name: 'crmTrigger',
		icon: { light: 'file:../../icons/crm.svg', dark: 'file:../../icons/crm.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ ($parameter["events"] || []).join(", ") + " on " + ($parameter["modules"] || []).join(", ") }}',
		description: 'Starts the workflow when records are created, edited or deleted in the CRM (watch channel)',
		eventTriggerDescription: 'Waiting for you to change a record of a watched module in the CRM',
		activationMessage: 'Record changes in the watched modules now start this workflow.',
		defaults: { name: 'CRM Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'crmOAuth2Api', required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			{
				displayName: 'Module Names or IDs',
				name: 'modules',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getWatchableModules' },
				default: [],
				required: true,
				description:
					'Modules to watch, standard or custom. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: [
					{ name: 'All', value: 'all', description: 'Create, edit and delete' },
					{ name: 'Create', value: 'create', description: 'A record was created' },
					{ name: 'Delete', value: 'delete', description: 'A record was deleted' },
					{ name: 'Edit', value: 'edit', description: 'A record was edited' },
				],
				default: ['create'],
				required: true,
				description: 'Changes that start the workflow',
			},
			{
				displayName: 'Output',
				name: 'output',
				type: 'options',
				options: [
					{
						name: 'Record IDs',
						value: 'ids',
						description: 'One item per changed record with its ID, module and operation',
					},
					{
						name: 'Full Records',
						value: 'records',
						description:
							'Also fetch each created or edited record (100 per request) into "record"; deleted records keep ID, module and operation',
					},
				],
				default: 'ids',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Include Affected Fields and Values',
						name: 'includeAffected',
						type: 'boolean',
						default: false,
						description:
							'Whether each item carries the changed field names ("affected_fields") and their new values ("affected_values")',
					},
					{
						displayName: 'Notify on Related Actions',
						name: 'relatedActions',
						type: 'boolean',
						default: true,
						description:
							'Whether changes made through related-record actions (link, delink, related update) also start the workflow',
					},
				],
			},
		],
	};

	methods = { loadOptions: { getWatchableModules } };

	webhookMethods = {
		default: {
			/**
			 * Runs on every activation, n8n start and leader takeover: the stored channel must still
			 * exist with this URL, these events and this token. It is renewed here (a restart must not
			 * let it lapse before the first renewal tick); anything else is disabled and re-created.
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const state = stateOf(this);
				const wish = wishOf(this);
				if (!state.channelId) {
					// channels left at this URL by an interrupted activation: remove, then create()
					const orphans = await channelIdsAt.call(this, wish.notifyUrl);
					if (orphans.length > 0) await disable.call(this, orphans);
					return false;
				}
				const rows = await listChannels.call(this, state.channelId);
				if (rows.length === 0 || !matches(channelView(rows), wish, state.token)) {
					if (rows.length > 0) await disable.call(this, [state.channelId]);
					clearState(state);
					return false;
				}
				Object.assign(state, {
					notifyUrl: wish.notifyUrl,
					events: wish.events,
					affectedValues: wish.affectedValues,
					relatedActions: wish.relatedActions,
				});
				await renew.call(this, state);
				return true;
			},

			/** EnableNotifications: random channel id and token, this URL, the longest allowed expiry. */
			async create(this: IHookFunctions): Promise<boolean> {
				const state = stateOf(this);
				await subscribe.call(this, state, wishOf(this));
				return true;
			},

			/** DisableNotifications for the stored channel and any other channel at this URL. */
			async delete(this: IHookFunctions): Promise<boolean> {
				const state = stateOf(this);
				const ids = state.channelId ? [state.channelId] : [];
				const url = this.getNodeWebhookUrl('default');
				if (url) ids.push(...(await channelIdsAt.call(this, url)));
				if (ids.length > 0) await disable.call(this, ids);
				clearState(state);
				return true;
			},
		},
	};

	/** One delivery = one execution with one item per changed record; forged deliveries get 401. */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const state = stateOf(this);
		const raw = this.getBodyData() as unknown;
		const body = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as DeliveryBody;
		if (!isGenuine(state, body)) {
			this.getResponseObject().status(401).send('Unauthorized').end();
			return { noWebhookResponse: true };
		}
		if (!Array.isArray(body.ids) || !body.ids.every((id) => typeof id === 'string' || typeof id === 'number')) {
			this.getResponseObject().status(400).send('Malformed delivery: "ids" must be a list of record IDs').end();
			return { noWebhookResponse: true };
		}
		if (renewalDue(state)) {
			// a delivery also renews a channel that is due (covers an n8n without the scheduling helper)
			try {
				await renew.call(this, state);
			} catch (error) {
				this.logger.warn(`CRM Trigger: renewing watch channel ${state.channelId} failed: ${(error as Error).message}`);
			}
		}
		const now = Date.now();
		const key = deliveryKey(body);
		const seen = recentDeliveries(state, now);
		// a repeated delivery is acknowledged (200) without starting another execution
		if (seen[key] !== undefined) return { webhookResponse: 'duplicate delivery' };
		const options = this.getNodeParameter('options', {}) as { includeAffected?: boolean };
		const items = itemsOf(body, options.includeAffected === true);
		if (items.length === 0) return { webhookResponse: 'no records' };
		if (this.getNodeParameter('output', 'ids') === 'records') await attachRecords.call(this, items);
		seen[key] = now; // the newest key goes last: oldest first, as recentDeliveries() keeps them
		state[SEEN_KEY] = Object.fromEntries(Object.entries(seen).slice(-SEEN_MAX));
		return { workflowData: [this.helpers.returnJsonArray(items)] };
	}

	/**
	 * Renews the channel before it expires even when no delivery arrives: n8n's scheduling helper
	 * runs a check every second. The channel is read from static data at each tick (create() may run
	 * after trigger()); ticks never overlap. Closing only stops the ticks: unsubscribing belongs to
	 * delete(), since n8n also closes triggers on shutdown, when the channel must survive.
	 */
	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const helpers = this.helpers as Partial<SchedulingFunctions>;
		if (typeof helpers.registerCron !== 'function') {
			this.logger.info('CRM Trigger: no scheduling helper; the channel is renewed at activation and on deliveries');
			return {};
		}
		let closed = false;
		let busy = false;
		const tick = async () => {
			const state = stateOf(this);
			if (closed || busy || !renewalDue(state)) return;
			busy = true;
			try {
				const outcome = await renew.call(this, state);
				this.logger.debug(`CRM Trigger: watch channel ${state.channelId} ${outcome}`);
			} catch (error) {
				this.logger.warn(`CRM Trigger: renewing watch channel ${state.channelId} failed: ${(error as Error).message}`);
			} finally {
				busy = false;
			}
		};
		helpers.registerCron({ expression: RENEWAL_CHECK }, () => void tick());
		return {
			closeFunction: async () => {
				closed = true;
			},
		};
	}

	/** Test runs and "Execute step" pass the delivery's items through (trigger() never runs there). */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}
