// Helpers shared by the blueprint operations (docs/protocol.md §5.8): the seeded process, process
// membership, the record guard, rendering a record's blueprint and checking transition data.
import type { ModuleDef } from '../../catalogue/modules.ts';
import type { JsonCriterion } from '../../criteria.ts';
import { criteriaFields, matchJsonCriteria } from '../../criteria.ts';
import type { ErrorBody } from '../../errors.ts';
import { HttpError, errorItem } from '../../errors.ts';
import type { StoredModule } from '../../metadata.ts';
import { fieldId, fieldJson } from '../../metadata.ts';
import type { Ctx } from '../../router.ts';
import type { Json, StoredRecord } from '../../store.ts';
import type { RecordGuard, Sandbox } from '../../types.ts';

interface TransitionDef {
	id: string;
	name: string;
	from: string[];
	to: string;
	/** fields asked during the transition */
	fields: Array<{ api_name: string; mandatory: boolean }>;
	/** the transition is offered only when the record matches (criteria_matched) */
	criteria?: JsonCriterion;
	criteria_message?: string;
}

interface ProcessDoc {
	id: string;
	name: string;
	module: string;
	field: string;
	/** records matching it enter the process when created */
	entry_criteria: JsonCriterion;
	/** values of the process field while the process runs */
	open_states: string[];
	transitions: TransitionDef[];
}

interface ProcessRecordDoc {
	module: string;
	record_id: string;
	process_id: string;
	status: 'active' | 'completed';
	entered_time: string;
	history: Json[];
}

const OPEN_STATES = [
	'Qualification',
	'Needs Analysis',
	'Value Proposition',
	'Proposal/Price Quote',
	'Negotiation/Review',
];
const AMOUNT_SET: JsonCriterion = { field: 'Amount', comparator: 'greater_than', value: 0 };

type TransitionSeed = Omit<TransitionDef, 'id'>;

const TRANSITIONS: TransitionSeed[] = [
	{
		name: 'Qualify',
		from: ['Qualification'],
		to: 'Needs Analysis',
		fields: [{ api_name: 'Probability', mandatory: true }],
	},
	{
		name: 'Analyse Needs',
		from: ['Needs Analysis'],
		to: 'Value Proposition',
		fields: [{ api_name: 'Next_Step', mandatory: true }],
	},
	{
		name: 'Send Proposal',
		from: ['Value Proposition'],
		to: 'Proposal/Price Quote',
		fields: [
			{ api_name: 'Amount', mandatory: true },
			{ api_name: 'Closing_Date', mandatory: false },
		],
	},
	{
		name: 'Start Negotiation',
		from: ['Proposal/Price Quote'],
		to: 'Negotiation/Review',
		fields: [{ api_name: 'Next_Step', mandatory: false }],
		criteria: AMOUNT_SET,
		criteria_message: 'The deal needs an amount before negotiation',
	},
	{
		name: 'Close Won',
		from: ['Negotiation/Review'],
		to: 'Closed Won',
		fields: [{ api_name: 'Closing_Date', mandatory: true }],
		criteria: AMOUNT_SET,
		criteria_message: 'The deal needs an amount to be won',
	},
	{
		name: 'Close Lost',
		from: OPEN_STATES,
		to: 'Closed Lost',
		fields: [{ api_name: 'Description', mandatory: true }],
	},
];

export const membershipKey = (module: string, id: string) => `${module}:${id}`;

function processes(sandbox: Sandbox): ProcessDoc[] {
	return sandbox.store.docs<ProcessDoc>('blueprints');
}

export function processOf(sandbox: Sandbox, module: string): ProcessDoc | undefined {
	return processes(sandbox).find((p) => p.module === module);
}

/** The running process of a record, or undefined (never entered, or completed). */
export function runningProcess(
	sandbox: Sandbox,
	module: string,
	record: StoredRecord,
): { process: ProcessDoc; membership: ProcessRecordDoc } | undefined {
	const process = processOf(sandbox, module);
	if (!process) return undefined;
	const membership = sandbox.store.doc<ProcessRecordDoc>(
		'blueprint_records',
		membershipKey(module, record.id),
	);
	if (!membership || membership.status !== 'active' || membership.process_id !== process.id)
		return undefined;
	if (!process.open_states.includes(String(record[process.field]))) return undefined;
	return { process, membership };
}

export function enter(sandbox: Sandbox, process: ProcessDoc, record: StoredRecord): void {
	const key = membershipKey(process.module, record.id);
	if (sandbox.store.doc('blueprint_records', key)) return;
	if (!matchJsonCriteria(record, process.entry_criteria)) return;
	const doc: ProcessRecordDoc = {
		module: process.module,
		record_id: record.id,
		process_id: process.id,
		status: 'active',
		entered_time: sandbox.formatTime(),
		history: [],
	};
	sandbox.store.putDoc('blueprint_records', key, doc);
}

