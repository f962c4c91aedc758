import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { deepCopy, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { fetchRecords } from '../shared/records/fetch';
import {
	allOrAnyOption,
	conditionsCollection,
	conditionValues,
} from '../shared/description/collections';
import { getModules, getReadableFields } from '../shared/methods/loadOptions';
import { optionsCollection } from '../shared/description/optionsCollection';
import { changesStart, crmTime, deletedStart, newest } from '../shared/changes/changeStream';
import type { StreamCursor } from '../shared/changes/changeStream';
import type { PollState } from './cursor';
import { enterPoll, leavePoll } from './overlap';
import {
	fieldNames,
	filterCondition,
	latestDeleted,
	sortChanges,
	walkChanges,
	walkDeleted,
} from './readChanges';
import type { Change, Condition, PollEvent, WalkSettings } from './readChanges';
import { getParameter } from '../shared/parameters';

/** n8n's default poll time budget (pollTimeoutSeconds); a poll stops reading well before it. */
const POLL_BUDGET_MS = 45_000;
/** Share of the budget spent reading pages; the rest is left for the last page and handing the items over. */
const READ_SHARE = 0.7;

type Stream = 'Created_Time' | 'Modified_Time' | 'deleted';

const STREAMS: Record<PollEvent, Stream[]> = {
	created: ['Created_Time'],
	updated: ['Modified_Time'],
	createdOrUpdated: ['Modified_Time'],
	deleted: ['deleted'],
	any: ['Modified_Time', 'deleted'],
};

const EVENT_NAMES: Record<PollEvent, string> = {
	created: 'Record Created',
	updated: 'Record Updated',
	createdOrUpdated: 'Record Created or Updated',
	deleted: 'Record Deleted',
	any: 'Any Change',
};

interface PollOptions {
	fields?: string[] | string;
	startFrom?: string;
}

export class CrmPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'CRM Polling Trigger',
		name: 'crmPollingTrigger',
		icon: {
			light: 'file:../../icons/crmPollingTrigger.svg',
			dark: 'file:../../icons/crmPollingTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: `={{ (${JSON.stringify(EVENT_NAMES)})[$parameter["event"]] + " in " + ($parameter["modules"] || []).join(", ") }}`,
		description:
			'Polling — works anywhere: checks the CRM for created, updated or deleted records on a schedule. No public URL needed.',
		eventTriggerDescription: '',
		polling: true,
		// n8n's node panel drops " Trigger" from a trigger with events ("CRM Polling"): the node takes
		// that name on the canvas too, so the panel and the workflow show one name
		defaults: { name: 'CRM Polling' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'crmOAuth2Api', required: true }],
		properties: [
			{
				displayName:
					'Checks the CRM on the schedule above (Poll Times), so it works where the CRM cannot reach n8n (laptop, office network, VPN). For changes within seconds where n8n has a public URL, use the CRM Trigger instead.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Any Change', value: 'any', description: 'Created, updated or deleted' },
					{ name: 'Record Created', value: 'created' },
					{ name: 'Record Created or Updated', value: 'createdOrUpdated' },
					{ name: 'Record Deleted', value: 'deleted' },
					{ name: 'Record Updated', value: 'updated' },
				],
				default: 'createdOrUpdated',
			},
			{
				displayName: 'Module Names or IDs',
				name: 'modules',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getModules' },
				default: [],
				required: true,
				description:
					'Modules to watch, standard or custom. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Only When These Fields Change (Names or IDs)',
				name: 'watchFields',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getReadableFields', loadOptionsDependsOn: ['modules'] },
				default: [],
				displayOptions: { show: { event: ['updated', 'createdOrUpdated', 'any'] } },
				description:
					'An update starts the workflow only when one of these fields changed; the item then lists them with their old values. Empty: any change. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			allOrAnyOption('Combine Filter', 'combine', { hide: { event: ['deleted'] } }),
			{
				...conditionsCollection(
					'Only records matching these conditions (at most 10). Deleted records are not filtered: their fields are gone.',
					{ hide: { event: ['deleted'] } },
					conditionValues('getReadableFields', ['modules']),
				),
				displayName: 'Filter',
			},
			optionsCollection([
				{
					displayName: 'Fields to Return (Names or IDs)',
					name: 'fields',
					type: 'multiOptions',
					typeOptions: {
						loadOptionsMethod: 'getReadableFields',
						loadOptionsDependsOn: ['modules'],
					},
					default: [],
					description:
						'Fields of each record in the output; all when empty. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
				{
					displayName: 'Start From',
					name: 'startFrom',
					type: 'dateTime',
					default: '',
					description:
						'Emit the changes made since this time at the first poll (backfill). Without it the first poll starts from now and emits nothing.',
				},
			]),
		],
	};

	methods = { loadOptions: { getModules, getReadableFields } };

	/**
	 * One poll: for each module, the changes since its cursor, oldest first (docs/production.md
	 * "How the CRM Polling Trigger reads every change once"). The cursor is the CRM's own time of the last change read (never n8n's clock) plus
	 * the keys already emitted at that second; it lives in the node's static data, which n8n saves
	 * with the poll. Fetch Test Event ('manual') shows the latest matching change and moves nothing.
	 */
	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const modules = fieldNames(this, getParameter(this, 'modules', 0, []), 'Modules');
		if (modules.length === 0)
			throw new NodeOperationError(this.getNode(), 'Choose at least one module in Modules');
		const event = getParameter(this, 'event', 0, 'createdOrUpdated') as PollEvent;
		if (!(event in STREAMS))
			throw new NodeOperationError(this.getNode(), `Event: unknown event "${event}"`);
		const options = getParameter(this, 'options', 0, {}) as PollOptions;
		const filterable = event !== 'deleted';
		const settings: WalkSettings = {
			event,
			filter: filterable
				? filterCondition(
						this,
						(getParameter(this, 'conditions.condition', 0, []) as Condition[]) ?? [],
						getParameter(this, 'combine', 0, 'and') as 'and' | 'or',
					)
				: '',
			fields: fieldNames(this, options.fields, 'Fields to Return'),
			watch: ['updated', 'createdOrUpdated', 'any'].includes(event)
				? fieldNames(
						this,
						getParameter(this, 'watchFields', 0, []),
						'Only When These Fields Change',
					)
				: [],
			deadline: 0,
		};
		let startFrom: number | undefined;
		if (options.startFrom) {
			startFrom = crmTime(options.startFrom);
			if (!Number.isFinite(startFrom))
				throw new NodeOperationError(
					this.getNode(),
					`Start From: "${options.startFrom}" is not a date and time`,
				);
		}
		if (this.getMode() === 'manual') return await testEvent.call(this, modules, event, settings);

		// a poll started while the previous one of this node still runs would read the same changes
		const key = `${this.getWorkflow().id ?? ''}|${this.getNode().id}`;
		const since = Date.now();
		if (!enterPoll(key, since)) {
			this.logger.info(
				'CRM Polling: the previous poll of this node is still running; this one reads nothing',
			);
			return null;
		}
		try {
			return await pollChanges.call(this, modules, event, settings, startFrom);
		} finally {
			leavePoll(key, since);
		}
	}
}

