// Taxes (docs/protocol.md §5.9): GetTaxes, CreateTaxes, UpdateTaxes, DeleteTaxes, GetTax, DeleteTax.
// Reads carry the organisation's tax `preference` next to `taxes`. Taxes are kept in
// `sequence_number` order 1..n: a create or update naming a position moves the tax there and
// renumbers the others; a position outside 1..n (n+1 for a create) or repeated within one request
// is refused. Codes of the tax group only (§11): MANDATORY_NOT_FOUND, INVALID_DATA.
import { errorItem } from '../errors.ts';
import type { ErrorBody } from '../errors.ts';
import type { Ctx, Reply, Router } from '../router.ts';
import { operation } from '../router.ts';
import type { Sandbox } from '../types.ts';
import { eachItem, isBlank, itemErrors, resultsReply, seedOnce, successItem } from './shared.ts';
import type { ItemOutcome } from './shared.ts';
import type { Json } from '../store.ts';
import { idsParam, wrapperList } from '../wire.ts';

// Taxes: `CRM.org.ALL` or `CRM.settings.ALL` (§2.3, assumed)
const SCOPES = [['CRM.org.ALL', 'CRM.settings.ALL']];
const TAXES = 'taxes';
const PREFERENCE = 'tax_preference';

interface TaxDoc extends Json {
	id: string;
	name: string;
	display_label: string;
	value: number;
	sequence_number: number;
}

const label = (name: string, value: number) => `${name} - ${value} %`;

function seedTaxes(sandbox: Sandbox): void {
	const seed: Array<[string, string, number]> = [
		['4876876000000381001', 'Sales Tax', 8.25],
		['4876876000000381003', 'VAT', 20],
		['4876876000000381005', 'Service Tax', 5],
	];
	seed.forEach(([id, name, value], i) => {
		sandbox.store.putDoc(TAXES, id, {
			id,
			name,
			display_label: label(name, value),
			value,
			sequence_number: i + 1,
		});
	});
	sandbox.store.putDoc(PREFERENCE, 'org', { modify_tax_rates: true, auto_populate_tax: false });
}

const taxes = (sandbox: Sandbox) =>
	sandbox.store.docs<TaxDoc>(TAXES).sort((a, b) => a.sequence_number - b.sequence_number);

function preference(sandbox: Sandbox): Json {
	const doc = sandbox.store.doc<Json>(PREFERENCE, 'org') ?? {
		modify_tax_rates: true,
		auto_populate_tax: false,
	};
	return {
		modify_tax_rates: doc.modify_tax_rates === true,
		auto_populate_tax: doc.auto_populate_tax === true,
	};
}

/** Stores `list` in its order as sequence 1..n. */
function renumber(sandbox: Sandbox, list: TaxDoc[]): void {
	list.forEach((tax, i) => sandbox.store.putDoc(TAXES, tax.id, { ...tax, sequence_number: i + 1 }));
}

const fail = itemErrors('taxes');

/** Sequence numbers given more than once in the request (refused on every item naming them). */
function repeatedSequences(items: unknown[]): Set<unknown> {
	const seen = new Set<unknown>();
	const repeated = new Set<unknown>();
	for (const item of items) {
		const seq = item && typeof item === 'object' ? (item as Json).sequence_number : undefined;
		if (seq === undefined || seq === null) continue;
		if (seen.has(seq)) repeated.add(seq);
		seen.add(seq);
	}
	return repeated;
}

interface Checked {
	name?: string;
	value?: number;
	sequence?: number;
}

