// The pages are for the person at this machine: a request whose Host is not local (nor the
// configured public origin's host) is refused, which also defeats DNS rebinding; a form post must
// come from the pages themselves (Origin / Sec-Fetch-Site) and carry the session's CSRF token.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import type { Sandbox } from '../sandbox.ts';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const SESSION_COOKIE = 'crm_sandbox_session';

/** One secret per sandbox: a session's CSRF token is the HMAC of its id. */
const secrets = new WeakMap<Sandbox, Buffer>();

function secretOf(sandbox: Sandbox): Buffer {
	let secret = secrets.get(sandbox);
	if (!secret) secrets.set(sandbox, (secret = randomBytes(32)));
	return secret;
}

/** Host name of a Host header (`[::1]:4010` → `[::1]`), lower case; undefined when unreadable. */
function hostName(host: string | undefined): string | undefined {
	if (!host) return undefined;
	try {
		return new URL(`http://${host}`).hostname.toLowerCase();
	} catch {
		return undefined;
	}
}

/** Is the request addressed to this machine (or to the sandbox's public origin)? */
export function allowedHost(sandbox: Sandbox, req: IncomingMessage): boolean {
	const name = hostName(req.headers.host);
	if (!name) return false;
	if (LOCAL_HOSTS.has(name)) return true;
	return name === hostName(new URL(sandbox.config.publicOrigin).host);
}

/** The session id of the request's cookie, when it carries a well-formed one. */
export function sessionOf(req: IncomingMessage): string | undefined {
	for (const part of String(req.headers.cookie ?? '').split(';')) {
		const [name, value] = part.trim().split('=');
		if (name === SESSION_COOKIE && /^[0-9a-f]{32}$/.test(value ?? '')) return value;
	}
	return undefined;
}

export const newSession = (): string => randomBytes(16).toString('hex');

export function sessionCookie(session: string): string {
	return `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Strict`;
}

export function csrfToken(sandbox: Sandbox, session: string): string {
	return createHmac('sha256', secretOf(sandbox)).update(session).digest('hex');
}

/**
 * Why a form post is refused, or undefined when it may proceed: another site's Origin or
 * Sec-Fetch-Site, no session, or a CSRF token that is not the session's.
 */
export function postRefusal(
	sandbox: Sandbox,
	req: IncomingMessage,
	session: string | undefined,
	token: string | null,
): string | undefined {
	const site = req.headers['sec-fetch-site'];
	if (site !== undefined && site !== 'same-origin' && site !== 'none')
		return `a form may not be posted from another site (Sec-Fetch-Site: ${String(site)})`;
	const origin = req.headers.origin;
	if (origin !== undefined) {
		let host: string | undefined;
		try {
			host = new URL(origin).host;
		} catch {
			host = undefined;
		}
		if (host !== req.headers.host)
			return `a form may not be posted from another site (Origin: ${origin})`;
	}
	if (!session) return 'no session: open the page again and resend the form';
	const expected = Buffer.from(csrfToken(sandbox, session));
	const given = Buffer.from(token ?? '');
	if (given.length !== expected.length || !timingSafeEqual(given, expected))
		return "the form's CSRF token is missing or not this session's: open the page again and resend the form";
	return undefined;
}
