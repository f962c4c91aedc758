import type {
	IDataObject,
	IExecuteFunctions,
	IRun,
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
import { NodeConnectionTypes, NodeOperationError, sleep } from 'n8n-workflow';

import { getReadableFields } from '../shared/methods/loadOptions';
import { optionsCollection } from '../shared/description/optionsCollection';
import {
	channelIdsAt,
	channelView,
	disable,
	listChannels,
	matches,
	MAX_LIFETIME_MS,
	renew,
	renewalCron,
	renewalDue,
	subscribe,
} from './channel';
import type { ChannelState, ChannelWish } from './channel';
import {
	CATCH_UP_BATCH,
	CATCH_UP_BUDGET_MS,
	emitWaits,
	failed,
	readStream,
	SETTLE_MS,
	STALLED_MS,
	startStreams,
	streamsFor,
} from './catchUp';
import type { CatchUpState } from './catchUp';
import { changeKey, claimChanges, DEFAULT_WINDOW_MS, releaseChanges, runKey } from './dedupe';
import {
	CHANGE_KEY,
	CHANGE_RUN,
	CHANGE_TIME,
	deliveryKey,
	isGenuine,
	itemsOf,
	parseDelivery,
	stampRun,
} from './delivery';
import { fetchRecords } from '../shared/records/fetch';
import { PAGE_SIZE } from '../shared/changes/changeStream';
import { attemptOf, latch } from './processClaims';
import { getWatchableModules } from './methods';
import { getParameter } from '../shared/parameters';

const STATE_KEYS = [
	'channelId',
	'token',
	'notifyUrl',
	'events',
	'affectedValues',
	'relatedActions',
	'expiresAt',
	'lifetimeMs',
];

interface TriggerOptions {
	includeAffected?: boolean;
	relatedActions?: boolean;
	freshnessMinutes?: number;
	watchFields?: string[];
	catchUp?: boolean;
	catchUpMinutes?: number;
}

/** Catch-up every this many minutes unless the node says otherwise (docs/crm-trigger.md). */
const DEFAULT_CATCH_UP_MINUTES = 5;

function stateOf(ctx: IHookFunctions | IWebhookFunctions | ITriggerFunctions): ChannelState {
	return ctx.getWorkflowStaticData('node') as ChannelState;
}

function clearState(state: ChannelState): void {
	for (const key of STATE_KEYS) delete state[key];
}

/** The channel the node's parameters describe, at this webhook URL (production or test). */
function wishFromParameters(ctx: IHookFunctions): ChannelWish {
	const modules = getParameter(ctx, 'modules', 0, []) as string[];
	const events = getParameter(ctx, 'events', 0, []) as string[];
	const options = getParameter(ctx, 'options', 0, {}) as TriggerOptions;
	const notifyUrl = ctx.getNodeWebhookUrl('default');
	if (!notifyUrl)
		throw new NodeOperationError(ctx.getNode(), 'n8n gave the trigger no webhook URL');
	if (modules.length === 0)
		throw new NodeOperationError(ctx.getNode(), 'Choose at least one module to watch');
	if (events.length === 0)
		throw new NodeOperationError(ctx.getNode(), 'Choose at least one event to watch');
	const operations = events.includes('all') ? ['all'] : events;
	return {
		events: modules.flatMap((m) => operations.map((op) => `${m}.${op}`)),
		notifyUrl,
		affectedValues: options.includeAffected === true,
		relatedActions: options.relatedActions !== false,
	};
}

/** How long a copy waits for n8n's answer to the request that holds its changes (beyond n8n's database timeouts). */
const COPY_WAIT_MS = 60_000;

/**
 * Changes another request of this process claimed while n8n is still storing that request's
 * execution: wait for n8n's answer to it. Taken: these are repeats and are dropped. Refused (n8n
 * could not store or queue it, and answers with an error, also after the CRM stopped waiting): a
 * copy of the delivery takes the claims over and carries the changes. Still unanswered after
 * COPY_WAIT_MS: repeats, as before the wait.
 */
async function afterEarlierCopy(
	waiting: IDataObject[],
	latched: { claim: (key: string) => boolean; pending: (key: string) => boolean },
): Promise<IDataObject[]> {
	const keyOf = (item: IDataObject) => item[CHANGE_KEY] as string;
	const decided = () => waiting.every((item) => !latched.pending(keyOf(item)));
	for (let waited = 0; !decided() && waited < COPY_WAIT_MS; waited += 100) await sleep(100);
	return waiting.filter((item) => latched.claim(keyOf(item)));
}

export class CrmTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CRM Trigger',
		name: 'crmTrigger',
		icon: {
			light: 'file:../../icons/crmTrigger.svg',
			dark: 'file:../../icons/crmTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ ($parameter["events"] || []).join(", ") + " on " + ($parameter["modules"] || []).join(", ") }}',
		description:
			'Instant — the CRM must reach your n8n: starts the workflow the moment records are created, edited or deleted (watch channel). Without a public URL, use CRM Polling (it polls the CRM on a schedule).',
		eventTriggerDescription: 'Waiting for you to change a record of a watched module in the CRM',
		activationMessage: 'Record changes in the watched modules now start this workflow.',
		defaults: { name: 'CRM Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'crmOAuth2Api', required: true }],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
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
				// n8n's node panel lists a trigger's "Events" options as its entries, named by `action`
				// (one entry per event, as for n8n's own triggers); picking one preselects that event
				options: [
					{
						name: 'All',
						value: 'all',
						action: 'On any record change',
						description: 'A record was created, edited or deleted',
					},
					{
						name: 'Create',
						value: 'create',
						action: 'On record created',
						description: 'A record was created',
					},
					{
						name: 'Delete',
						value: 'delete',
						action: 'On record deleted',
						description: 'A record was deleted',
					},
					{
						name: 'Edit',
						value: 'edit',
						action: 'On record updated',
						description: 'A record was edited (updated)',
					},
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
			optionsCollection([
				{
					displayName: 'Catch Up on Missed Changes',
					name: 'catchUp',
					type: 'boolean',
					default: true,
					description:
						'Whether the trigger also reads the watched modules for changes no delivery brought (the CRM sends each delivery once: one n8n did not answer in time is gone) and runs them, at publication and every Catch-Up Interval. Each change still runs once.',
				},
				{
					displayName: 'Catch-Up Interval (Minutes)',
					name: 'catchUpMinutes',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: DEFAULT_CATCH_UP_MINUTES,
					description:
						'How often the catch-up reads the watched modules (changes younger than a minute are left to their deliveries). Each read costs API credits: one COQL query per 200 changed records and per module and event.',
				},
				{
					displayName: 'Freshness Window (Minutes)',
					name: 'freshnessMinutes',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 10,
					description:
						'Deliveries whose server time is further than this from now are refused as stale (400), so a replayed old delivery starts nothing. 0 turns the check off.',
				},
				{
					displayName: 'Include Affected Fields and Values',
					name: 'includeAffected',
					type: 'boolean',
					default: false,
					description:
						'Whether each item carries the changed field names ("affected_fields") and their new values ("affected_values")',
				},
				{
					displayName: 'Only When These Fields Change (Names or IDs)',
					name: 'watchFields',
					type: 'multiOptions',
					typeOptions: {
						loadOptionsMethod: 'getReadableFields',
						loadOptionsDependsOn: ['modules'],
					},
					default: [],
					description:
						'An edit starts the workflow only when the CRM reports one of these fields among the changed ones ("changed_fields" lists them). Creates and deletes are not filtered. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
				{
					displayName: 'Notify on Related Actions',
					name: 'relatedActions',
					type: 'boolean',
					default: true,
					description:
						'Whether changes made through related-record actions (link, delink, related update) also start the workflow',
				},
			]),
		],
	};

	methods = { loadOptions: { getWatchableModules, getReadableFields } };

	webhookMethods = {
		default: {
			/**
			 * Runs on every activation, n8n start and leader takeover: the stored channel must still
			 * exist with this URL, these events and this token. It is renewed here (a restart must not
			 * let it lapse before the first renewal tick); anything else is disabled and re-created.
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const state = stateOf(this);
				const wish = wishFromParameters(this);
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
				await subscribe.call(this, state, wishFromParameters(this));
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

	/**
	 * One delivery = at most one execution with one item per new change, answered by n8n as soon as
	 * it stored and queued that execution. Forged deliveries get 401, malformed or stale ones 400.
	 * Nothing here calls the CRM or reads the credential: every check works on the body and the
	 * node's static data, so the answer costs what any community trigger's costs (docs/crm-trigger.md
	 * "The answer path"). Copies that reach this process together are settled by the process latch
	 * (synchronous claims of the delivery key, and of a create's or delete's change key); a copy of
	 * a change whose claim belongs to a request n8n is still storing waits for n8n's answer to it,
	 * and carries the change if n8n refused it. execute() fetches what identifies each change and
	 * drops what another execution already emitted.
	 */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const state = stateOf(this);
		const res = this.getResponseObject();
		// refusals start nothing, so the node answers them itself
		const refuse = (status: number, message: string): IWebhookResponseData => {
			res.status(status).send(message).end();
			return { noWebhookResponse: true };
		};
		const raw = this.getBodyData() as unknown;
		const body = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as IDataObject;
		if (!isGenuine(state, body)) return refuse(401, 'Unauthorized');
		const parsed = parseDelivery(body);
		if ('error' in parsed) return refuse(400, `Malformed delivery: ${parsed.error}`);
		const delivery = parsed.body;
		const options = getParameter(this, 'options', 0, {}) as TriggerOptions;
		const freshMs = Math.max(0, Number(options.freshnessMinutes ?? 10) || 0) * 60_000;
		if (freshMs > 0 && Math.abs(Date.now() - delivery.server_time) > freshMs) {
			return refuse(
				400,
				`Stale delivery: server_time ${new Date(delivery.server_time).toISOString()} is more than ${freshMs / 60_000} minutes from now`,
			);
		}
		const windowMs = Math.max(freshMs, DEFAULT_WINDOW_MS);
		// per workflow and channel: a test listener's channel ("Listen for test event") and the
		// published one both get the same change, and each must pass it on
		const scope = `${this.getWorkflow().id ?? ''}|${delivery.channel_id}|`;
		// this request's claims, and how n8n answers it (read by the copies that find them)
		const attempt = attemptOf(res);
		// first sight of a key in this process: claimed synchronously, so copies cannot interleave
		const first = (key: string): boolean => latch.claim(scope + key, windowMs, Date.now(), attempt);
		const pending = (key: string): boolean => latch.pending(scope + key, Date.now());
		// nothing new: n8n answers 200 with this body and starts no execution
		const duplicate: IWebhookResponseData = {
			webhookResponse: { status: 'duplicate', records: 0 },
		};
		if (!first(deliveryKey(delivery))) return duplicate;
		let items = itemsOf(delivery, options.includeAffected === true);
		// "Only When These Fields Change": an edit counts when the CRM's affected_fields name a watched field
		const watch = (options.watchFields ?? []).map(String).filter(Boolean);
		if (watch.length > 0 && delivery.operation === 'update') {
			items = items.filter((item) => {
				const changed = (delivery.affected_fields[String(item.id)] ?? []).filter((f) =>
					watch.includes(f),
				);
				item.changed_fields = changed;
				return changed.length > 0;
			});
			if (items.length === 0) return { webhookResponse: { status: 'ignored', records: 0 } };
		}
		// a record is created or deleted once: its key is whole already, so a re-send (new server_time)
		// is caught here; an edit's key needs the record's Modified_Time, which execute() reads
		if (delivery.operation !== 'update') {
			const waiting: IDataObject[] = [];
			items = items.filter((item) => {
				const key = item[CHANGE_KEY] as string;
				if (first(key)) return true;
				if (pending(key)) waiting.push(item);
				return false;
			});
			if (waiting.length > 0)
				items.push(...(await afterEarlierCopy(waiting, { claim: first, pending })));
		}
		if (items.length === 0) return duplicate;
		// n8n answers (200) once it has stored and queued the execution: a delivery the CRM sees
		// acknowledged is never lost, also when this process stops right now
		return { workflowData: [this.helpers.returnJsonArray(stampRun(items))] };
	}

	/**
	 * On main only (n8n runs trigger() on the leader main; the webhook process and workers never
	 * do): renews the channel before it expires, and catches up on changes no delivery brought.
	 * Renewal: the tick period derives from the channel lifetime (renewalCron), read once create()
	 * has stored it (activation runs create() alongside trigger()); each tick reads the channel from
	 * static data. Catch-up: at activation, then every Catch-Up Interval (catchUp.ts). Ticks of one
	 * kind never overlap. Closing only stops the ticks: unsubscribing belongs to delete(), since n8n
	 * also closes triggers on shutdown.
	 */
	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const helpers = this.helpers as Partial<SchedulingFunctions>;
		if (typeof helpers.registerCron !== 'function') {
			this.logger.info(
				'CRM Trigger: no scheduling helper; the channel is renewed at each activation only',
			);
			return {};
		}
		for (let i = 0; i < 50 && !stateOf(this).lifetimeMs; i++) await sleep(100);
		const expression = renewalCron(stateOf(this).lifetimeMs ?? MAX_LIFETIME_MS);
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
				this.logger.warn(
					`CRM Trigger: renewing watch channel ${state.channelId} failed: ${(error as Error).message}`,
				);
			} finally {
				busy = false;
			}
		};
		helpers.registerCron({ expression }, () => void tick());
		this.logger.debug(`CRM Trigger: renewal check on cron "${expression}"`);

		const options = getParameter(this, 'options', 0, {}) as TriggerOptions;
		let catching: Promise<void> | undefined;
		const waits = emitWaits();
		if (options.catchUp !== false && this.getMode() !== 'manual') {
			// answers the catch-up under way (one at a time), started now when none is; one stalled
			// on an execution n8n never reported ends here, and the next tick reads its changes again
			const catchUpTick = () => {
				if (closed) return;
				waits.giveUpAfter(STALLED_MS);
				catching ??= catchUp
					.call(this, options, () => closed, waits.wait)
					.catch((error: Error) =>
						this.logger.warn(`CRM Trigger: catching up failed: ${error.message}`),
					)
					.finally(() => (catching = undefined));
				return catching;
			};
			const minutes = Math.max(
				1,
				Math.round(Number(options.catchUpMinutes ?? DEFAULT_CATCH_UP_MINUTES) || 1),
			);
			const every =
				minutes < 60 ? `0 */${minutes} * * * *` : `0 0 */${Math.round(minutes / 60)} * * *`;
			helpers.registerCron({ expression: every as typeof expression }, catchUpTick);
			// at (re)activation too: what changed while no n8n answered the CRM
			void catchUpTick();
		}
		return {
			closeFunction: async () => {
				closed = true;
				waits.close();
				await catching;
			},
		};
	}

	/**
	 * The first node of every execution, on a worker in queue mode. In production it claims each
	 * change in n8n's deduplication store (dedupe.ts) and drops what another execution already
	 * emitted: copies that reached another process, and changes the catch-up read again. A delivered
	 * edit is told apart by the record's Modified_Time, so it is fetched first, and so are a
	 * delivery's "Full Records": an execution that failed after its claim would lose changes the CRM
	 * sends once. The catch-up's changes (their keys known without the CRM) are claimed first and
	 * fetched only when new: a catch-up reads again many changes deliveries brought. Records come 100
	 * per request. An execution left with no items ends here: the next nodes get no input and do not
	 * run. Manual runs ("Execute step", test events) claim nothing and only fetch. A Retry claims as
	 * any execution, and emits every change of the execution it repeats if that one made its claim.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const input = this.getInputData();
		const items = input.map((item) => ({ ...item, json: { ...item.json } }));
		const changes = items.filter((item) => typeof item.json[CHANGE_KEY] === 'string');
		if (changes.length === 0) return [items];
		// a Retry (executions list) is a user's re-run of an execution that did not finish: claimed()
		// tells by the run id whether that execution made its claim (its changes are then the retry's
		// to emit) or never ran (n8n failed it first: the catch-up may have run its changes since).
		// Input of a version without run ids: the retry claims nothing and emits every change
		const run = changes
			.map((item) => item.json[CHANGE_RUN])
			.find((id) => typeof id === 'string') as string | undefined;
		const production =
			this.getMode() !== 'manual' && (this.getMode() !== 'retry' || run !== undefined);
		const wantRecords = getParameter(this, 'output', 0, 'ids') === 'records';
		const fetched = new Map<INodeExecutionData, IDataObject | undefined>();
		const fetch = async (list: INodeExecutionData[], fields?: string) => {
			for (const module of [...new Set(list.map((item) => String(item.json.module)))]) {
				const ofModule = list.filter((item) => item.json.module === module);
				const records = await fetchRecords.call(
					this,
					module,
					ofModule.map((item) => String(item.json.id)),
					fields,
				);
				for (const item of ofModule) fetched.set(item, records.get(String(item.json.id)));
			}
		};
		const attach = (list: INodeExecutionData[]) => {
			for (const item of list) {
				const record = fetched.get(item);
				if (record) item.json.record = record;
			}
		};
		const notDeleted = (item: INodeExecutionData) => item.json.operation !== 'delete';
		if (!production) {
			if (wantRecords) {
				const toFetch = changes.filter(notDeleted);
				await fetch(toFetch);
				attach(toFetch);
			}
			return [clean(items)];
		}

		// keys: the catch-up's edits carry the Modified_Time they were read with; a delivered edit's is
		// read now. A delivery's Full Records are read before the claim too: an execution that fails
		// after claiming its changes loses them (the CRM sends once, and the catch-up finds them taken)
		const delivered = changes.filter(
			(item) =>
				item.json.caught_up !== true &&
				(item.json.operation === 'edit' ? item.json[CHANGE_TIME] === undefined : wantRecords) &&
				notDeleted(item),
		);
		await fetch(delivered, wantRecords ? undefined : 'Modified_Time');
		const keyOf = new Map(
			changes.map((item) => [
				item,
				changeKey(
					item.json[CHANGE_KEY] as string,
					item.json,
					item.json[CHANGE_TIME] ?? fetched.get(item)?.Modified_Time,
				),
			]),
		);
		let kept = await claimed.call(this, changes, keyOf, run);
		if (wantRecords) {
			const toFetch = kept.filter((item) => notDeleted(item) && !fetched.has(item));
			let read = false;
			try {
				await fetch(toFetch);
				read = true;
			} finally {
				// claimed, never emitted: given back, so the catch-up's next read of them emits them
				if (!read)
					await released.call(
						this,
						kept.map((item) => keyOf.get(item)!),
						run,
					);
			}
			// a caught-up edit whose record changed again since it was read carries the later state:
			// that later change is claimed too, and dropped here when another execution emitted it
			const moved = toFetch.filter(
				(item) =>
					item.json.operation === 'edit' &&
					changeKey('', item.json, fetched.get(item)?.Modified_Time) !==
						changeKey('', item.json, item.json[CHANGE_TIME]),
			);
			if (moved.length > 0) {
				const later = new Map(
					moved.map((item) => [
						item,
						changeKey(item.json[CHANGE_KEY] as string, item.json, fetched.get(item)?.Modified_Time),
					]),
				);
				const stillNew = new Set(await claimed.call(this, moved, later));
				kept = kept.filter((item) => !moved.includes(item) || stillNew.has(item));
			}
			attach(kept);
		}
		const dropped = changes.length - changes.filter((item) => kept.includes(item)).length;
		if (dropped > 0)
			this.logger.info(
				`CRM Trigger: ${dropped} change(s) already emitted by another execution were dropped`,
			);
		const keep = new Set(kept);
		return [clean(items.filter((item) => !changes.includes(item) || keep.has(item)))];
	}
}

/** The items without the keys that carried each change's identity to execute(). */
function clean(items: INodeExecutionData[]): INodeExecutionData[] {
	for (const item of items) {
		delete item.json[CHANGE_KEY];
		delete item.json[CHANGE_TIME];
		delete item.json[CHANGE_RUN];
	}
	return items;
}

/**
 * The items whose change this execution may emit: claimed in n8n's deduplication store, once each
 * (an item whose key another item of this execution already took is dropped too). With the run id,
 * the claim records the run's key too: a Retry that finds it taken repeats an execution that made
 * its claim, and emits every change (which of them another execution had emitted first, the store
 * cannot tell); one that wins it repeats an execution that never claimed, and emits what it wins.
 */
async function claimed(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	keyOf: Map<INodeExecutionData, string>,
	run?: string,
): Promise<INodeExecutionData[]> {
	let won: Set<string>;
	try {
		// an execution carries either a delivery's changes or the catch-up's (caught_up)
		const source = items.every((item) => item.json.caught_up === true) ? 'catch-up' : 'delivery';
		const key = run === undefined ? undefined : runKey(run);
		won = await claimChanges(
			this.helpers,
			`${this.getWorkflow().id}|${this.getNode().id}`,
			[...keyOf.values()],
			source,
			this.logger,
			key,
		);
		if (this.getMode() === 'retry' && key !== undefined && !won.has(key))
			won = new Set(keyOf.values());
	} catch (error) {
		// no deduplication store (n8n without it): emit rather than lose the change
		this.logger.warn(`CRM Trigger: could not record emitted changes: ${(error as Error).message}`);
		won = new Set(keyOf.values());
	}
	const emitted = new Set<string>();
	return items.filter((item) => {
		const key = keyOf.get(item)!;
		if (!won.has(key) || emitted.has(key)) return false;
		emitted.add(key);
		return true;
	});
}

/**
 * Gives back claims of changes this execution could not emit (dedupe.ts releaseChanges), and its
 * run's key: a Retry of it then claims as a new execution, instead of emitting what the next
 * catch-up emits.
 */
async function released(this: IExecuteFunctions, keys: string[], run?: string): Promise<void> {
	try {
		await releaseChanges(this.helpers, `${this.getWorkflow().id}|${this.getNode().id}`, [
			...keys,
			...(run === undefined ? [] : [runKey(run)]),
		]);
		this.logger.warn(
			`CRM Trigger: ${keys.length} claimed change(s) could not be emitted; their claims were given back for the next catch-up`,
		);
	} catch (error) {
		this.logger.warn(
			`CRM Trigger: ${keys.length} claimed change(s) could not be emitted, nor their claims given back (${(error as Error).message}); Retry the execution to emit them`,
		);
	}
}

/**
 * One catch-up: every watched stream read from its cursor up to SETTLE_MS ago, the streams taking
 * turns, emitted in executions of at most CATCH_UP_BATCH changes. A stream's cursor moves only once
 * n8n has run the execution that carries its changes, so a change is read again, never skipped, when
 * n8n could not store that execution (execute() drops what was emitted). Stops at CATCH_UP_BUDGET_MS; the next
 * catch-up goes on from there.
 */
async function catchUp(
	this: ITriggerFunctions,
	options: TriggerOptions,
	isClosed: () => boolean,
	waitFor: (run: Promise<unknown>) => Promise<boolean>,
): Promise<void> {
	const state = stateOf(this) as ChannelState & CatchUpState;
	const modules = getParameter(this, 'modules', 0, []) as string[];
	const events = getParameter(this, 'events', 0, []) as string[];
	const streams = streamsFor(modules, events);
	await startStreams.call(this, state, streams);
	const cursors = state.catchUp ?? {};
	const bound = Date.now() - SETTLE_MS;
	const deadline = Date.now() + CATCH_UP_BUDGET_MS;
	const watch = (options.watchFields ?? []).map(String).filter(Boolean);
	let batch: IDataObject[] = [];
	let moved: typeof cursors = {};
	// false when the wait for the execution was given up: the cursors stay, the changes are read again
	const flush = async (): Promise<boolean> => {
		if (batch.length > 0) {
			for (const item of batch) {
				// what changed is not known to a read of the records: said so, never guessed
				if (options.includeAffected === true) {
					item.affected_fields = null;
					if (item.operation !== 'delete') item.affected_values = null;
				}
				if (watch.length > 0 && item.operation === 'edit') item.changed_fields = null;
			}
			const done = this.helpers.createDeferredPromise<IRun>();
			this.emit([this.helpers.returnJsonArray(stampRun(batch))], undefined, done);
			let run: IRun | undefined;
			if (!(await waitFor(done.promise.then((settled) => (run = settled))))) {
				this.logger.warn(
					`CRM Trigger: n8n did not report the catch-up's execution of ${batch.length} change(s) as run; the next catch-up reads them again`,
				);
				return false;
			}
			// a change the failed execution could not emit has its claim back (execute()): read again
			// and emitted; what it did emit stays claimed and stops at the trigger
			if (failed(run)) {
				this.logger.warn(
					`CRM Trigger: the catch-up's execution of ${batch.length} change(s) failed; the next catch-up reads them again`,
				);
				return false;
			}
			this.logger.info(`CRM Trigger: caught up on ${batch.length} change(s)`);
		}
		Object.assign(cursors, moved);
		batch = [];
		moved = {};
		return true;
	};
	// the streams in turn, a share each per round: a backlog of one stream (a restarted main re-reads
	// what it read before its last save) does not keep another's missed changes waiting past the budget
	const share = Math.max(PAGE_SIZE, Math.ceil(CATCH_UP_BATCH / streams.length));
	let going = true;
	const live = () => going && !isClosed() && Date.now() < deadline;
	let active = streams;
	while (active.length > 0 && live()) {
		const more: typeof streams = [];
		for (const { module, operation, stream } of active) {
			if (!live()) break;
			const read = await readStream.call(
				this,
				module,
				operation,
				moved[stream] ?? cursors[stream],
				bound,
				Math.min(share, CATCH_UP_BATCH - batch.length),
			);
			batch.push(...read.items);
			moved[stream] = read.cursor;
			if (read.more) more.push({ module, operation, stream });
			if (batch.length >= CATCH_UP_BATCH) going = await flush();
		}
		active = more;
	}
	if (going && !isClosed()) await flush();
}
