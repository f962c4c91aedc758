// The sandbox's face: small server-rendered pages at its root, outside the API paths (/crm/…,
// /oauth/…, /v2/crm/…, /__sandbox/…): modules and their records, blueprint transitions,
// notification channels and their deliveries, the last API calls and the tester's settings.
// Record changes run the API's own operations in process (api.ts). Local only (security.ts).
import type { IncomingMessage } from 'node:http';

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

/** A page's answer, for the server to send. */
export interface PageAnswer {
	status: number;
	headers: Record<string, string>;
	body: string;
}

function page(status: number, headers: Record<string, string>, body = ''): PageAnswer {
	return {
		status,
		headers: {
			'Content-Type': 'text/html; charset=utf-8',
			'Cache-Control': 'no-store',
			'X-Content-Type-Options': 'nosniff',
			'X-Frame-Options': 'DENY',
			'Referrer-Policy': 'same-origin',
			'Content-Security-Policy':
				"default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
			...headers,
		},
		body,
	};
}

/** The largest form a page reads (the body limit of the pages' routes). */
export const FORM_LIMIT = 256 * 1024;

const pathOf = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://sandbox.local').pathname;

/** Whether a request is for a page (isPagePath). */
export function isPageRequest(req: IncomingMessage): boolean {
	return isPagePath(pathOf(req));
}

function routeOf(req: IncomingMessage, pathname: string): PageRoute | undefined {
	const method = (req.method ?? 'GET').toUpperCase();
	return ROUTES.find(
		(r) => r.path.test(pathname) && r.method === (method === 'HEAD' ? 'GET' : method),
	);
}

/**
 * What refuses a page request before its form is read: a host that is not local, no such page, a
 * method the page does not take. Undefined when the page will answer (servePage).
 */
export function pageRefusal(sandbox: Sandbox, req: IncomingMessage): PageAnswer | undefined {
	if (!allowedHost(sandbox, req)) {
		return page(
			403,
			{ 'Content-Type': 'text/plain; charset=utf-8' },
			'The sandbox pages answer local requests only (Host: localhost, 127.0.0.1, [::1] or the sandbox origin).\n',
		);
	}
	const pathname = pathOf(req);
	if (routeOf(req, pathname)) return undefined;
	const known = ROUTES.some((r) => r.path.test(pathname));
	return page(
		known ? 405 : 404,
		{},
		h`<p>${known ? 'Method not allowed' : 'No such page'}: <a href="/">home</a></p>`.text,
	);
}

/** The answer of a page that failed (a form over FORM_LIMIT too). */
export function pageFailure(error: unknown): PageAnswer {
	console.error('[sandbox] page failed:', error);
	return page(500, {}, h`<p class="error">The page failed: ${String(error)}</p>`.text);
}

/** Answers a page request that pageRefusal let through, with its form (POST); never throws. */
export async function servePage(
	sandbox: Sandbox,
	req: IncomingMessage,
	body: Buffer,
): Promise<PageAnswer> {
	try {
		const url = new URL(req.url ?? '/', 'http://sandbox.local');
		const route = routeOf(req, url.pathname)!;
		let session = sessionOf(req);
		const headers: Record<string, string> = {};
		let form = new URLSearchParams();
		if (route.method === 'POST') {
			form = new URLSearchParams(body.toString('utf8'));
			const refusal = postRefusal(sandbox, req, session, form.get('_csrf'));
			if (refusal)
				return page(
					403,
					{},
					h`<p class="error">Refused: ${refusal}. <a href="/">home</a></p>`.text,
				);
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
		if (reply.redirect) return page(303, { ...headers, Location: reply.redirect });
		return page(
			reply.status ?? 200,
			headers,
			req.method === 'HEAD' ? '' : (reply.html?.text ?? ''),
		);
	} catch (error) {
		return pageFailure(error);
	}
}
