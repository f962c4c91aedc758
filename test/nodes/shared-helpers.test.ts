// The one-place helpers of nodes/shared: base URL (code and expression agree), ID check, multipart
// body, Content-Disposition file names, date forms and the watch-channel model.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import type { INode, INodeProperties, INodeType } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fileNameFromDisposition } from '../../nodes/shared/formats/contentDisposition';
import {
	dateTimeMillis,
	toCrmDate,
	toCrmDateTime,
	toCrmDateTimeIn,
	toUtcWireTime,
} from '../../nodes/shared/formats/dates';
import { multipartBody, setMultipartBody } from '../../nodes/shared/formats/multipart';
import { baseUrl, baseUrlExpression, uploadDomain } from '../../nodes/shared/transport';
import type { CrmCredentials } from '../../nodes/shared/transport';
import { checkDigits, digitsMessage, ID_RE, isDigits } from '../../nodes/shared/records/validation';
import {
	MAX_EXPIRY_MS,
	newChannelId,
	newToken,
	TOKEN_MAX,
	wishKeys,
} from '../../nodes/shared/changes/watchChannels';
import { MAX_LIFETIME_MS } from '../../nodes/CrmTrigger/channel';
import { packageNodeTypes } from '../harness/crm';

const NODES = path.resolve(__dirname, '..', '..', 'nodes');

/** Evaluates a `={{ … }}…` template the way n8n resolves `requestDefaults.baseURL`: each `{{ }}` with `$credentials` in scope. */
function evaluate(expression: string, credentials: CrmCredentials): string {
	expect(expression.startsWith('=')).toBe(true);
	return expression.slice(1).replace(/\{\{([\s\S]*?)\}\}/g, (_, code: string) => {
		const value = new Function('$credentials', `return (${code});`)(credentials);
		return String(value);
	});
}

/** Every `baseURL` a node's description carries: the request defaults and each routed request. */
function baseUrlsOf(type: INodeType): string[] {
	const urls: string[] = [];
	if (type.description.requestDefaults?.baseURL)
		urls.push(type.description.requestDefaults.baseURL);
	const visit = (items: Array<INodeProperties | any>) => {
		for (const item of items ?? []) {
			if (item?.routing?.request?.baseURL) urls.push(item.routing.request.baseURL);
			if (Array.isArray(item?.options)) visit(item.options);
			if (Array.isArray(item?.values)) visit(item.values);
		}
	};
	visit(type.description.properties);
	return urls;
}

