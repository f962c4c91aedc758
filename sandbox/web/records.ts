// The record pages: a module's list (search, paging), a record's page (edit, delete, its blueprint
// state and transitions) and the new-record form. Every read and write is the API's operation
// (api.ts); a refused write shows the service's error and keeps what was typed.
import type { ModuleDef } from '../catalogue/modules.ts';
import { recordName } from '../records.ts';
import type { Json } from '../store.ts';
import { callApi, firstItem } from './api.ts';
import type { ApiAnswer } from './api.ts';
import { changesOf, Choices, editable, fieldInput, formValue, shown } from './fields.ts';
import { errorBox, form, h, layout } from './html.ts';
import type { Html } from './html.ts';
import type { PageCtx, PageReply, PageRoute } from './index.ts';

const PER_PAGE = 20;
/** Field types a list shows besides the record's name. */
const LISTED = new Set(['text', 'email', 'phone', 'picklist', 'currency', 'date', 'lookup']);

const DONE: Record<string, string> = {
	created: 'Record created.',
	updated: 'Record saved.',
	unchanged: 'Nothing changed.',
	deleted: 'Record deleted.',
	transition: 'Transition done.',
};

function moduleOf(ctx: PageCtx, name: string): ModuleDef | undefined {
	const module = ctx.sandbox.module(name);
	return module && module.api_supported ? module : undefined;
}

function notFound(ctx: PageCtx, what: string): PageReply {
	return { status: 404, html: layout(ctx.frame('Not found'), h`<h1>Not found</h1><p>${what}</p>`) };
}

const flash = (ctx: PageCtx) => {
	const done = DONE[ctx.url.searchParams.get('done') ?? ''];
	return done ? h`<div class="ok" role="status">${done}</div>` : '';
};

/** The error item of a refused answer, or undefined when the call succeeded. */
function refusal(answer: ApiAnswer): Json | undefined {
	const item = firstItem(answer);
	if (answer.status >= 400 || item?.status === 'error') return item ?? answer.body;
	return undefined;
}

async function listPage(ctx: PageCtx, [name]: string[]): Promise<PageReply> {
	const module = moduleOf(ctx, name);
	if (!module) return notFound(ctx, `There is no module ${name}.`);
	const word = (ctx.url.searchParams.get('q') ?? '').trim();
	const page = Math.max(1, Number(ctx.url.searchParams.get('page')) || 1);
	const query = `page=${page}&per_page=${PER_PAGE}`;
	const answer = await callApi(
		ctx.sandbox,
		'GET',
		word
			? `/${module.api_name}/search?word=${encodeURIComponent(word)}&${query}`
			: `/${module.api_name}?${query}`,
	);
	const error = answer.status >= 400 ? answer.body : undefined;
	const records: Json[] = answer.status === 200 ? answer.body.data : [];
	const more = answer.status === 200 && answer.body.info?.more_records === true;
	const columns = module.fields
		.filter((f) => f.api_name !== module.display_field && !f.read_only && LISTED.has(f.data_type))
		.slice(0, 4);
	const pageLink = (p: number, text: string) =>
		h`<a href="/ui/modules/${module.api_name}?${new URLSearchParams({ ...(word ? { q: word } : {}), page: String(p) }).toString()}">${text}</a>`;
	return {
		html: layout(
			ctx.frame(module.plural_label, module.api_name),
			h`<h1>${module.plural_label}</h1>${flash(ctx)}
<form method="get" action="/ui/modules/${module.api_name}"><input type="search" name="q" value="${word}" placeholder="Search ${module.plural_label}" aria-label="Search"> <button type="submit">Search</button>${word ? h` <a href="/ui/modules/${module.api_name}">clear</a>` : ''}</form>
${module.creatable ? h`<p><a href="/ui/modules/${module.api_name}/new">New ${module.singular_label}</a></p>` : ''}
${error ? errorBox(error) : ''}
<table><thead><tr><th>${module.fields.find((f) => f.api_name === module.display_field)?.field_label ?? 'Name'}</th>${columns.map((c) => h`<th>${c.field_label}</th>`)}</tr></thead><tbody>
${records.map((r) => h`<tr><td><a href="/ui/modules/${module.api_name}/${String(r.id)}">${recordName(module, r) || String(r.id)}</a></td>${columns.map((c) => h`<td>${shown(r[c.api_name])}</td>`)}</tr>`)}
</tbody></table>
${records.length === 0 && !error ? h`<p class="muted">No records${word ? h` match “${word}”` : ''}.</p>` : ''}
<p>${page > 1 ? pageLink(page - 1, '← previous') : ''} page ${page} ${more ? pageLink(page + 1, 'next →') : ''}</p>`,
		),
	};
}

