// The tester's settings: the API limits of docs/protocol.md §7 on or off, the delivery retry
// policy (§9.5 defines none for the service) and the fault plan. The last two go through the test
// hooks' own operations (PUT /__sandbox/delivery-retries, PUT/DELETE /__sandbox/fault-plan).
import { timingSafeEqual } from 'node:crypto';

import type { FaultPlan } from '../faults.ts';
import { DELIVERY_RETRY_POLICIES } from '../sandbox.ts';
import type { Json } from '../store.ts';
import { callApi } from './api.ts';
import type { ApiAnswer } from './api.ts';
import { errorBox, form, h, Html, layout } from './html.ts';
import type { PageCtx, PageReply, PageRoute } from './index.ts';

type PlanInput = 'rate' | 'number' | 'boolean' | 'text';
/** The fault plan's settings as the page offers them (faults.ts `FaultPlan`): input and label. */
const PLAN_INPUTS: Partial<Record<keyof FaultPlan, [PlanInput, string]>> = {
	rate429: ['rate', 'share of API calls answered 429'],
	rate500: ['rate', 'share answered 500'],
	rate503: ['rate', 'share answered 503'],
	after: ['boolean', '5xx after the call took effect'],
	dropConnectionRate: ['rate', 'share of connections closed mid-answer'],
	delayMs: ['number', 'extra latency of every API call, ms'],
	dropDeliveryRate: ['rate', 'share of deliveries never sent'],
	duplicateDeliveryRate: ['rate', 'share of deliveries sent again after the first'],
	concurrentDuplicateRate: ['rate', 'share of deliveries sent twice at once'],
	lostResponseRate: ['rate', "share of receivers' answers lost, so retried"],
	deliveryTimeoutMs: ['number', 'delivery answer timeout, ms'],
	retryKeepsServerTime: ['boolean', "retries keep the first attempt's server_time"],
	pathIncludes: ['text', 'only API calls whose path contains'],
	seed: ['number', 'random seed'],
};
const PLAN_FIELDS = Object.entries(PLAN_INPUTS).map(([key, [type, label]]) => ({
	key: key as keyof FaultPlan,
	type,
	label: type === 'rate' ? `${label} (0–1)` : label,
}));

/** With a hook key (a sandbox beyond loopback), changing a setting asks for it, as the hooks do. */
function hookKeyRefusal(ctx: PageCtx): Json | undefined {
	const key = ctx.sandbox.config.hookKey;
	if (!key) return undefined;
	const given = Buffer.from(ctx.form.get('hook_key') ?? '');
	const expected = Buffer.from(key);
	if (given.length === expected.length && timingSafeEqual(given, expected)) return undefined;
	return {
		code: 'AUTHENTICATION_FAILURE',
		message: 'the settings need the sandbox hook key (SANDBOX_HOOK_KEY)',
	};
}

function settingsPage(ctx: PageCtx, error?: Json): PageReply {
	const { sandbox } = ctx;
	const frame = ctx.frame('Settings', ':settings');
	const limits = sandbox.config.apiLimits;
	const plan = sandbox.faultPlan.plan;
	const retries = sandbox.config.deliveryRetryDelaysMs;
	const policy =
		Object.entries(DELIVERY_RETRY_POLICIES).find(
			([, d]) => d.length === retries.length && d.every((ms, i) => ms === retries[i]),
		)?.[0] ?? 'custom';
	const keyInput = sandbox.config.hookKey
		? h`<label>Hook key<input type="password" name="hook_key" autocomplete="off"></label>`
		: '';
	const option = (value: string, text: string, on: boolean) =>
		h`<option value="${value}"${on ? new Html(' selected') : ''}>${text}</option>`;
	const planInput = (f: (typeof PLAN_FIELDS)[number]) => {
		const value = plan[f.key];
		const id = `plan-${f.key}`;
		if (f.type === 'boolean')
			return h`<label for="${id}">${f.label}</label><select id="${id}" name="${f.key}">${option('false', 'No', value !== true)}${option('true', 'Yes', value === true)}</select>`;
		return h`<label for="${id}">${f.label} <span class="muted">${f.key}</span></label><input id="${id}" name="${f.key}" type="${f.type === 'text' ? 'text' : 'number'}"${f.type === 'text' ? '' : new Html(' step="any" min="0"')}${f.type === 'rate' ? new Html(' max="1"') : ''} value="${value === undefined ? '' : String(value)}">`;
	};
	return {
		status: error ? 400 : 200,
		html: layout(
			frame,
			h`<h1>Settings</h1>${error ? errorBox(error) : ''}${ctx.url.searchParams.has('done') ? h`<div class="ok" role="status">Saved.</div>` : ''}
<div class="box"><h2>API limits</h2><p>Calls in flight per client (${limits.edition} edition) and credits, as the service enforces them. Now: <strong>${limits.enabled ? 'on' : 'off'}</strong>.</p>
${form(frame, '/ui/settings/limits', h`<label for="limits">API limits</label><select id="limits" name="enabled">${option('true', 'On', limits.enabled)}${option('false', 'Off', !limits.enabled)}</select>${keyInput}<button type="submit">Save</button>`)}</div>
<div class="box"><h2>Delivery retries</h2><p>How often the CRM sends a notification delivery: <code>none</code> once, <code>default</code> up to ${DELIVERY_RETRY_POLICIES.default.length} attempts (${DELIVERY_RETRY_POLICIES.default.join(', ')} ms after the change). Now: <strong>${policy}</strong> (${retries.join(', ')} ms).</p>
${form(frame, '/ui/settings/delivery-retries', h`<label for="policy">Policy</label><select id="policy" name="policy">${Object.keys(DELIVERY_RETRY_POLICIES).map((p) => option(p, p, p === policy))}</select>${keyInput}<button type="submit">Save</button>`)}</div>
<div class="box"><h2>Fault plan</h2><p>Random faults of API calls and deliveries (empty = none). Injected so far: ${Object.entries(sandbox.faultPlan.stats).map(([k, n], i) => h`${i ? ', ' : ''}${k} <strong>${n}</strong>`)}.</p>
${form(frame, '/ui/settings/fault-plan', h`<div class="grid">${PLAN_FIELDS.map((f) => h`<div>${planInput(f)}</div>`)}</div>${keyInput}<button type="submit">Save the plan</button>`)}
${form(frame, '/ui/settings/fault-plan/clear', h`${keyInput}<button type="submit">Clear the plan</button>`)}</div>`,
		),
	};
}

