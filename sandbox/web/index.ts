// The sandbox's face: small server-rendered pages at its root, outside the API paths (/crm/…,
// /oauth/…, /v2/crm/…, /__sandbox/…): modules and their records, blueprint transitions,
// notification channels and their deliveries, the last API calls and the tester's settings.
// Record changes run the API's own operations in process (api.ts). Local only (security.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';

import { readBody } from '../http.ts';
import type { Sandbox } from '../sandbox.ts';
import { callsPage } from './calls.ts';
import { channelsPage } from './channels.ts';
import { h, layout } from './html.ts';
import type { Frame, Html } from './html.ts';
import { recordRoutes } from './records.ts';
import {
	allowedHost,
	csrfToken,
	newSession,
	postRefusal,
	sessionCookie,
	sessionOf,
} from './security.ts';
import { settingsRoutes } from './settings.ts';

export interface PageCtx {
	sandbox: Sandbox;
	url: URL;
	/** the posted form (empty for GET) */
	form: URLSearchParams;
	/** the layout's frame for a page titled `title` (`current`: the navigation entry shown) */
	frame(title: string, current?: string): Frame;
}

export interface PageReply {
	status?: number;
	html?: Html;
	/** 303 to this path (after a successful post) */
	redirect?: string;
}

export interface PageRoute {
	method: 'GET' | 'POST';
	/** matched against the whole path; its groups are the handler's `params` */
	path: RegExp;
	handler(ctx: PageCtx, params: string[]): PageReply | Promise<PageReply>;
}

const ROUTES: PageRoute[] = [
	{ method: 'GET', path: /^\/$/, handler: (ctx) => ({ html: homePage(ctx) }) },
	{ method: 'GET', path: /^\/ui\/channels$/, handler: (ctx) => channelsPage(ctx) },
	{ method: 'GET', path: /^\/ui\/calls$/, handler: (ctx) => callsPage(ctx) },
	...settingsRoutes,
	...recordRoutes,
];

/** Paths the pages own: the root and everything under /ui/. */
export function isPagePath(pathname: string): boolean {
	return pathname === '/' || pathname === '/ui' || pathname.startsWith('/ui/');
}

/** Modules a person can open: the API's modules that hold records. */
function pageModules(sandbox: Sandbox) {
	return sandbox
		.modules()
		.filter((m) => m.api_supported && m.viewable && m.generated_type !== 'linking')
		.sort((a, b) => a.plural_label.localeCompare(b.plural_label));
}

function homePage(ctx: PageCtx): Html {
	const { sandbox } = ctx;
	const frame = ctx.frame('Home');
	return layout(
		frame,
		h`<h1>CRM sandbox</h1>
<p>The local CRM service of this project: its API at <code>${sandbox.config.publicOrigin}/crm/v2.1/</code>, OAuth at <code>/oauth/v2/</code>, test hooks at <code>/__sandbox/</code>. Changes made on these pages run the API's own operations, so watch channels are notified exactly as for API writes.</p>
<div class="box"><h2>Modules</h2><ul>${frame.modules.map((m) => h`<li><a href="/ui/modules/${m.api_name}">${m.plural_label}</a> <span class="muted">${m.api_name}</span></li>`)}</ul></div>
<div class="box"><h2>Sandbox</h2><ul><li><a href="/ui/channels">Notification channels</a> and their recent deliveries</li><li><a href="/ui/calls">Last API calls</a></li><li><a href="/ui/settings">Settings</a>: API limits, delivery retries, fault plan</li></ul></div>`,
	);
}

function send(
	res: ServerResponse,
	status: number,
	headers: Record<string, string>,
	body = '',
): void {
	res.writeHead(status, {
		'Content-Type': 'text/html; charset=utf-8',
		'Cache-Control': 'no-store',
		'X-Content-Type-Options': 'nosniff',
		'X-Frame-Options': 'DENY',
		'Referrer-Policy': 'same-origin',
		'Content-Security-Policy':
			"default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
		...headers,
	});
	res.end(body);
}

const FORM_LIMIT = 256 * 1024;

/** Answers a request for a page (isPagePath); never throws. */
export async function servePage(
	sandbox: Sandbox,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
): Promise<void> {
	try {
		if (!allowedHost(sandbox, req)) {
			send(
				res,
				403,
				{ 'Content-Type': 'text/plain; charset=utf-8' },
				'The sandbox pages answer local requests only (Host: localhost, 127.0.0.1, [::1] or the sandbox origin).\n',
			);
			return;
		}
		const method = (req.method ?? 'GET').toUpperCase();
		const known = ROUTES.filter((r) => r.path.test(url.pathname));
		const route = known.find((r) => r.method === (method === 'HEAD' ? 'GET' : method));
		if (!route) {
			send(
				res,
				known.length ? 405 : 404,
				{},
				h`<p>${known.length ? 'Method not allowed' : 'No such page'}: <a href="/">home</a></p>`
					.text,
			);
			return;
		}
		let session = sessionOf(req);
		const headers: Record<string, string> = {};
		let form = new URLSearchParams();
		if (route.method === 'POST') {
			form = new URLSearchParams((await readBody(req, FORM_LIMIT)).toString('utf8'));
			const refusal = postRefusal(sandbox, req, session, form.get('_csrf'));
			if (refusal) {
				send(res, 403, {}, h`<p class="error">Refused: ${refusal}. <a href="/">home</a></p>`.text);
				return;
			}
		} else if (!session) {
			session = newSession();
			headers['Set-Cookie'] = sessionCookie(session);
		}
		const csrf = csrfToken(sandbox, session!);
		const ctx: PageCtx = {
			sandbox,
			url,
			form,
			frame: (title, current) => ({ title, current, csrf, modules: pageModules(sandbox) }),
		};
		const reply = await route.handler(ctx, route.path.exec(url.pathname)!.slice(1));
		if (reply.redirect) {
			send(res, 303, { ...headers, Location: reply.redirect });
			return;
		}
		send(res, reply.status ?? 200, headers, method === 'HEAD' ? '' : (reply.html?.text ?? ''));
	} catch (error) {
		console.error('[sandbox] page failed:', error);
		if (!res.headersSent)
			send(res, 500, {}, h`<p class="error">The page failed: ${String(error)}</p>`.text);
		else res.end();
	}
}