function checkTax(
	ctx: Ctx,
	index: number,
	input: Json,
	creating: boolean,
	repeated: Set<unknown>,
	count: number,
): Checked | ErrorBody {
	if (creating) {
		if (isBlank(input.name))
			return fail(ctx, index, 'MANDATORY_NOT_FOUND', 'name', 'required field not found');
		if (input.value === undefined || input.value === null)
			return fail(ctx, index, 'MANDATORY_NOT_FOUND', 'value', 'required field not found');
	}
	const out: Checked = {};
	if (input.name !== undefined) {
		if (typeof input.name !== 'string' || input.name.trim() === '')
			return fail(ctx, index, 'INVALID_DATA', 'name', 'invalid data', {
				expected_data_type: 'string',
			});
		if (input.name.trim().length > 50)
			return fail(ctx, index, 'INVALID_DATA', 'name', 'invalid data', { maximum_length: 50 });
		out.name = input.name.trim();
	}
	if (input.value !== undefined) {
		if (typeof input.value !== 'number' || !Number.isFinite(input.value)) {
			return fail(ctx, index, 'INVALID_DATA', 'value', 'invalid data', {
				expected_data_type: 'double',
			});
		}
		if (input.value < 0 || input.value > 100)
			return fail(ctx, index, 'INVALID_DATA', 'value', 'the tax value must be between 0 and 100', {
				value: input.value,
			});
		out.value = input.value;
	}
	if (input.sequence_number !== undefined && input.sequence_number !== null) {
		const seq = input.sequence_number;
		if (typeof seq !== 'number' || !Number.isInteger(seq)) {
			return fail(ctx, index, 'INVALID_DATA', 'sequence_number', 'invalid data', {
				expected_data_type: 'integer',
			});
		}
		if (repeated.has(seq))
			return fail(
				ctx,
				index,
				'INVALID_DATA',
				'sequence_number',
				'sequence number cannot be repeated in the same request',
			);
		const max = creating ? count + 1 : count;
		if (seq < 1 || seq > max)
			return fail(ctx, index, 'INVALID_DATA', 'sequence_number', 'sequence number out of range');
		out.sequence = seq;
	}
	return out;
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** CreateTaxes / UpdateTaxes: each `taxes[]` object through `write`; a sequence number given twice is refused on every item naming it. */
function writeTaxes(
	ctx: Ctx,
	status: number,
	write: (input: Json, index: number, repeated: Set<unknown>) => ItemOutcome,
): Reply {
	const items = wrapperList(ctx, 'taxes', 100);
	const repeated = repeatedSequences(items);
	const results = eachItem(ctx, items, (raw, index) => {
		if (!raw || typeof raw !== 'object' || Array.isArray(raw))
			return fail(ctx, index, 'INVALID_DATA', 'taxes', 'invalid data');
		return write(raw as Json, index, repeated);
	});
	return resultsReply('taxes', status, results);
}

const opts = { scopes: SCOPES };

function deleteOne(sandbox: Sandbox, id: string): Json {
	const { store } = sandbox;
	const existing = store.doc<TaxDoc>(TAXES, id);
	if (!existing) return errorItem('INVALID_DATA', { id }, 'given ID does not exist');
	store.deleteDoc(TAXES, id);
	renumber(sandbox, taxes(sandbox));
	return successItem(id, 'tax deleted');
}

export const getTaxes = operation('GET', '/org/taxes', opts, (ctx) => ({
	body: { preference: preference(ctx.sandbox), taxes: taxes(ctx.sandbox) },
}));

const getTax = operation('GET', '/org/taxes/:id', opts, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const tax = store.doc<TaxDoc>(TAXES, ctx.params.id);
	return tax ? { body: { preference: preference(sandbox), taxes: [tax] } } : { status: 204 };
});

const createTaxes = operation('POST', '/org/taxes', opts, (ctx) =>
	writeTaxes(ctx, 201, (input, index, repeated) => {
		const list = taxes(ctx.sandbox);
		const checked = checkTax(ctx, index, input, true, repeated, list.length);
		if ('status' in checked) return checked;
		if (list.some((t) => sameName(t.name, checked.name!))) {
			return fail(ctx, index, 'INVALID_DATA', 'name', 'a tax with the same name already exists', {
				name: checked.name,
			});
		}
		const tax: TaxDoc = {
			id: ctx.sandbox.store.nextId(),
			name: checked.name!,
			display_label: label(checked.name!, checked.value!),
			value: checked.value!,
			sequence_number: list.length + 1,
		};
		const position = (checked.sequence ?? list.length + 1) - 1;
		renumber(ctx.sandbox, [...list.slice(0, position), tax, ...list.slice(position)]);
		return successItem(tax.id, 'tax added');
	}),
);

const updateTaxes = operation('PUT', '/org/taxes', opts, (ctx) =>
	writeTaxes(ctx, 200, (input, index, repeated) => {
		const id =
			typeof input.id === 'string' || typeof input.id === 'number' ? String(input.id) : undefined;
		if (!id) return fail(ctx, index, 'MANDATORY_NOT_FOUND', 'id', 'required field not found');
		const list = taxes(ctx.sandbox);
		const existing = list.find((t) => t.id === id);
		if (!existing) return fail(ctx, index, 'INVALID_DATA', 'id', 'given ID does not exist', { id });
		const checked = checkTax(ctx, index, input, false, repeated, list.length);
		if ('status' in checked) return checked;
		if (
			checked.name !== undefined &&
			list.some((t) => t.id !== id && sameName(t.name, checked.name!))
		) {
			return fail(ctx, index, 'INVALID_DATA', 'name', 'a tax with the same name already exists', {
				name: checked.name,
			});
		}
		const name = checked.name ?? existing.name;
		const value = checked.value ?? existing.value;
		const next: TaxDoc = { ...existing, name, value, display_label: label(name, value) };
		const others = list.filter((t) => t.id !== id);
		const position = (checked.sequence ?? existing.sequence_number) - 1;
		renumber(ctx.sandbox, [...others.slice(0, position), next, ...others.slice(position)]);
		return successItem(id, 'record updated');
	}),
);

const deleteTaxes = operation('DELETE', '/org/taxes', opts, (ctx) => {
	const ids = idsParam(ctx, 'ids', 100, true)!;
	const results = eachItem(ctx, ids, (id) => deleteOne(ctx.sandbox, id));
	return resultsReply('taxes', 200, results);
});

const deleteTax = operation('DELETE', '/org/taxes/:id', opts, (ctx) => {
	const { store } = ctx.sandbox;
	const results = store.transaction(() => [deleteOne(ctx.sandbox, ctx.params.id)]);
	return resultsReply('taxes', 200, results);
});

export function registerTaxes(router: Router, sandbox: Sandbox): void {
	seedOnce(sandbox, 'taxes', seedTaxes);
	router.register([getTaxes, getTax, createTaxes, updateTaxes, deleteTaxes, deleteTax]);
}
