// The sandbox's shared vocabulary: the instance as groups and services see it (`Sandbox`), its
// configuration, and the request context of the router. Types only; it imports nothing that
// imports it back, so every module can depend on it without an import circle (the class that
// implements `Sandbox` is sandbox.ts, at the top).
import type { IncomingHttpHeaders } from 'node:http';

import type { ModuleDef } from './catalogue/modules.ts';
import type { ErrorBody } from './errors.ts';
import type { Faults } from './faults.ts';
import type { ApiLimits, ApiLimitsConfig } from './limits.ts';
import type { Json, Store, StoredRecord, UserRef } from './store.ts';

export type Version = 'v2' | 'v2.1';
export type Root = 'crm' | 'bulk' | 'oauth' | 'download' | 'admin';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface SandboxConfig {
	/** origin returned as `api_domain` and used in echoed URIs; set by the server once it listens */
	publicOrigin: string;
	/**
	 * origin of the bulk-write upload host (`{upload_domain}`, §1.1); set by the server once its
	 * upload listener runs (the API origin when uploads share it)
	 */
	uploadOrigin: string;
	/**
	 * uploads only on their own origin, as on the service (default): the API origin refuses them and
	 * the upload origin serves nothing else. Off: one origin serves both
	 */
	separateUploadHost: boolean;
	/** SQLite file; `:memory:` keeps nothing */
	dbPath: string;
	/** seed demo records on first start */
	demo: boolean;
	accessTokenLifetimeSec: number;
	grantCodeLifetimeSec: number;
	/** one extra Authorization prefix besides `Bearer` (§2.2) */
	extraTokenPrefix: string;
	/** OAuth issuance limits of §2.1 (off by default) */
	oauthLimits: boolean;
	/** API concurrency and credit limits of §7 (on by default, as on the service) */
	apiLimits: ApiLimitsConfig;
	/**
	 * key the /__sandbox test hooks require (header `X-Sandbox-Hook-Key`) when the sandbox listens on
	 * anything but loopback; the server makes up a random one when none is set
	 */
	hookKey?: string;
	/** entries kept in the request log (GET /__sandbox/requests), oldest dropped first */
	requestLogLimit: number;
	/** maximum request body in bytes */
	maxBodyBytes: number;
	/** per-file upload limit (§6) */
	maxFileBytes: number;
	/** notification channels: default and maximum expiry, seconds (§6) */
	channelDefaultExpirySec: number;
	channelMaxExpirySec: number;
	/**
	 * delivery / callback retry delays in ms: attempts = length (§9.5 leaves the service's policy
	 * open; `DELIVERY_RETRY_POLICIES` names the two the sandbox offers: `none` = one attempt)
	 */
	deliveryRetryDelaysMs: number[];
	deliveryTimeoutMs: number;
	/** job state machines advance one state per interval (§8) */
	jobStepMs: number;
	tagsPerRecord: number;
	tagsPerModule: number;
	/** limits and feature switches of single groups (docs/protocol.md §5–§7) */
	knobs: Knobs;
}

/**
 * Limits and feature switches of single groups, each optional: absent means the default named
 * (docs/protocol.md §5.6, §5.9–§5.11, §6). Tests change them on a running sandbox.
 */
export interface Knobs {
	/** territory operations served (default true); false: FEATURE_NOT_SUPPORTED / TERRITORY_NOT_ENABLED (§5.1, §5.6) */
	territoriesEnabled?: boolean;
	/** territories one record may carry (default unlimited; beyond: LIMIT_EXCEEDED, §6) */
	territoriesPerRecord?: number;
	/** contact roles of the organisation (default unlimited; beyond: LIMIT_EXCEEDED, §5.9) */
	contactRolesMax?: number;
	/** mails SendMail sends per day (default 0 = unlimited; beyond: LIMIT_EXCEEDED, §5.10) */
	mailDailyLimit?: number;
	/** the edition has multi-currency (default true); false: EnableMultipleCurrencies answers FEATURE_NOT_SUPPORTED (§5.9) */
	multiCurrencySupported?: boolean;
	/** active currencies (default 25; beyond: ACTIVE_STATE_LIMIT_EXCEEDED, §5.9) */
	activeCurrencyLimit?: number;
	/** bulk read jobs not yet terminal (default 5; beyond: 429, §5.11) */
	bulkReadConcurrency?: number;
	/** records a bulk read job extracts per page (default 200,000, §5.11) */
	bulkReadPageSize?: number;
	/** bulk read result downloads per minute (default 10; beyond: 429, §5.11) */
	bulkReadDownloadsPerMinute?: number;
	/** bulk write rows per store transaction (default 1,000, §5.11) */
	bulkWriteChunk?: number;
	/** pause between bulk write chunks in ms (default 0) */
	bulkWriteChunkDelayMs?: number;
	/** rows of a bulk write CSV (default 25,000, §6) */
	bulkWriteMaxRows?: number;
	/** size of a bulk write upload zip in bytes (default 25 MB, §6) */
	bulkWriteMaxZipBytes?: number;
	/** columns of a bulk write CSV (default 200, §6) */
	bulkWriteMaxColumns?: number;
	/** bulk write jobs not yet terminal (default 5; beyond: 429, §5.11) */
	bulkWriteConcurrency?: number;
}