export function seedBlueprint(sandbox: Sandbox): void {
	const deals = sandbox.store.doc<StoredModule>('modules', 'Deals');
	if (!deals) return;
	const process: ProcessDoc = {
		id: sandbox.store.nextId(),
		name: 'Enterprise Deal Process',
		module: 'Deals',
		field: 'Stage',
		entry_criteria: {
			group_operator: 'and',
			group: [
				{ field: 'Pipeline', comparator: 'equal', value: 'Enterprise' },
				{ field: 'Stage', comparator: 'in', value: OPEN_STATES },
			],
		},
		open_states: OPEN_STATES,
		transitions: TRANSITIONS.map((t) => ({ ...t, id: sandbox.store.nextId() })),
	};
	for (const name of [
		process.field,
		...criteriaFields(process.entry_criteria),
		...TRANSITIONS.flatMap((t) => t.fields.map((f) => f.api_name)),
	]) {
		if (!deals.fields.some((f) => f.api_name === name))
			throw new Error(`blueprint seed names unknown field Deals.${name}`);
	}
	sandbox.store.putDoc('blueprints', process.id, process);
	for (const record of sandbox.store.iterateRecords('Deals')) enter(sandbox, process, record);
}

/** The guards blueprintGuard made (one per sandbox), so UpdateBlueprint can bypass its own. */
export const BLUEPRINT_GUARDS = new WeakSet<RecordGuard>();

/** Refuses plain updates that change the process field of a record in a running process. */
export function blueprintGuard(sandbox: Sandbox): RecordGuard {
	const guard: RecordGuard = (
		module: ModuleDef,
		existing: StoredRecord,
		changes: Json,
	): ErrorBody | undefined => {
		const process = processOf(sandbox, module.api_name);
		if (!process || !(process.field in changes)) return undefined;
		if (JSON.stringify(changes[process.field]) === JSON.stringify(existing[process.field]))
			return undefined;
		if (!runningProcess(sandbox, module.api_name, existing)) return undefined;
		return errorItem(
			'RECORD_IN_BLUEPRINT',
			{ api_name: process.field, id: existing.id },
			'the record is in a blueprint',
		);
	};
	BLUEPRINT_GUARDS.add(guard);
	return guard;
}

// ---- rendering --------------------------------------------------------------------------------

export function available(process: ProcessDoc, record: StoredRecord): TransitionDef[] {
	const state = String(record[process.field]);
	return process.transitions.filter((t) => t.from.includes(state));
}

export function transitionJson(
	module: StoredModule,
	process: ProcessDoc,
	t: TransitionDef,
	record: StoredRecord,
	v: string,
): Json {
	const matched = t.criteria ? matchJsonCriteria(record, t.criteria) : true;
	const data: Json = {};
	const fields = t.fields.map((tf, i) => {
		const index = module.fields.findIndex((f) => f.api_name === tf.api_name);
		data[tf.api_name] = record[tf.api_name] ?? null;
		return {
			...fieldJson(module, module.fields[index], index, v),
			mandatory: tf.mandatory,
			system_mandatory: tf.mandatory,
			transition_sequence: i + 1,
		};
	});
	return {
		id: t.id,
		name: t.name,
		type: 'manual',
		next_field_value: t.to,
		next_transitions: process.transitions
			.filter((n) => n.from.includes(t.to))
			.map((n) => ({ id: n.id, name: n.name })),
		parent_transition: null,
		execution_time: null,
		criteria_matched: matched,
		criteria_message: matched ? null : (t.criteria_message ?? null),
		percent_partial_save: 0,
		data,
		fields,
	};
}

export function processInfo(module: StoredModule, process: ProcessDoc, record: StoredRecord): Json {
	const index = module.fields.findIndex((f) => f.api_name === process.field);
	return {
		id: process.id,
		name: process.name,
		api_name: process.field,
		field_name: process.field,
		field_label: module.fields[index]?.field_label ?? process.field,
		field_id: fieldId(module, index),
		field_value: record[process.field] ?? null,
		column_name: process.field.toUpperCase(),
		escalation: null,
		continuous: false,
		is_continuous: false,
	};
}

// ---- routes -----------------------------------------------------------------------------------

export function recordOf(ctx: Ctx): StoredRecord {
	const record = ctx.sandbox.store.getRecord(ctx.module!.api_name, ctx.params.id);
	if (!record)
		throw new HttpError(
			'INVALID_DATA',
			ctx.v === 'v2.1' ? { id: ctx.params.id, resource_path_index: 1 } : { id: ctx.params.id },
			'the id given seems to be invalid',
		);
	return record;
}

export function notInProcess(ctx: Ctx, id: string): HttpError {
	return new HttpError(
		'RECORD_NOT_IN_PROCESS',
		ctx.v === 'v2.1' ? { id, resource_path_index: 1 } : { id },
		'the record is not in a process',
	);
}

export function validationError(
	ctx: Ctx,
	apiName: string,
	message: string,
	extra: Json = {},
): Json {
	return ctx.v === 'v2.1'
		? { api_name: apiName, message, index: 0, parent_api_name: null, info_message: null, ...extra }
		: { api_name: apiName, message, ...extra };
}

export const isEmpty = (v: unknown) =>
	v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