/** The record form: editable fields with `values`, then the fields shown only. */
async function recordForm(
	ctx: PageCtx,
	module: ModuleDef,
	action: string,
	values: (api: string) => string[],
	record: Json | undefined,
	submit: string,
): Promise<Html> {
	const choices = new Choices(ctx.sandbox);
	const inputs: Html[] = [];
	for (const field of module.fields.filter(editable))
		inputs.push(h`<div>${await fieldInput(field, values(field.api_name), choices)}</div>`);
	const frame = ctx.frame(module.singular_label);
	const readOnly = record
		? module.fields.filter((f) => !editable(f) && record[f.api_name] !== undefined)
		: [];
	return h`${form(frame, action, h`<div class="grid">${inputs}</div><button type="submit">${submit}</button>`, 'class="record"')}
${readOnly.length ? h`<div class="box"><table>${readOnly.map((f) => h`<tr><th>${f.field_label}</th><td>${shown(record![f.api_name])}</td></tr>`)}</table></div>` : ''}`;
}

async function newPage(ctx: PageCtx, [name]: string[], error?: Json): Promise<PageReply> {
	const module = moduleOf(ctx, name);
	if (!module) return notFound(ctx, `There is no module ${name}.`);
	const posted = error !== undefined;
	const body = await recordForm(
		ctx,
		module,
		`/ui/modules/${module.api_name}`,
		(api) => (posted ? ctx.form.getAll(api) : ['']),
		undefined,
		'Create',
	);
	return {
		status: error ? 400 : 200,
		html: layout(
			ctx.frame(`New ${module.singular_label}`, module.api_name),
			h`<h1>New ${module.singular_label}</h1>${error ? errorBox(error) : ''}${body}`,
		),
	};
}

async function create(ctx: PageCtx, params: string[]): Promise<PageReply> {
	const module = moduleOf(ctx, params[0]);
	if (!module) return notFound(ctx, `There is no module ${params[0]}.`);
	const answer = await callApi(ctx.sandbox, 'POST', `/${module.api_name}`, {
		data: [changesOf(module, ctx.form)],
	});
	const error = refusal(answer);
	if (error) return await newPage(ctx, params, error);
	const id = String(firstItem(answer).details.id);
	return { redirect: `/ui/modules/${module.api_name}/${id}?done=created` };
}

/** The blueprint box: the process, the record's state and a form per transition offered. */
async function blueprintBox(ctx: PageCtx, module: ModuleDef, id: string): Promise<Html> {
	const answer = await callApi(ctx.sandbox, 'GET', `/${module.api_name}/${id}/actions/blueprint`);
	if (answer.status !== 200)
		return h`<div class="box"><h2>Blueprint</h2><p class="muted">${answer.body?.code === 'RECORD_NOT_IN_PROCESS' ? 'The record is in no blueprint: its fields change freely.' : String(answer.body?.message ?? '')}</p></div>`;
	const { process_info: info, transitions } = answer.body.blueprint as {
		process_info: Json;
		transitions: Json[];
	};
	const choices = new Choices(ctx.sandbox);
	const frame = ctx.frame('');
	const forms: Html[] = [];
	for (const t of transitions) {
		const inputs: Html[] = [];
		for (const tf of t.fields as Json[]) {
			const field = module.fields.find((f) => f.api_name === tf.api_name);
			if (field)
				inputs.push(
					await fieldInput(
						{ ...field, mandatory: tf.mandatory === true },
						formValue(field, (t.data as Json | undefined)?.[field.api_name]),
						choices,
					),
				);
		}
		forms.push(
			h`<div class="box"><strong>${String(t.name)}</strong> → ${String(t.next_field_value)}${t.criteria_matched === false ? h` <span class="muted">(${String(t.criteria_message ?? 'criteria not met')})</span>` : ''}${form(frame, `/ui/modules/${module.api_name}/${id}/transition`, h`<input type="hidden" name="transition_id" value="${String(t.id)}">${inputs}<button type="submit">${String(t.name)}</button>`)}</div>`,
		);
	}
	return h`<div class="box"><h2>Blueprint: ${String(info.name)}</h2><p>State (${String(info.field_label)}): <strong>${String(info.field_value ?? '')}</strong>. The field changes through a transition only.</p>${forms.length ? forms : h`<p class="muted">No transition from this state.</p>`}</div>`;
}

