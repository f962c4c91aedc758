import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { crmApiError, errorBodyOf, responseOfError } from './errors';

export const CREDENTIAL = 'crmOAuth2Api';

export type CrmContext =
	| IExecuteFunctions
	| IExecuteSingleFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| ITriggerFunctions
	| IWebhookFunctions;

/** Which URL root of docs/protocol.md §1.2 a call goes to ('upload': the bulk-write upload host). */
export type CrmRoot = 'rest' | 'bulk' | 'origin' | 'upload';

export interface CrmCredentials {
	/** 'service' (the default, also when the field is absent) or 'sandbox' */
	environment?: string;
	accountsUrl?: string;
	sandboxUrl?: string;
	/** the bulk-write upload host (§1.1): `uploadUrl` for the service, `sandboxUploadUrl` for the sandbox */
	uploadUrl?: string;
	sandboxUploadUrl?: string;
	apiVariant?: string;
	oauthTokenData?: { api_domain?: string; access_token?: string };
}

// ---- base URL (docs/protocol.md §1.1, §1.2) ---------------------------------------------------------
// One rule, written twice only because declarative operations need it as an n8n expression:
//   origin  = the token response's api_domain, else the accounts server the credential names
//             (sandboxUrl when the environment is 'sandbox', accountsUrl otherwise), else '';
//             trailing slashes removed
//   variant = the credential's apiVariant ('v2' or 'v2.1'), 'v2.1' when unset
//   rest    = {origin}/crm/{variant}        bulk = {origin}/crm/bulk/{variant}
// baseUrl() applies it in code, baseUrlExpression() renders it for requestDefaults/routing.baseURL;
// a unit test holds the two to the same URLs.

/** The accounts server the credential names: the service's, or the sandbox when chosen. */
function accountsOrigin(credentials: CrmCredentials): string {
	return (
		(credentials.environment === 'sandbox' ? credentials.sandboxUrl : credentials.accountsUrl) ?? ''
	);
}

/**
 * The API origin: the token response's api_domain (§1.1), else the accounts server the credential
 * names. Never a built-in host: '' when the credential names neither (crmRequest reports it).
 */
export function apiDomain(credentials: CrmCredentials): string {
	const origin = credentials.oauthTokenData?.api_domain || accountsOrigin(credentials);
	return origin.replace(/\/+$/, '');
}

/** The sandbox's own upload host when the credential names none: its URL with the next port (§1.1). */
function sandboxUploadOrigin(sandboxUrl: string | undefined): string {
	if (!sandboxUrl) return '';
	try {
		const url = new URL(sandboxUrl);
		const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
		return `${url.protocol}//${url.hostname.includes(':') ? `[${url.hostname}]` : url.hostname}:${port + 1}`;
	} catch {
		return '';
	}
}

/**
 * The bulk-write upload origin `{upload_domain}` (§1.1, §1.2): the credential's Upload URL (for the
 * sandbox: its Sandbox Upload URL, else the Sandbox URL's next port, where the sandbox serves
 * uploads). '' when a CRM Service credential names none: the service refuses uploads on the API
 * origin, so crmRequest asks for the field (UPLOAD_HOSTS) instead of sending there.
 */
export function uploadDomain(credentials: CrmCredentials): string {
	const named =
		credentials.environment === 'sandbox'
			? credentials.sandboxUploadUrl || sandboxUploadOrigin(credentials.sandboxUrl)
			: credentials.uploadUrl;
	return (named ?? '').trim().replace(/\/+$/, '');
}

/**
 * The upload host of each data centre (docs/protocol.md §1.1: a content host per data centre), as
 * the credential's Upload URL help and the error of an upload without it list them.
 */
const UPLOAD_HOSTS =
	'https://content.crm.example for an account whose API address is https://api.crm.example (the default data centre), https://content.eu.crm.example for https://api.eu.crm.example (likewise in, au, …)';

/** The name of the node's CRM credential, as the user saved it. */
function credentialName(ctx: CrmContext): string {
	return ctx.getNode().credentials?.[CREDENTIAL]?.name ?? 'CRM OAuth2 API';
}