/** The changes since each module's cursor, the cursor moved past them (static data). */
async function pollChanges(
	this: IPollFunctions,
	modules: string[],
	event: PollEvent,
	settings: WalkSettings,
	startFrom: number | undefined,
): Promise<INodeExecutionData[][] | null> {
	const budget =
		typeof this.getPollBudgetMs === 'function'
			? Math.min(this.getPollBudgetMs(), POLL_BUDGET_MS)
			: POLL_BUDGET_MS;
	settings.deadline = Date.now() + budget * READ_SHARE;
	const state = this.getWorkflowStaticData('node') as PollState;
	state.streams ??= {};
	// no cursor yet: the one the publishing poll set, if n8n threw that poll's static data away
	const keepStart =
		Object.keys(state.streams).length === 0 &&
		startFrom === undefined &&
		!takeActivationStart(this, state);
	const changes: Change[] = [];
	let walked = 0;
	for (const module of modules) {
		let reference: Awaited<ReturnType<typeof newest>> | null | undefined;
		for (const stream of STREAMS[event]) {
			const key = `${module}|${stream}`;
			let cursor: StreamCursor | undefined = state.streams[key];
			// a changed Start From starts the stream again from there
			if (cursor && startFrom !== undefined && cursor.from !== startFrom) cursor = undefined;
			if (!cursor) {
				if (startFrom !== undefined) cursor = { time: startFrom, seen: [], from: startFrom };
				else {
					// first activation: from the module's latest change on the CRM's clock; nothing emitted
					if (reference === undefined)
						reference = (await newest.call(this, module, 'Modified_Time', '')) ?? null;
					if (stream === 'deleted')
						state.streams[key] = await deletedStart.call(this, module, reference?.time ?? 0);
					else {
						const row =
							stream === 'Modified_Time' ? reference : await newest.call(this, module, stream, '');
						state.streams[key] = await changesStart.call(this, module, stream, row ?? undefined);
					}
					continue;
				}
			}
			// out of time: the remaining streams wait for the next poll (the first one always reads, so every poll progresses)
			if (walked > 0 && Date.now() >= settings.deadline) {
				state.streams[key] = cursor;
				continue;
			}
			walked++;
			const result =
				stream === 'deleted'
					? await walkDeleted.call(this, state, module, cursor)
					: await walkChanges.call(this, state, module, stream, cursor, settings);
			state.streams[key] = {
				...result.cursor,
				...(cursor.from !== undefined ? { from: cursor.from } : {}),
			};
			changes.push(...result.changes);
		}
	}
	if (keepStart)
		this.getWorkflowStaticData('global')[activationStartKey(this)] = deepCopy(state.streams);
	if (changes.length === 0) return null;
	return [sortChanges(changes).map((change) => ({ json: change.json }))];
}