describe('base URL: one rule for code and expressions', () => {
	const origins: Array<[string, CrmCredentials]> = [
		[
			'api_domain present',
			{
				oauthTokenData: { api_domain: 'https://api.crm.example' },
				accountsUrl: 'https://accounts.crm.example',
			},
		],
		[
			'api_domain with trailing slashes',
			{
				oauthTokenData: { api_domain: 'https://api.crm.example//' },
				environment: 'sandbox',
				sandboxUrl: 'http://localhost:4010',
			},
		],
		[
			'api_domain absent, service',
			{ environment: 'service', accountsUrl: 'https://accounts.crm.example/' },
		],
		[
			'api_domain absent, sandbox',
			{
				environment: 'sandbox',
				sandboxUrl: 'http://127.0.0.1:4090/',
				accountsUrl: 'https://accounts.crm.example',
			},
		],
		[
			'api_domain empty, no environment (the field absent)',
			{ oauthTokenData: { api_domain: '' }, accountsUrl: 'https://accounts.crm.example' },
		],
		['nothing named', { environment: 'service' }],
	];
	const variants: Array<string | undefined> = ['v2', 'v2.1', undefined];
	const cases = origins.flatMap(([what, credentials]) =>
		variants.map(
			(apiVariant) =>
				[`${what}, variant ${apiVariant ?? 'unset'}`, { ...credentials, apiVariant }] as [
					string,
					CrmCredentials,
				],
		),
	);

	test.each(cases)('%s', (_what, credentials) => {
		for (const root of ['rest', 'bulk'] as const) {
			expect(evaluate(baseUrlExpression(root), credentials)).toBe(baseUrl(credentials, root));
		}
	});

	test('the shapes of the rule', () => {
		const credentials: CrmCredentials = {
			oauthTokenData: { api_domain: 'https://api.crm.example/' },
			apiVariant: 'v2',
		};
		expect(baseUrl(credentials)).toBe('https://api.crm.example/crm/v2');
		expect(baseUrl(credentials, 'bulk')).toBe('https://api.crm.example/crm/bulk/v2');
		expect(baseUrl(credentials, 'origin')).toBe('https://api.crm.example');
		expect(baseUrl({ accountsUrl: 'https://accounts.crm.example' })).toBe(
			'https://accounts.crm.example/crm/v2.1',
		);
	});

	test("the bulk-write upload host (§1.1): the Upload URL, the sandbox's next port, none for a CRM Service credential without one", () => {
		const token = { oauthTokenData: { api_domain: 'https://api.crm.example' } };
		expect(baseUrl({ ...token, uploadUrl: 'https://content.crm.example/' }, 'upload')).toBe(
			'https://content.crm.example/crm/v2.1',
		);
		// the service refuses uploads on the API origin: crmRequest asks for the field instead
		expect(uploadDomain({ ...token, uploadUrl: '' })).toBe('');
		expect(uploadDomain({ ...token, environment: 'service' })).toBe('');
		const sandbox: CrmCredentials = {
			environment: 'sandbox',
			sandboxUrl: 'http://127.0.0.1:4095',
			oauthTokenData: { api_domain: 'http://127.0.0.1:4095' },
		};
		expect(baseUrl(sandbox, 'upload')).toBe('http://127.0.0.1:4096/crm/v2.1');
		expect(baseUrl({ ...sandbox, sandboxUploadUrl: 'http://uploads.local:9000' }, 'upload')).toBe(
			'http://uploads.local:9000/crm/v2.1',
		);
		// the service's field does not apply to a sandbox credential
		expect(baseUrl({ ...sandbox, uploadUrl: 'https://content.crm.example' }, 'upload')).toBe(
			'http://127.0.0.1:4096/crm/v2.1',
		);
	});

	test('every node builds its baseURL from the one expression', () => {
		const allowed = new Set([baseUrlExpression('rest'), baseUrlExpression('bulk')]);
		const types = Object.values(packageNodeTypes()).filter((t) => t.description.requestDefaults);
		expect(types.length).toBeGreaterThan(0);
		for (const type of types) {
			expect(type.description.requestDefaults?.baseURL).toBe(baseUrlExpression('rest'));
			for (const url of baseUrlsOf(type)) expect(allowed.has(url)).toBe(true);
		}
	});
});

describe('record-id validation', () => {
	const node = {
		name: 'CRM',
		type: 'crm',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	} as unknown as INode;

	test('one regex, one message', () => {
		expect(ID_RE.test('4876876000000225013')).toBe(true);
		for (const bad of ['', ' 1', '1 ', '12ab', '-1', '1.0']) expect(isDigits(bad)).toBe(false);
		expect(isDigits(undefined)).toBe(false);
		expect(digitsMessage('Record ID', 'x')).toBe('Record ID must be digits, got "x"');
		expect(checkDigits(node, '123', 'Record ID')).toBe('123');
		expect(() => checkDigits(node, 'abc', 'Tag ID', { itemIndex: 2 })).toThrow(
			new NodeOperationError(node, 'Tag ID must be digits, got "abc"'),
		);
		const error = (() => {
			try {
				checkDigits(node, '', 'Note ID', { itemIndex: 3, description: 'why' });
			} catch (thrown) {
				return thrown as NodeOperationError;
			}
			return undefined;
		})();
		expect(error).toBeInstanceOf(NodeOperationError);
		expect({
			message: error?.message,
			description: error?.description,
			itemIndex: error?.context.itemIndex,
		}).toEqual({
			message: 'Note ID is empty (item 3)',
			description: 'why',
			itemIndex: 3,
		});
	});
});

describe('multipart body', () => {
	test('every file is a part named `file` with its name and type, in order', async () => {
		const form = multipartBody([
			{ data: Buffer.from('a'), fileName: 'a.txt', mimeType: 'text/plain' },
			{ data: Buffer.from('bb'), fileName: 'b.zip', mimeType: 'application/zip' },
		]);
		const parts = form.getAll('file') as File[];
		expect(parts.map((p) => [p.name, p.type, p.size])).toEqual([
			['a.txt', 'text/plain', 1],
			['b.zip', 'application/zip', 2],
		]);
		expect(await parts[1].text()).toBe('bb');
	});

	test('a routed request loses its JSON Content-Type and, when asked, json', () => {
		const request = setMultipartBody(
			{
				url: '/x',
				headers: { 'content-type': 'application/json', Accept: 'application/json' },
				json: true,
			},
			[{ data: Buffer.from('p'), fileName: 'p.png', mimeType: 'image/png' }],
			{ json: false },
		);
		expect(request.headers).toEqual({ Accept: 'application/json' });
		expect(request.body).toBeInstanceOf(FormData);
		expect(request.json).toBe(false);
		expect(setMultipartBody({ url: '/x', json: true }, []).json).toBe(true);
	});
});

