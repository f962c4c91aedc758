// Targets of the sandbox's own outgoing calls (watch deliveries, bulk-job callbacks). A target on
// the sandbox itself would let anyone holding an API token drive the /__sandbox test hooks through
// a delivery, so such URLs are refused when a channel or job is created.
import { BlockList, isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';

/** Where a running sandbox listens (registered by server.ts while it is up). */
export interface Listener {
	port: number;
	/** the public origin (`api_domain`), which may name another host or port (proxies) */
	publicOrigin: () => string;
}

const listeners = new Set<Listener>();

export function registerListener(listener: Listener): () => void {
	listeners.add(listener);
	return () => listeners.delete(listener);
}

const LOCAL = new BlockList();
LOCAL.addSubnet('127.0.0.0', 8, 'ipv4');
LOCAL.addAddress('0.0.0.0', 'ipv4');
LOCAL.addAddress('::1', 'ipv6');
LOCAL.addAddress('::', 'ipv6');
LOCAL.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');
LOCAL.addAddress('::ffff:0.0.0.0', 'ipv6');

/** Is `host` (a URL hostname) this machine: loopback, unspecified, own name or own address? */
function isLocalHost(host: string): boolean {
	const name = host
		.replace(/^\[|\]$/g, '')
		.replace(/\.$/, '')
		.toLowerCase();
	if (name === 'localhost' || name.endsWith('.localhost')) return true;
	const own = hostname().toLowerCase();
	if (name === own || name === `${own}.local`) return true;
	const family = isIP(name);
	if (family === 0) return false;
	const type = family === 4 ? 'ipv4' : 'ipv6';
	if (LOCAL.check(name, type)) return true;
	return Object.values(networkInterfaces())
		.flat()
		.some((info) => info !== undefined && info.address.toLowerCase() === name);
}

function portOf(url: URL): number {
	if (url.port) return Number(url.port);
	return url.protocol === 'https:' ? 443 : 80;
}

/** Does the URL reach a sandbox running in this process (any of its host names and addresses)? */
function targetsSandbox(url: URL): boolean {
	for (const listener of listeners) {
		if (portOf(url) === listener.port && isLocalHost(url.hostname)) return true;
		try {
			const origin = new URL(listener.publicOrigin());
			if (
				origin.hostname.toLowerCase() === url.hostname.toLowerCase() &&
				portOf(origin) === portOf(url)
			)
				return true;
		} catch {
			// an unparsable public origin names no host
		}
	}
	return false;
}

/** True for an absolute http(s) URL that does not point at the sandbox itself. */
export function isDeliveryTarget(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return false;
	}
	return (url.protocol === 'http:' || url.protocol === 'https:') && !targetsSandbox(url);
}

/** Loopback listen addresses need no hook key (README "The sandbox"). */
export function isLoopbackListen(host: string): boolean {
	const name = host.replace(/^\[|\]$/g, '').toLowerCase();
	if (name === 'localhost') return true;
	const family = isIP(name);
	if (family === 0) return false;
	return (family === 4 && name.startsWith('127.')) || name === '::1';
}