async function recordPage(ctx: PageCtx, [name, id]: string[], error?: Json): Promise<PageReply> {
	const module = moduleOf(ctx, name);
	if (!module) return notFound(ctx, `There is no module ${name}.`);
	const answer = await callApi(ctx.sandbox, 'GET', `/${module.api_name}/${id}`);
	if (answer.status !== 200) {
		return {
			status: 404,
			html: layout(
				ctx.frame(module.singular_label, module.api_name),
				h`<h1>${module.singular_label} ${id}</h1>${answer.status === 204 ? h`<p>No such record.</p>` : errorBox(answer.body)}`,
			),
		};
	}
	const record: Json = answer.body.data[0];
	const posted = error !== undefined && ctx.form.has('_csrf') && !ctx.form.has('transition_id');
	const frame = ctx.frame(
		`${module.singular_label}: ${recordName(module, record)}`,
		module.api_name,
	);
	const body = await recordForm(
		ctx,
		module,
		`/ui/modules/${module.api_name}/${id}`,
		(api) =>
			posted
				? ctx.form.getAll(api)
				: formValue(module.fields.find((f) => f.api_name === api)!, record[api]),
		record,
		'Save',
	);
	return {
		status: error ? 400 : 200,
		html: layout(
			frame,
			h`<p><a href="/ui/modules/${module.api_name}">← ${module.plural_label}</a></p><h1>${module.singular_label}: ${recordName(module, record)}</h1>${flash(ctx)}${error ? errorBox(error) : ''}
${body}${await blueprintBox(ctx, module, id)}
${module.deletable ? form(frame, `/ui/modules/${module.api_name}/${id}/delete`, h`<button type="submit" class="danger">Delete this ${module.singular_label}</button>`) : ''}`,
		),
	};
}

async function update(ctx: PageCtx, params: string[]): Promise<PageReply> {
	const [name, id] = params;
	const module = moduleOf(ctx, name);
	if (!module) return notFound(ctx, `There is no module ${name}.`);
	const current = await callApi(ctx.sandbox, 'GET', `/${module.api_name}/${id}`);
	if (current.status !== 200) return await recordPage(ctx, params);
	const changes = changesOf(module, ctx.form, current.body.data[0]);
	if (Object.keys(changes).length === 0)
		return { redirect: `/ui/modules/${module.api_name}/${id}?done=unchanged` };
	const answer = await callApi(ctx.sandbox, 'PUT', `/${module.api_name}/${id}`, {
		data: [changes],
	});
	const error = refusal(answer);
	if (error) return await recordPage(ctx, params, error);
	return { redirect: `/ui/modules/${module.api_name}/${id}?done=updated` };
}

async function remove(ctx: PageCtx, params: string[]): Promise<PageReply> {
	const [name, id] = params;
	const module = moduleOf(ctx, name);
	if (!module) return notFound(ctx, `There is no module ${name}.`);
	const answer = await callApi(ctx.sandbox, 'DELETE', `/${module.api_name}/${id}`);
	const error = refusal(answer);
	if (error) return await recordPage(ctx, params, error);
	return { redirect: `/ui/modules/${module.api_name}?done=deleted` };
}

async function transition(ctx: PageCtx, params: string[]): Promise<PageReply> {
	const [name, id] = params;
	const module = moduleOf(ctx, name);
	if (!module) return notFound(ctx, `There is no module ${name}.`);
	const answer = await callApi(ctx.sandbox, 'PUT', `/${module.api_name}/${id}/actions/blueprint`, {
		blueprint: [
			{ transition_id: ctx.form.get('transition_id') ?? '', data: changesOf(module, ctx.form) },
		],
	});
	const error = refusal(answer);
	if (error) return await recordPage(ctx, params, error);
	return { redirect: `/ui/modules/${module.api_name}/${id}?done=transition` };
}

const MODULE = '([A-Za-z0-9_]+)';
const ID = '(\\d+)';
const path = (...parts: string[]) => new RegExp(`^/ui/modules/${parts.join('/')}$`);

export const recordRoutes: PageRoute[] = [
	{ method: 'GET', path: path(MODULE), handler: listPage },
	{ method: 'POST', path: path(MODULE), handler: create },
	{ method: 'GET', path: path(MODULE, 'new'), handler: async (ctx, p) => await newPage(ctx, p) },
	{ method: 'GET', path: path(MODULE, ID), handler: async (ctx, p) => await recordPage(ctx, p) },
	{ method: 'POST', path: path(MODULE, ID), handler: update },
	{ method: 'POST', path: path(MODULE, ID, 'delete'), handler: remove },
	{ method: 'POST', path: path(MODULE, ID, 'transition'), handler: transition },
];