/**
 * The error of a credential saved without connecting (its sign-in window closed before n8n got a
 * token): n8n itself would say "Unable to sign without access token" on every call.
 */
function notConnected(ctx: CrmContext, itemIndex?: number): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`The credential "${credentialName(ctx)}" is not connected yet: open it and click Connect`,
		{
			itemIndex,
			description:
				'It was saved without signing in to the CRM (or its sign-in window was closed), so it holds no access token. Open the credential, click "Connect my account" and approve the access.',
		},
	);
}

/**
 * What n8n's OAuth2 signing says of a credential without a token: no token data at all, or token
 * data without an access token.
 */
const NOT_CONNECTED = ['OAuth credentials not connected', 'Unable to sign without access token'];

/** n8n's OAuth2 signing refused a call because the credential holds no access token. */
function isNotConnected(error: unknown): boolean {
	const e = (error ?? {}) as { message?: unknown; cause?: { message?: unknown } };
	return [e.message, e.cause?.message].some(
		(text) => typeof text === 'string' && NOT_CONNECTED.some((said) => text.includes(said)),
	);
}

export function apiVariant(credentials: CrmCredentials): 'v2' | 'v2.1' {
	return credentials.apiVariant === 'v2' ? 'v2' : 'v2.1';
}

/** The path of a root below the origin. */
function rootPath(root: Exclude<CrmRoot, 'origin'>): string {
	return root === 'bulk' ? '/crm/bulk/' : '/crm/';
}

export function baseUrl(credentials: CrmCredentials, root: CrmRoot = 'rest'): string {
	const origin = root === 'upload' ? uploadDomain(credentials) : apiDomain(credentials);
	if (root === 'origin') return origin;
	return `${origin}${rootPath(root)}${apiVariant(credentials)}`;
}

/** The same rule as baseUrl(), as the n8n expression a declarative node's `baseURL` needs. */
export function baseUrlExpression(root: Exclude<CrmRoot, 'origin' | 'upload'> = 'rest'): string {
	const origin =
		'($credentials.oauthTokenData && $credentials.oauthTokenData.api_domain || ($credentials.environment === "sandbox" ? $credentials.sandboxUrl : $credentials.accountsUrl) || "").replace(/\\/+$/, "")';
	// the credential offers only 'v2' and 'v2.1', so `|| "v2.1"` is apiVariant()'s rule
	const variant = '$credentials.apiVariant || "v2.1"';
	return `={{ ${origin} }}${rootPath(root)}{{ ${variant} }}`;
}

/** How often and how patiently a request is sent again. */
export interface RetryPolicy {
	tries: number;
	/** back-off before the 2nd try; doubled for each further one, up to `capMs` */
	baseMs: number;
	capMs: number;
}

/**
 * Retry policy of docs/protocol.md §7: exponential back-off 1 s, 2 s, 4 s … with jitter, at most 5 tries.
 * retryWait also takes another policy (unit tests of the rule).
 */
export const RETRY: RetryPolicy = { tries: 5, baseMs: 1000, capMs: 16_000 };

const IDEMPOTENT: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

/** Error codes of a connection closed or timed out after the request was sent (its effect is unknown). */
const CONNECTION_LOST: ReadonlySet<string> = new Set([
	'ECONNRESET',
	'EPIPE',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
]);

/** Was the connection lost after the request went out (no HTTP status to judge by)? */
export function isConnectionLost(error: unknown): boolean {
	const e = error as { httpCode?: unknown; code?: unknown; cause?: { code?: unknown } } | undefined;
	return [e?.httpCode, e?.code, e?.cause?.code].some(
		(code) => typeof code === 'string' && CONNECTION_LOST.has(code),
	);
}

/**
 * n8n's own give-up on a starved CPU: it runs some patterns of a request in a sandbox with a 250 ms
 * budget and throws this when a saturated machine overruns it. A glitch of the moment, not an
 * answer of the CRM: a call that is safe to send again is tried again.
 */
function isStarved(error: unknown): boolean {
	const message = (error as { message?: unknown; cause?: { message?: unknown } } | undefined) ?? {};
	return [message.message, message.cause?.message].some(
		(text) => typeof text === 'string' && text.includes('Regular expression execution timed out'),
	);
}

