// Every request the nodes send, checked against the operation table of docs/protocol.md §5
// (docs/operations.json): method, path, query parameters, required headers, body keys.
//
// The harness's sandboxes record the requests n8n's engine sends (its HTTP client signs them with
// the node's credential and identifies itself as `User-Agent: n8n`); the tests' own calls (fetch:
// `node`) and the OAuth and test-hook endpoints are not the nodes' and are left out.
// test/harness/requests-check.ts fails a test file whose nodes sent a request the table does not
// allow, and test/harness/requests-summary.ts prints the totals of the run.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { Sandbox, SeenRequest } from '../../sandbox/sandbox.ts';

export interface Operation {
	operation: string;
	section: string;
	method: string;
	path: string;
	/** `upload`: {upload_domain}; `download`: the sandbox form of a result.download_url; else {api_domain} */
	host?: 'upload' | 'download';
	query: string[];
	requiredQuery: string[];
	/** required query parameters that v2 does not require (`*` "(optional in v2)" in the document) */
	optionalInV2?: string[];
	/** at least one of these query parameters (SearchRecords, §3.11) */
	oneOfQuery?: string[];
	headers: string[];
	requiredHeaders: string[];
	body: string[];
	requiredBody: string[];
	/** multipart parts (a multipart request) */
	multipart?: string[];
	v21Only?: boolean;
}

export const OPERATIONS_FILE = path.resolve(__dirname, '..', '..', 'docs', 'operations.json');

export const OPERATIONS = (
	JSON.parse(readFileSync(OPERATIONS_FILE, 'utf8')) as { operations: Operation[] }
).operations;

/** Environment variable naming the folder where each test file leaves its totals. */
export const REQUEST_LOG_DIR_ENV = 'CRM_REQUEST_LOG_DIR';

/** First segments resolved before module routes (docs/protocol.md §3.10). */
const RESERVED = new Set(['settings', 'org', 'users', 'coql', 'files', 'actions', 'upload']);
const DIGITS = /^\d+$/;
/** Placeholders that hold a numeric id, or an external value under X-EXTERNAL (§3.9, §3.10). */
const ID_PLACEHOLDERS = new Set([
	'id',
	'recordId',
	'relatedId',
	'dealId',
	'contactId',
	'pipelineId',
	'ruleId',
	'wizardId',
	'jobId',
	'xgid',
]);

function segmentMatches(template: string, part: string, index: number, external: boolean): boolean {
	if (!template.startsWith('{')) return template.toLowerCase() === part.toLowerCase();
	const name = template.slice(1, -1);
	if (name === 'v') return part === 'v2' || part === 'v2.1';
	if (name === 'module')
		return !DIGITS.test(part) && !(index === 2 && RESERVED.has(part.toLowerCase()));
	if (name === 'extValue' || name === 'relatedExtValue') return external;
	if (ID_PLACEHOLDERS.has(name))
		return DIGITS.test(part) || (external && name !== 'xgid' && name !== 'jobId');
	if (name === 'relatedList' || name === 'apiName') return !DIGITS.test(part);
	return part.length > 0;
}

function literalCount(op: Operation): number {
	return op.path.split('/').filter((s) => s && !s.startsWith('{')).length;
}

/** Operations whose path matches (any method). */
export function pathMatches(
	host: 'api' | 'upload',
	pathname: string,
	external: boolean,
): Operation[] {
	const parts = pathname
		.split('/')
		.filter(Boolean)
		.map((p) => decodeURIComponent(p));
	return OPERATIONS.filter((op) => {
		if ((op.host === 'upload') !== (host === 'upload')) return false;
		const segments = op.path.split('/').filter(Boolean);
		return (
			segments.length === parts.length &&
			segments.every((s, i) => segmentMatches(s, parts[i], i, external))
		);
	});
}

/** The operations with the most literal segments (§3.10: literal beats parameter). */
function mostLiteral(ops: Operation[]): Operation[] {
	const best = Math.max(...ops.map(literalCount));
	return ops.filter((op) => literalCount(op) === best);
}

