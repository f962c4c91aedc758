// The sandbox instance: store + configuration + clock + the one router with every group registered.
// `server.ts` puts it behind node:http; tests reach it over HTTP and may read its state directly.
import type { ModuleDef } from './catalogue/modules.ts';
import { registerGroups } from './groups/index.ts';
import { Faults } from './faults.ts';
import { ApiLimits, DEFAULT_API_LIMITS } from './limits.ts';
import { Router } from './router.ts';
import { seedSettings, seedDemoRecords } from './seed/seed.ts';
import { Store } from './store.ts';
import type { UserRef } from './store.ts';
import { formatDateTime } from './time.ts';
import type {
	Ctx,
	Knobs,
	LoggedRequest,
	RecordGuard,
	Sandbox as SandboxApi,
	SandboxConfig,
	SandboxSettings,
	SeenRequest,
} from './types.ts';

export type { LoggedRequest, SandboxConfig, SandboxSettings, SeenRequest } from './types.ts';

/**
 * Delivery retry policies (§9.5 defines none for the service): `none` sends each delivery once, the
 * strictest reading and what a receiver must survive; `default` is the sandbox's own 3 attempts
 * within 3 s. `SANDBOX_DELIVERY_RETRIES` (cli.mts) and the fault plan's `deliveryRetries` select one.
 */
export const DELIVERY_RETRY_POLICIES = {
	none: [0],
	default: [0, 1000, 2000],
} as const satisfies Record<string, readonly number[]>;
type DeliveryRetryPolicy = keyof typeof DELIVERY_RETRY_POLICIES;

/** The policy's delays; an unknown name throws, naming the ones there are. */
export function retryDelaysOf(policy: string): number[] {
	const delays = DELIVERY_RETRY_POLICIES[policy as DeliveryRetryPolicy];
	if (!delays)
		throw new Error(
			`delivery retry policy "${policy}" is unknown: use ${Object.keys(DELIVERY_RETRY_POLICIES).join(' or ')}`,
		);
	return [...delays];
}

const DEFAULT_CONFIG: SandboxConfig = {
	publicOrigin: 'http://localhost:4010',
	uploadOrigin: 'http://localhost:4011',
	separateUploadHost: true,
	dbPath: ':memory:',
	demo: true,
	accessTokenLifetimeSec: 3600,
	grantCodeLifetimeSec: 600,
	extraTokenPrefix: 'Crm-oauthtoken',
	oauthLimits: false,
	apiLimits: DEFAULT_API_LIMITS,
	requestLogLimit: 5000,
	maxBodyBytes: 64 * 1024 * 1024,
	maxFileBytes: 20 * 1024 * 1024,
	channelDefaultExpirySec: 3600,
	channelMaxExpirySec: 86400,
	deliveryRetryDelaysMs: [...DELIVERY_RETRY_POLICIES.default],
	deliveryTimeoutMs: 10_000,
	jobStepMs: 1000,
	tagsPerRecord: 10,
	tagsPerModule: 100,
	knobs: {},
};

/** Each knob (types.ts `Knobs`) and the type of its value: what SANDBOX_KNOBS may set (cli.mts). */
const KNOB_TYPES = {
	territoriesEnabled: 'boolean',
	territoriesPerRecord: 'number',
	contactRolesMax: 'number',
	mailDailyLimit: 'number',
	multiCurrencySupported: 'boolean',
	activeCurrencyLimit: 'number',
	bulkReadConcurrency: 'number',
	bulkReadPageSize: 'number',
	bulkReadDownloadsPerMinute: 'number',
	bulkWriteChunk: 'number',
	bulkWriteChunkDelayMs: 'number',
	bulkWriteMaxRows: 'number',
	bulkWriteMaxZipBytes: 'number',
	bulkWriteMaxColumns: 'number',
	bulkWriteConcurrency: 'number',
} as const satisfies Record<keyof Knobs, 'boolean' | 'number'>;