/**
 * Where the node starts when it has no cursor yet. With n8n's scheduler on, the poll n8n runs on
 * publishing is a test poll whose node static data is thrown away, so the first scheduled poll
 * would start from "now" again and miss the changes made in between (up to one interval). The
 * starting cursors are therefore also kept in the workflow's global static data, which n8n saves
 * when publishing ends, and the first scheduled poll (activation mode 'update') starts from them.
 * docs/production.md "How the CRM Polling Trigger reads every change once", publishing with the scheduler on.
 */
const activationStartKey = (ctx: IPollFunctions) => `crmPollingTriggerStart:${ctx.getNode().id}`;

function takeActivationStart(ctx: IPollFunctions, state: PollState): boolean {
	const kept = ctx.getWorkflowStaticData('global');
	const start = kept[activationStartKey(ctx)] as PollState['streams'] | undefined;
	if (ctx.getActivationMode() !== 'update' || !start) return false;
	state.streams = deepCopy(start);
	delete kept[activationStartKey(ctx)];
	return true;
}

/** Fetch Test Event: the latest matching change over the modules, as a poll would emit it. */
async function testEvent(
	this: IPollFunctions,
	modules: string[],
	event: PollEvent,
	settings: WalkSettings,
): Promise<INodeExecutionData[][]> {
	let best: Change | undefined;
	for (const module of modules) {
		for (const stream of STREAMS[event]) {
			let change: Change | undefined;
			if (stream === 'deleted') change = await latestDeleted.call(this, module);
			else {
				const row = await newest.call(this, module, stream, settings.filter);
				if (row) {
					const fields =
						settings.fields.length > 0
							? [...new Set([...settings.fields, 'Created_Time', 'Modified_Time'])].join(',')
							: undefined;
					const record = (await fetchRecords.call(this, module, [row.id], fields)).get(row.id);
					if (record) {
						const kind =
							stream === 'Created_Time' || row.created === row.time ? 'created' : 'updated';
						const shown: IDataObject =
							settings.fields.length > 0
								? Object.fromEntries([
										['id', record.id],
										...settings.fields.map((f) => [f, record[f] ?? null]),
									])
								: record;
						change = {
							time: row.time,
							module,
							id: row.id,
							json: {
								id: row.id,
								module,
								event: kind,
								time: record[stream] ?? null,
								record: shown,
							},
						};
					}
				}
			}
			if (change && (!best || change.time > best.time)) best = change;
		}
	}
	if (!best) {
		throw new NodeOperationError(
			this.getNode(),
			`No ${EVENT_NAMES[event].toLowerCase()} in ${modules.join(', ')} matches yet`,
			{
				description:
					'Create or change a matching record in the CRM, then fetch the test event again.',
			},
		);
	}
	return [[{ json: best.json }]];
}