/** What is wrong with the request for this operation; empty when it is as the table lists it. */
export function problemsFor(op: Operation, request: SeenRequest): string[] {
	const url = new URL(request.url, 'http://sandbox.local');
	const problems: string[] = [];
	if (op.v21Only && url.pathname.includes('/v2/'))
		problems.push('v2.1-only operation sent under v2');
	const keys = [...new Set(url.searchParams.keys())];
	const unknown = keys.filter((k) => !op.query.includes(k));
	if (unknown.length)
		problems.push(`unknown query parameter ${unknown.map((k) => `\`${k}\``).join(', ')}`);
	const v2 = url.pathname.includes('/v2/');
	const missing = op.requiredQuery.filter(
		(k) => !keys.includes(k) && !(v2 && op.optionalInV2?.includes(k)),
	);
	if (missing.length)
		problems.push(`missing required query parameter ${missing.map((k) => `\`${k}\``).join(', ')}`);
	if (op.oneOfQuery && !op.oneOfQuery.some((k) => keys.includes(k)))
		problems.push(`none of the query parameters ${op.oneOfQuery.join(' / ')}`);
	const headers = Object.keys(request.headers).map((h) => h.toLowerCase());
	const missingHeaders = op.requiredHeaders.filter((h) => !headers.includes(h.toLowerCase()));
	if (missingHeaders.length) problems.push(`missing required header ${missingHeaders.join(', ')}`);
	// a call answered before its body was read (a forced fault, a limit) shows nothing of its body
	if (!request.bodyRead) return problems;
	if (request.parts) {
		if (!op.multipart) problems.push('multipart body where none is expected');
		else {
			const unknownParts = request.parts.filter((p) => !op.multipart!.includes(p));
			if (unknownParts.length) problems.push(`unknown multipart part ${unknownParts.join(', ')}`);
			if (!request.parts.length) problems.push(`no multipart part ${op.multipart.join(', ')}`);
		}
	} else {
		if (op.multipart?.length) problems.push(`no multipart body (parts ${op.multipart.join(', ')})`);
		const body = request.bodyKeys ?? [];
		const unknownKeys = body.filter((k) => !op.body.includes(k));
		if (unknownKeys.length)
			problems.push(`unknown body key ${unknownKeys.map((k) => `\`${k}\``).join(', ')}`);
		const missingKeys = op.requiredBody.filter((k) => !body.includes(k));
		if (missingKeys.length)
			problems.push(`missing required body key ${missingKeys.map((k) => `\`${k}\``).join(', ')}`);
	}
	return problems;
}

export interface Checked {
	method: string;
	url: string;
	/** the operation it was taken for (the first candidate it satisfies, else the first candidate) */
	operation?: string;
	problems: string[];
}

/** Checks one request against the table. */
export function checkRequest(request: SeenRequest): Checked {
	const url = new URL(request.url, 'http://sandbox.local');
	const external = Object.keys(request.headers).some((h) => h.toLowerCase() === 'x-external');
	const onPath = pathMatches(request.host, url.pathname, external);
	const candidates = mostLiteral(onPath.filter((op) => op.method === request.method.toUpperCase()));
	const base = { method: request.method, url: request.url };
	if (candidates.length === 0) {
		if (onPath.length)
			return {
				...base,
				problems: [
					`wrong method: the table has ${[...new Set(mostLiteral(onPath).map((o) => `${o.method} (${o.operation})`))].join(', ')}`,
				],
			};
		return {
			...base,
			problems: [
				`no operation of the table has this path${request.host === 'upload' ? ' on the upload host' : ''}`,
			],
		};
	}
	const results = candidates.map((op) => ({ op, problems: problemsFor(op, request) }));
	const ok = results.find((r) => r.problems.length === 0);
	if (ok) return { ...base, operation: `${ok.op.operation} (${ok.op.method})`, problems: [] };
	return {
		...base,
		operation: `${results[0].op.operation} (${results[0].op.method})`,
		problems: results[0].problems,
	};
}

/** Requests of the engine (the nodes), not of the tests or of n8n's OAuth client. */
export function isNodeRequest(request: SeenRequest): boolean {
	const agent = request.headers['user-agent'];
	if (agent !== 'n8n') return false;
	const pathname = request.url.split('?')[0];
	return !pathname.startsWith('/oauth/') && !pathname.startsWith('/__sandbox');
}

/** The requests of this test file (the harness's sandboxes record into it). */
export const recorded: Checked[] = [];

/**
 * Takes out the recorded mismatches `match` selects and answers them: for a test that makes a node
 * send a request the contract refuses on purpose (a misconfigured credential) and asserts it.
 */
export function takeMismatches(match: (checked: Checked) => boolean): Checked[] {
	const taken = recorded.filter((r) => r.problems.length > 0 && match(r));
	for (const r of taken) recorded.splice(recorded.indexOf(r), 1);
	return taken;
}

/** Records the nodes' requests to `sandbox` (every sandbox the harness starts). */
export function recordNodeRequests(sandbox: Sandbox): void {
	sandbox.requestObservers.push((request) => {
		if (isNodeRequest(request)) recorded.push(checkRequest(request));
	});
}

export interface FileTotals {
	file: string;
	requests: number;
	operations: string[];
	mismatches: Array<Omit<Checked, 'operation'> & { operation?: string }>;
}

/** This file's totals, left in the run's folder for the summary (when the run has one). */
export function saveTotals(file: string): FileTotals {
	const totals: FileTotals = {
		file,
		requests: recorded.length,
		operations: [
			...new Set(recorded.map((r) => r.operation).filter((o): o is string => Boolean(o))),
		],
		mismatches: recorded.filter((r) => r.problems.length > 0),
	};
	const dir = process.env[REQUEST_LOG_DIR_ENV];
	if (dir) {
		mkdirSync(dir, { recursive: true });
		const name = `${path.basename(file).replace(/[^\w.-]/g, '_')}-${process.pid}-${Date.now()}.json`;
		writeFileSync(path.join(dir, name), JSON.stringify(totals));
	}
	return totals;
}

/** One line per mismatch: `GET /crm/v2.1/… (Operation): problem; problem`. */
export function describeMismatches(mismatches: FileTotals['mismatches']): string {
	return mismatches
		.map(
			(m) =>
				`${m.method} ${m.url}${m.operation ? ` (${m.operation})` : ''}: ${m.problems.join('; ')}`,
		)
		.join('\n');
}