/** What a sandbox is started with: any configuration value, the §7 limits key by key. */
export type SandboxSettings = Partial<Omit<SandboxConfig, 'apiLimits'>> & {
	apiLimits?: Partial<ApiLimitsConfig>;
};

export interface LoggedRequest {
	method: string;
	url: string;
	status: number;
	at: number;
	/** which origin took it: the API's, or the bulk-write upload host (§1.1) */
	host: Listener;
	/** the route that took it, method and pattern below the root (`GET /:module/search`); absent when none did */
	route?: string;
}

/** Which listener took a request: the API origin, or the bulk-write upload host (§1.1). */
export type Listener = 'api' | 'upload';

/** A request as the observers of `Sandbox.requestObservers` see it (after the answer). */
export interface SeenRequest {
	method: string;
	/** path and query as sent */
	url: string;
	status: number;
	host: Listener;
	headers: IncomingHttpHeaders;
	/** whether the body was read (a call refused from its headers, or a forced fault, never reads it) */
	bodyRead?: boolean;
	/** top-level keys of a JSON object body */
	bodyKeys?: string[];
	/** names of the parts of a multipart body */
	parts?: string[];
}

/** A hook that may refuse a record update (blueprint, converted lead, locks); see records.ts. */
export type RecordGuard = (
	module: ModuleDef,
	existing: StoredRecord,
	changes: Json,
) => ErrorBody | undefined;

/** The sandbox instance as groups, records and background services use it (sandbox.ts implements it). */
export interface Sandbox {
	readonly config: SandboxConfig;
	readonly store: Store;
	readonly requests: LoggedRequest[];
	/** called with every request after its answer (tests check what clients send) */
	readonly requestObservers: Array<(request: SeenRequest) => void>;
	/** §7 concurrency and credits */
	readonly limits: ApiLimits;
	/** the fault injector (test hooks under /__sandbox, reliability tests, benchmarks) */
	readonly faultPlan: Faults;
	readonly recordGuards: RecordGuard[];
	/** bytes of request bodies read so far (shows that refused requests were never buffered) */
	bodyBytesRead: number;
	/** added to the wall clock: tests move time forward to expire tokens and channels */
	clockOffsetMs: number;
	readonly isClosing: boolean;
	logRequest(entry: LoggedRequest): void;
	now(): number;
	/** DateTime in the organisation's time zone (sandbox: UTC, `+00:00`) */
	formatTime(ms?: number): string;
	/** The module definitions as currently stored (metadata updates included). */
	modules(): ModuleDef[];
	/** Case-insensitive module lookup (§3.10); undefined when unknown. */
	module(name: string): ModuleDef | undefined;
	/** The user a request acts as (the token's user, else the admin). */
	user(ctx?: Pick<Ctx, 'token'>): UserRef;
	/** setTimeout that is cleared when the sandbox closes (jobs, deliveries, retries). */
	later(ms: number, fn: () => void | Promise<void>): void;
	close(): void;
}

export interface FilePart {
	field: string;
	filename: string;
	contentType: string;
	data: Buffer;
}

export interface TokenInfo {
	accessToken: string;
	scopes: string[];
	clientId: string;
	userId: string;
}

export interface Ctx {
	sandbox: Sandbox;
	method: Method;
	/** path below the root, e.g. `/Leads/4876876000000611001` */
	path: string;
	root: Root;
	v: Version;
	params: Record<string, string>;
	/** the route's `:module`, resolved to its canonical definition */
	module?: ModuleDef;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	rawBody: Buffer;
	files: FilePart[];
	formFields: Record<string, string>;
	token?: TokenInfo;
	/** parses the body as JSON (§3.1); throws INVALID_DATA when it is not */
	json(): Json;
	/** query value, trimmed; undefined when absent or empty */
	q(name: string): string | undefined;
	/** comma-joined or repeated query values (§3.2) */
	list(name: string): string[];
	header(name: string): string | undefined;
}

export interface Reply {
	status?: number;
	body?: unknown;
	headers?: Record<string, string>;
	/** raw bytes (file downloads, §3.4) */
	raw?: Buffer;
}

export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

/** Scopes required: every inner list must be covered by one granted scope (AND of ORs, §2.3). */
type ScopeRule = string[][] | ((ctx: Ctx) => string[][]);

export interface RouteOptions {
	root?: Root;
	/** not served under /crm/v2/ (404 there, §0) */
	v21Only?: boolean;
	/** no token needed (OAuth endpoints, test hooks) */
	public?: boolean;
	scopes?: ScopeRule;
	/** `:id` segments accept any value (ids and external values, or API names) */
	anyId?: boolean;
	/** served on the bulk-write upload host `{upload_domain}` (§1.1), not on the API origin */
	uploadHost?: boolean;
}

/** One operation of a group (groups/<group>/<operation>.ts); the group's index registers them in order. */
export interface Operation {
	method: Method;
	pattern: string;
	handler: Handler;
	options?: RouteOptions;
}