/**
 * A write whose effect the client cannot know: the CRM answered 5xx, or the connection was lost
 * after the request went out. Such a write may have happened, so it must not be sent again as is.
 */
export function isOutcomeUnknown(error: unknown): boolean {
	const { status } = responseOfError(error);
	return status === undefined ? isConnectionLost(error) : status >= 500;
}

/**
 * Whether a failed call may be sent again. 429 means the call was not processed, so any method
 * may be retried; a 5xx or a lost connection leaves a write's outcome unknown, so only idempotent
 * calls are retried (a create is never sent twice). `idempotent` defaults to the method's nature;
 * an upsert matching on a unique field is idempotent too (see batch.ts).
 */
export function isRetryable(
	status: number | undefined,
	method: string,
	idempotent = IDEMPOTENT.has(method.toUpperCase()),
): boolean {
	if (status === 429) return true;
	return idempotent && status !== undefined && status >= 500;
}

function backoffMs(attempt: number, policy: RetryPolicy = RETRY): number {
	const base = Math.min(policy.capMs, policy.baseMs * 2 ** attempt);
	return Math.round(base * (0.8 + Math.random() * 0.4));
}

/**
 * How long to wait before sending a failed call again (its try `attempt`, from 0), or undefined when
 * it must not be sent again: what docs/protocol.md §7 makes safe, within the policy's tries.
 */
export function retryWait(
	error: unknown,
	attempt: number,
	method: string,
	idempotent = IDEMPOTENT.has(method.toUpperCase()),
	policy: RetryPolicy = RETRY,
): number | undefined {
	if (attempt + 1 >= policy.tries) return undefined;
	const { status } = responseOfError(error);
	const again =
		isRetryable(status, method, idempotent) ||
		(idempotent && status === undefined && (isConnectionLost(error) || isStarved(error)));
	return again ? backoffMs(attempt, policy) : undefined;
}

/**
 * The wait before trying a call refused with 429 again while a caller waits for a slot
 * (CrmRequest.slotWaitMs): RETRY's back-off, capped, as long as the slot wait lasts.
 */
function slotWait(
	error: unknown,
	attempt: number,
	firstTry: number,
	slotWaitMs: number | undefined,
): number | undefined {
	if (!slotWaitMs || responseOfError(error).status !== 429) return undefined;
	const wait = backoffMs(Math.min(attempt, RETRY.tries - 1));
	return Date.now() + wait - firstTry <= slotWaitMs ? wait : undefined;
}

/** Rewrites an error from n8n's HTTP helpers into a NodeApiError carrying the CRM envelope. */
export function toCrmError(
	ctx: CrmContext,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (isNotConnected(error)) return notConnected(ctx, itemIndex);
	const { status, body } = responseOfError(error);
	const envelope = errorBodyOf(body);
	if (envelope)
		return crmApiError(ctx.getNode(), envelope, {
			httpCode: status ? String(status) : undefined,
			itemIndex,
		});
	if (error instanceof NodeApiError) return error;
	return new NodeApiError(ctx.getNode(), error as never, { itemIndex });
}

export interface CrmRequest {
	method: IHttpRequestMethods;
	/** path below the root, e.g. `/Leads`; or an absolute URL (bulk-write downloads) */
	path: string;
	root?: CrmRoot;
	qs?: IDataObject;
	body?: IDataObject | FormData | Buffer;
	headers?: IDataObject;
	/** download bytes */
	binary?: boolean;
	/**
	 * the call answers one result per item under this key (§3.8): crmRequest answers that list; a 400
	 * whose body holds it is a per-item result, not a request error
	 */
	itemListKey?: string;
	/** answer the full response (status, headers, body) instead of the parsed body */
	full?: boolean;
	itemIndex?: number;
	/** the call may be repeated safely although its method is POST (e.g. an upsert on a unique field): 5xx and lost connections are retried */
	idempotent?: boolean;
	/**
	 * ms to wait for a slot: a 429 (too many open bulk jobs or result downloads, §7) is tried again
	 * with the back-off of RETRY, beyond its tries, until this long after the first try
	 */
	slotWaitMs?: number;
}