/** Knobs from a JSON object (SANDBOX_KNOBS); an unknown knob or a value of the wrong type throws, naming it. */
export function parseKnobs(text: string): Knobs {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		throw new Error('SANDBOX_KNOBS is not valid JSON: give an object, e.g. {"mailDailyLimit": 50}');
	}
	if (!value || typeof value !== 'object' || Array.isArray(value))
		throw new Error('SANDBOX_KNOBS must be a JSON object, e.g. {"mailDailyLimit": 50}');
	for (const [name, knob] of Object.entries(value)) {
		const type = KNOB_TYPES[name as keyof Knobs];
		if (!type)
			throw new Error(
				`SANDBOX_KNOBS: unknown knob "${name}" (knobs: ${Object.keys(KNOB_TYPES).join(', ')})`,
			);
		if (typeof knob !== type || (type === 'number' && !Number.isFinite(knob)))
			throw new Error(`SANDBOX_KNOBS: "${name}" takes a ${type}, got ${JSON.stringify(knob)}`);
	}
	return value as Knobs;
}

export class Sandbox implements SandboxApi {
	readonly config: SandboxConfig;
	readonly store: Store;
	readonly router = new Router();
	readonly requests: LoggedRequest[] = [];
	readonly requestObservers: Array<(request: SeenRequest) => void> = [];
	/** §7 concurrency and credits */
	readonly limits: ApiLimits;
	/** bytes of request bodies read so far (shows that refused requests were never buffered) */
	bodyBytesRead = 0;
	/** the one fault injector: forced answers and the random plan (faults.ts) */
	readonly faultPlan = new Faults();
	/** hooks that may refuse record updates (blueprint, locks); see records.ts */
	readonly recordGuards: RecordGuard[] = [];
	/** added to the wall clock: tests move time forward to expire tokens and channels */
	clockOffsetMs = 0;
	private timers = new Set<ReturnType<typeof setTimeout>>();
	private closing = false;

	constructor(config: SandboxSettings = {}) {
		this.config = {
			...DEFAULT_CONFIG,
			...config,
			apiLimits: { ...DEFAULT_CONFIG.apiLimits, ...config.apiLimits },
			knobs: { ...DEFAULT_CONFIG.knobs, ...config.knobs },
		};
		this.limits = new ApiLimits(this);
		this.store = new Store(this.config.dbPath);
		if (!this.store.getMeta('seeded')) {
			this.store.transaction(() => {
				seedSettings(this);
				if (this.config.demo) seedDemoRecords(this);
				this.store.setMeta('seeded', new Date().toISOString());
			});
		}
		registerGroups(this.router, this);
	}

	/** Appends to the request log, keeping at most `requestLogLimit` entries. */
	logRequest(entry: LoggedRequest): void {
		this.requests.push(entry);
		const excess = this.requests.length - this.config.requestLogLimit;
		if (excess > 0) this.requests.splice(0, excess);
	}

	now(): number {
		return Date.now() + this.clockOffsetMs;
	}

	/** DateTime in the organisation's time zone (sandbox: UTC, `+00:00`) */
	formatTime(ms: number = this.now()): string {
		return formatDateTime(ms, 0);
	}

	/** The module definitions as currently stored (metadata updates included). */
	modules(): ModuleDef[] {
		return this.store.docs<ModuleDef>('modules');
	}

	/** Case-insensitive module lookup (§3.10); undefined when unknown. */
	module(name: string): ModuleDef | undefined {
		const lower = name.toLowerCase();
		return this.modules().find((m) => m.api_name.toLowerCase() === lower);
	}

	/** The user a request acts as (the token's user, else the admin). */
	user(ctx?: Pick<Ctx, 'token'>): UserRef {
		const id = ctx?.token?.userId;
		const users = this.store.docs<{ id: string; full_name: string; email: string }>('users');
		const user = users.find((u) => u.id === id) ?? users[0];
		return { id: user.id, name: user.full_name, email: user.email };
	}

	/** setTimeout that is cleared when the sandbox closes (jobs, deliveries, retries). */
	later(ms: number, fn: () => void | Promise<void>): void {
		if (this.closing) return;
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			if (this.closing) return;
			void Promise.resolve()
				.then(fn)
				.catch((error) => console.error('[sandbox] background task failed:', error));
		}, ms);
		this.timers.add(timer);
	}

	close(): void {
		this.closing = true;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.store.close();
	}

	get isClosing(): boolean {
		return this.closing;
	}
}