/** The plan of the posted form; an error when a value is no number in its range. */
function postedPlan(formData: URLSearchParams): { plan: FaultPlan } | { error: Json } {
	const plan: Record<string, unknown> = {};
	for (const f of PLAN_FIELDS) {
		const text = (formData.get(f.key) ?? '').trim();
		if (f.type === 'boolean') {
			if (text === 'true') plan[f.key] = true;
			continue;
		}
		if (text === '') continue;
		if (f.type === 'text') {
			plan[f.key] = text;
			continue;
		}
		const n = Number(text);
		if (!Number.isFinite(n) || n < 0 || (f.type === 'rate' && n > 1))
			return {
				error: {
					code: 'INVALID_DATA',
					message: `${f.key} takes ${f.type === 'rate' ? 'a share from 0 to 1' : 'a number from 0'}, got "${text}"`,
				},
			};
		plan[f.key] = n;
	}
	return { plan: plan as FaultPlan };
}

/** The error body of a refused hook call, undefined when it succeeded. */
const refusedBy = (answer: ApiAnswer): Json | undefined =>
	answer.status >= 400 ? answer.body : undefined;

/** A settings change (unless the hook key is missing): its error on the page, or back to the settings. */
async function change(ctx: PageCtx, run: () => Promise<Json | undefined>): Promise<PageReply> {
	const error = hookKeyRefusal(ctx) ?? (await run());
	return error ? settingsPage(ctx, error) : { redirect: '/ui/settings?done=1' };
}

export const settingsRoutes: PageRoute[] = [
	{ method: 'GET', path: /^\/ui\/settings$/, handler: (ctx) => settingsPage(ctx) },
	{
		method: 'POST',
		path: /^\/ui\/settings\/limits$/,
		handler: async (ctx) =>
			await change(ctx, async () => {
				ctx.sandbox.config.apiLimits.enabled = ctx.form.get('enabled') === 'true';
				return undefined;
			}),
	},
	{
		method: 'POST',
		path: /^\/ui\/settings\/delivery-retries$/,
		handler: async (ctx) =>
			await change(ctx, async () =>
				refusedBy(
					await callApi(
						ctx.sandbox,
						'PUT',
						'/delivery-retries',
						{ policy: ctx.form.get('policy') ?? '' },
						'admin',
					),
				),
			),
	},
	{
		method: 'POST',
		path: /^\/ui\/settings\/fault-plan$/,
		handler: async (ctx) =>
			await change(ctx, async () => {
				const posted = postedPlan(ctx.form);
				if ('error' in posted) return posted.error;
				return refusedBy(await callApi(ctx.sandbox, 'PUT', '/fault-plan', posted.plan, 'admin'));
			}),
	},
	{
		method: 'POST',
		path: /^\/ui\/settings\/fault-plan\/clear$/,
		handler: async (ctx) =>
			await change(ctx, async () =>
				refusedBy(await callApi(ctx.sandbox, 'DELETE', '/fault-plan', undefined, 'admin')),
			),
	},
];