/** A call answered with one result per item (§3.8): the form batched writes send. */
export type CrmListRequest = CrmRequest & { itemListKey: string };

/**
 * The one authenticated request of code paths (custom operations, triggers, pickers): base URL from
 * the credential, OAuth2 refresh by n8n, retry with back-off (§7), error envelopes mapped. Answers
 * the parsed body (`{}` for a 204), the result list under `itemListKey`, or with `full` the response.
 */
export async function crmRequest(ctx: CrmContext, request: CrmListRequest): Promise<IDataObject[]>;
export async function crmRequest(
	ctx: CrmContext,
	request: CrmRequest & { full: true },
): Promise<IN8nHttpFullResponse>;
export async function crmRequest(ctx: CrmContext, request: CrmRequest): Promise<IDataObject>;
export async function crmRequest(
	ctx: CrmContext,
	request: CrmRequest,
): Promise<IDataObject | IDataObject[] | IN8nHttpFullResponse> {
	const credentials = (await ctx.getCredentials(CREDENTIAL)) as CrmCredentials;
	if (!credentials.oauthTokenData?.access_token) throw notConnected(ctx, request.itemIndex);
	if (!apiDomain(credentials)) {
		throw new NodeOperationError(ctx.getNode(), 'The CRM credential names no server', {
			description: 'Set its Accounts URL (or choose the sandbox as its server) and connect it',
		});
	}
	if (request.root === 'upload' && !uploadDomain(credentials)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The credential "${credentialName(ctx)}" has no Upload URL: Bulk Write uploads its files to the content host of your account's data centre`,
			{
				itemIndex: request.itemIndex,
				description: `Open the credential and set Upload URL: ${UPLOAD_HOSTS}. The service refuses uploads on the API address.`,
			},
		);
	}
	const url = /^https?:\/\//.test(request.path)
		? request.path
		: `${baseUrl(credentials, request.root)}${request.path}`;
	const isJsonBody =
		request.body !== undefined &&
		!(request.body instanceof FormData) &&
		!Buffer.isBuffer(request.body);
	const options: IHttpRequestOptions = {
		method: request.method,
		url,
		qs: request.qs,
		body: request.body as IHttpRequestOptions['body'],
		headers: {
			Accept: 'application/json',
			...(isJsonBody ? { 'Content-Type': 'application/json' } : {}),
			...request.headers,
		},
		json: !request.binary,
		returnFullResponse: true,
		...(request.binary ? { encoding: 'arraybuffer' as const } : {}),
	};
	let response: IN8nHttpFullResponse;
	const firstTry = Date.now();
	for (let attempt = 0; ; attempt++) {
		try {
			response = (await ctx.helpers.httpRequestWithAuthentication.call(
				ctx,
				CREDENTIAL,
				options,
			)) as IN8nHttpFullResponse;
			break;
		} catch (error) {
			const wait =
				retryWait(error, attempt, request.method, request.idempotent) ??
				slotWait(error, attempt, firstTry, request.slotWaitMs);
			if (wait !== undefined) {
				await sleep(wait);
				continue;
			}
			const { status, body } = responseOfError(error);
			// If-Modified-Since and nothing changed (§3.7): an empty answer, not an error
			if (status === 304) {
				response = {
					statusCode: 304,
					headers: {},
					body: undefined,
					statusMessage: 'Not Modified',
				} as IN8nHttpFullResponse;
				break;
			}
			if (
				request.itemListKey &&
				status === 400 &&
				body &&
				Array.isArray((body as IDataObject)[request.itemListKey])
			) {
				response = {
					statusCode: 400,
					headers: {},
					body,
					statusMessage: 'Bad Request',
				} as IN8nHttpFullResponse;
				break;
			}
			throw toCrmError(ctx, error, request.itemIndex);
		}
	}
	if (request.full) return response;
	const body = (
		response.body && typeof response.body === 'object' ? response.body : {}
	) as IDataObject;
	return request.itemListKey ? ((body[request.itemListKey] ?? []) as IDataObject[]) : body;
}