describe('Content-Disposition file names (RFC 6266)', () => {
	test.each([
		['attachment; filename="report.pdf"', 'report.pdf'],
		['attachment; filename=report.pdf', 'report.pdf'],
		['attachment; filename="a; b.pdf"', 'a; b.pdf'],
		["attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf", 'résumé.pdf'],
		['attachment; filename="resume.pdf"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.pdf', 'résumé.pdf'],
		['attachment; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.pdf; filename="resume.pdf"', 'résumé.pdf'],
		['attachment; filename*="UTF-8\'\'x%20y.csv"', 'x y.csv'],
		["attachment; filename*=UTF-8''bad%E0%A4%A", 'bad%E0%A4%A'],
		['ATTACHMENT; FILENAME = "upper.txt"', 'upper.txt'],
	])('%s', (header, name) => {
		expect(fileNameFromDisposition(header)).toBe(name);
	});

	test('no file name', () => {
		expect(fileNameFromDisposition(undefined)).toBeUndefined();
		expect(fileNameFromDisposition('')).toBeUndefined();
		expect(fileNameFromDisposition('inline')).toBeUndefined();
		expect(fileNameFromDisposition(42)).toBeUndefined();
	});
});

describe('date forms of docs/protocol.md §4', () => {
	test('DateTime, Date and the UTC wire form', () => {
		expect(toCrmDateTime('2026-03-01T10:20:30.456+05:30')).toBe('2026-03-01T10:20:30+05:30');
		expect(toCrmDateTime('not a date')).toBeUndefined();
		expect(toCrmDateTimeIn('2026-03-01T10:20:30', 'Europe/Berlin')).toBe(
			'2026-03-01T10:20:30+01:00',
		);
		expect(toCrmDateTimeIn('2026-03-01T10:20:30Z', 'Europe/Berlin')).toBe(
			'2026-03-01T10:20:30+00:00',
		);
		expect(toCrmDateTimeIn('next tuesday', 'UTC')).toBeUndefined();
		expect(toCrmDate('2026-03-01T23:59:00+02:00')).toBe('2026-03-01');
		expect(toCrmDate('x')).toBeUndefined();
		expect(toUtcWireTime(Date.UTC(2026, 2, 1, 10, 20, 30, 999))).toBe('2026-03-01T10:20:30Z');
		expect(dateTimeMillis('2026-03-01T10:20:30', 'UTC')).toBe(Date.UTC(2026, 2, 1, 10, 20, 30));
		expect(dateTimeMillis(new Date(5000), 'UTC')).toBe(5000);
		expect(dateTimeMillis('nope', 'UTC')).toBeUndefined();
	});
});

describe('watch-channel model', () => {
	test('one expiry limit, ids and tokens within the contract', () => {
		expect(MAX_LIFETIME_MS).toBe(MAX_EXPIRY_MS);
		expect(MAX_EXPIRY_MS).toBe(24 * 60 * 60 * 1000);
		expect(newChannelId()).toMatch(/^[1-9]\d{17}$/);
		expect(newToken().length).toBeLessThanOrEqual(TOKEN_MAX);
	});

	test('a wish as watch keys, leaving out what it does not say', () => {
		expect(
			wishKeys({
				events: ['Leads.all'],
				notifyUrl: 'https://h/x',
				affectedValues: false,
				relatedActions: true,
			}),
		).toEqual({
			events: ['Leads.all'],
			notify_url: 'https://h/x',
			return_affected_field_values: false,
			notify_on_related_action: true,
		});
		expect(wishKeys({ relatedActions: false })).toEqual({ notify_on_related_action: false });
	});

	test("no node imports another node's folder", () => {
		const offenders: string[] = [];
		const walk = (dir: string) => {
			for (const name of readdirSync(dir)) {
				const file = path.join(dir, name);
				if (statSync(file).isDirectory()) walk(file);
				else if (file.endsWith('.ts')) {
					const own = path.relative(NODES, file).split(path.sep)[0];
					for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']*)'/g)) {
						const target = path
							.relative(NODES, path.resolve(path.dirname(file), spec))
							.split(path.sep)[0];
						if (target !== own && target !== 'shared')
							offenders.push(`${path.relative(NODES, file)} → ${spec}`);
					}
				}
			}
		};
		walk(NODES);
		expect(offenders).toEqual([]);
	});
});
