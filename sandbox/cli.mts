// `npm run sandbox` / `npm start`: runs the sandbox on 127.0.0.1:4010 (SANDBOX_PORT) with its data
// in .sandbox-data/sandbox.db (SANDBOX_DB; `:memory:` keeps nothing). The other SANDBOX_* variables
// are listed in the README's sandbox section.
import { mkdirSync } from 'node:fs';
import path from 'node:path';

import type { Edition } from './limits.ts';
import { CONCURRENCY_BY_EDITION } from './limits.ts';
import { parseKnobs, retryDelaysOf } from './sandbox.ts';
import { startSandbox } from './server.ts';

const port = Number(process.env.SANDBOX_PORT ?? 4010);
const host = process.env.SANDBOX_HOST ?? '127.0.0.1';
const dbPath =
	process.env.SANDBOX_DB ?? path.resolve(import.meta.dirname, '..', '.sandbox-data', 'sandbox.db');
if (dbPath !== ':memory:') mkdirSync(path.dirname(dbPath), { recursive: true });
const publicOrigin = process.env.SANDBOX_ORIGIN ?? `http://localhost:${port}`;

const flag = (name: string) =>
	['1', 'true', 'on', 'yes'].includes((process.env[name] ?? '').toLowerCase());
/** a switch that is on unless set to an off value */
const onUnless = (name: string) =>
	!['0', 'false', 'off', 'no'].includes((process.env[name] ?? '').toLowerCase());
// the bulk-write upload host (§1.1): its own origin, on the next port unless told otherwise
const separateUploadHost = onUnless('SANDBOX_SEPARATE_UPLOAD_HOST');
const uploadPort = Number(process.env.SANDBOX_UPLOAD_PORT ?? port + 1);
const uploadOrigin =
	process.env.SANDBOX_UPLOAD_ORIGIN ??
	(separateUploadHost ? `http://localhost:${uploadPort}` : publicOrigin);
const edition = (process.env.SANDBOX_EDITION ?? 'Enterprise') as Edition;
if (!(edition in CONCURRENCY_BY_EDITION)) {
	console.error(`SANDBOX_EDITION must be one of ${Object.keys(CONCURRENCY_BY_EDITION).join(', ')}`);
	process.exit(2);
}
const credits = process.env.SANDBOX_API_CREDITS
	? Number(process.env.SANDBOX_API_CREDITS)
	: undefined;
let knobs = {};
try {
	knobs = process.env.SANDBOX_KNOBS ? parseKnobs(process.env.SANDBOX_KNOBS) : {};
} catch (error) {
	console.error((error as Error).message);
	process.exit(2);
}

// §9.5 leaves the service's re-sends undefined: `none` sends each delivery once, as a strict CRM would
let deliveryRetryDelaysMs: number[];
try {
	deliveryRetryDelaysMs = retryDelaysOf(process.env.SANDBOX_DELIVERY_RETRIES ?? 'default');
} catch (error) {
	console.error(`SANDBOX_DELIVERY_RETRIES: ${(error as Error).message}`);
	process.exit(2);
}

const running = await startSandbox({
	port,
	host,
	dbPath,
	publicOrigin,
	demo: process.env.SANDBOX_DEMO !== 'false',
	oauthLimits: flag('SANDBOX_OAUTH_LIMITS'),
	// on as on the service; SANDBOX_API_LIMITS=off is for benchmarks only
	apiLimits: { enabled: onUnless('SANDBOX_API_LIMITS'), edition, subConcurrency: 10, credits },
	separateUploadHost,
	uploadPort,
	uploadOrigin,
	hookKey: process.env.SANDBOX_HOOK_KEY || undefined,
	knobs,
	deliveryRetryDelaysMs,
});
const origin = running.sandbox.config.publicOrigin;

console.log(`CRM sandbox listening on ${running.url} (public origin ${origin})`);
if (separateUploadHost)
	console.log(
		`Bulk-write uploads on ${running.uploadUrl} (public origin ${running.sandbox.config.uploadOrigin})`,
	);
const limits = running.sandbox.limits.config;
console.log(
	limits.enabled
		? `API limits on: ${limits.edition} edition, ${running.sandbox.limits.concurrencyLimit()} calls in flight per client, ${limits.subConcurrency} resource-intensive, credits ${limits.credits ?? 'unlimited'}`
		: 'API limits off (SANDBOX_API_LIMITS=off: for benchmarks only)',
);
if (Object.keys(knobs).length) console.log(`Knobs: ${JSON.stringify(knobs)}`);
console.log(
	`Notification deliveries: ${deliveryRetryDelaysMs.length === 1 ? 'sent once, never re-sent' : `up to ${deliveryRetryDelaysMs.length} attempts`} (SANDBOX_DELIVERY_RETRIES=${process.env.SANDBOX_DELIVERY_RETRIES ?? 'default'})`,
);
console.log(`Data: ${dbPath}`);
if (running.sandbox.config.hookKey && !process.env.SANDBOX_HOOK_KEY) {
	console.log(
		`Test hooks (/__sandbox/*) need the header X-Sandbox-Hook-Key: ${running.sandbox.config.hookKey}`,
	);
}
console.log('');
console.log('Get a token and list leads:');
console.log(
	`  CODE=$(curl -s -o /dev/null -w '%{redirect_url}' '${origin}/oauth/v2/auth?response_type=code&client_id=demo&redirect_uri=http://localhost/cb&scope=CRM.modules.ALL,CRM.settings.ALL&access_type=offline' | sed 's/.*code=\\([^&]*\\).*/\\1/')`,
);
console.log(
	`  TOKEN=$(curl -s -X POST '${origin}/oauth/v2/token' -d grant_type=authorization_code -d client_id=demo -d client_secret=demo -d redirect_uri=http://localhost/cb -d code=$CODE | sed 's/.*"access_token":"\\([^"]*\\)".*/\\1/')`,
);
console.log(`  curl -s '${origin}/crm/v2.1/Leads?per_page=3' -H "Authorization: Bearer $TOKEN"`);
console.log('');
console.log(
	'In n8n, create a "CRM OAuth2 API" credential with accounts URL ' +
		origin +
		', any client id and secret.',
);
console.log('Press Ctrl-C to stop.');

const stop = async () => {
	await running.close();
	process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
