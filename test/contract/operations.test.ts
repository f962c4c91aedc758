// The operation table of docs/protocol.md §5 and its machine-readable form, docs/operations.json,
// say the same: the same operations with the same methods and paths, and every query parameter,
// header and body key of the JSON named in the document. The request check of the harness
// (test/harness/requests.ts) reads the JSON; this keeps it from drifting from the document.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { checkRequest, OPERATIONS } from '../harness/requests';
import type { Operation } from '../harness/requests';

const DOC = readFileSync(path.resolve(__dirname, '..', '..', 'docs', 'protocol.md'), 'utf8');

/** The text of a `## N.` or `### N.M` section up to the next heading of the same or a higher level. */
function sectionText(number: string): string {
	const level = number.includes('.') ? '###' : '##';
	const heading = level === '##' ? `${number}\\.` : number.replace('.', '\\.');
	const start = DOC.search(new RegExp(`^${level} ${heading} `, 'm'));
	if (start < 0) throw new Error(`docs/protocol.md has no section ${number}`);
	const rest = DOC.slice(DOC.indexOf('\n', start) + 1);
	const end = rest.search(level === '###' ? /^#{2,3} /m : /^## /m);
	return end < 0 ? rest : rest.slice(0, end);
}

interface DocRow {
	operation: string;
	method: string;
	path: string;
	section: string;
}

const cells = (line: string) =>
	line
		.split(/(?<!\\)\|/)
		.slice(1, -1)
		.map((c) => c.trim());
const backticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** The operations of the §5 tables, one row per operation and method. */
function documentedOperations(): DocRow[] {
	const rows: DocRow[] = [];
	for (let sub = 1; DOC.includes(`\n### 5.${sub} `); sub++) {
		const section = `5.${sub}`;
		let previous: string[] = [];
		for (const line of sectionText(section).split('\n')) {
			if (!line.startsWith('| ') || line.startsWith('| Operation') || line.startsWith('|---'))
				continue;
			const [nameCell, methodCell, pathCell] = cells(line);
			const names = nameCell.split(' / ').map((n) => n.trim());
			const methods = methodCell.split(' / ').map((m) => m.trim());
			let paths: string[];
			if (pathCell === 'same') paths = previous;
			else if (pathCell.includes('download_url'))
				paths = ['/v2/crm/{xgid}/bulk-write/{jobId}/{file}'];
			else {
				const given = backticked(pathCell).map((p) => p.replace(/^\{upload_domain\}/, ''));
				const optional = /^(.*)\[(.*)\]$/.exec(given[0]);
				if (optional)
					paths = [optional[1], ...optional[2].split(/\\?\|/).map((tail) => optional[1] + tail)];
				else
					paths = given.map((p) => {
						if (!p.startsWith('…')) return p;
						const tail = p.slice(1).split('/').filter(Boolean);
						const head = given[0].split('/');
						return [...head.slice(0, head.length - tail.length), ...tail].join('/');
					});
			}
			previous = paths;
			const count = Math.max(names.length, methods.length);
			for (let i = 0; i < count; i++) {
				rows.push({
					operation: names[names.length === 1 ? 0 : i],
					method: methods[methods.length === 1 ? 0 : i],
					path: paths[paths.length === 1 ? 0 : i],
					section,
				});
			}
		}
	}
	return rows;
}

const key = (o: Pick<DocRow, 'operation' | 'method' | 'path'>) =>
	`${o.operation} ${o.method} ${o.path}`;

describe('docs/operations.json is the table of docs/protocol.md §5', () => {
	const documented = documentedOperations();

	test('the same operations, methods and paths', () => {
		expect(documented.length).toBeGreaterThan(150);
		expect(OPERATIONS.map(key).sort()).toEqual(documented.map(key).sort());
		for (const op of OPERATIONS) {
			expect({ op: key(op), section: op.section }).toEqual({
				op: key(op),
				section: documented.find((d) => key(d) === key(op))!.section,
			});
		}
	});

	test('every query parameter, header and body key of the JSON is named in the document', () => {
		const conventions = backticked(sectionText('3'));
		const unnamed: string[] = [];
		for (const op of OPERATIONS) {
			const named = new Set([...backticked(sectionText(op.section)), ...conventions]);
			const headers = op.headers.filter((h) => !['If-Modified-Since', 'X-EXTERNAL'].includes(h));
			for (const name of [...op.query, ...headers, ...op.body, ...(op.multipart ?? [])]) {
				if (
					!named.has(name) &&
					![...named].some((n) => n.startsWith(`${name}:`) || n.startsWith(`${name}=`))
				)
					unnamed.push(`${op.operation}: ${name}`);
			}
		}
		expect(unnamed).toEqual([]);
	});

	test('required names are allowed names', () => {
		for (const op of OPERATIONS) {
			const problems = [
				...op.requiredQuery.filter((q) => !op.query.includes(q)),
				...op.requiredHeaders.filter((h) => !op.headers.includes(h)),
				...op.requiredBody.filter((b) => !op.body.includes(b)),
			];
			expect({ op: key(op), problems }).toEqual({ op: key(op), problems: [] });
		}
	});
});

describe('the request check', () => {
	const request = (
		method: string,
		url: string,
		extra: Partial<Parameters<typeof checkRequest>[0]> = {},
	) =>
		checkRequest({
			method,
			url,
			status: 200,
			host: 'api',
			headers: { 'user-agent': 'n8n' },
			bodyRead: true,
			...extra,
		});
	const find = (name: string, method: string): Operation =>
		OPERATIONS.find((o) => o.operation === name && o.method === method)!;

	test('a request as listed passes and is taken for its operation', () => {
		expect(request('GET', '/crm/v2.1/Leads?fields=Last_Name&page=1&per_page=200')).toMatchObject({
			operation: 'GetRecords (GET)',
			problems: [],
		});
		expect(request('GET', '/crm/v2.1/Leads/search?word=x')).toMatchObject({
			operation: 'SearchRecords (GET)',
			problems: [],
		});
		expect(request('POST', '/crm/v2.1/Leads', { bodyKeys: ['data', 'trigger'] })).toMatchObject({
			operation: 'CreateRecords (POST)',
			problems: [],
		});
		expect(request('GET', '/crm/v2.1/settings/tags?module=Leads')).toMatchObject({
			operation: 'GetTags (GET)',
			problems: [],
		});
		const upload = request('POST', '/crm/v2.1/upload', {
			host: 'upload',
			parts: ['file'],
			headers: { feature: 'bulk-write', 'x-crm-org': '1' },
		});
		expect(upload).toMatchObject({ operation: 'UploadFile (POST)', problems: [] });
		expect(find('UploadFile', 'POST').host).toBe('upload');
	});

	test('unknown and missing query parameters, wrong methods, unknown body keys, missing headers are mismatches', () => {
		expect(request('GET', '/crm/v2.1/settings/fields/123?module=Leads&sort_by=x').problems).toEqual(
			['unknown query parameter `sort_by`'],
		);
		expect(request('DELETE', '/crm/v2.1/Leads').problems).toEqual([
			'missing required query parameter `ids`',
		]);
		expect(request('GET', '/crm/v2.1/Leads/search').problems).toEqual([
			'none of the query parameters criteria / email / phone / word',
		]);
		expect(request('PATCH', '/crm/v2.1/Leads').problems[0]).toMatch(
			/^wrong method: the table has GET \(GetRecords\)/,
		);
		expect(request('POST', '/crm/v2.1/Leads', { bodyKeys: ['data', 'extra'] }).problems).toEqual([
			'unknown body key `extra`',
		]);
		expect(request('POST', '/crm/v2.1/Leads', { bodyKeys: [] }).problems).toEqual([
			'missing required body key `data`',
		]);
		// answered before its body was read (a 429 of the limits): nothing to say about the body
		expect(request('POST', '/crm/v2.1/Leads', { bodyRead: false, status: 429 }).problems).toEqual(
			[],
		);
		expect(
			request('POST', '/crm/v2.1/upload', { host: 'upload', parts: ['file'] }).problems,
		).toEqual(['missing required header feature, X-CRM-ORG']);
		expect(
			request('POST', '/crm/v2.1/upload', {
				parts: ['file'],
				headers: { feature: 'bulk-write', 'x-crm-org': '1' },
			}).problems,
		).toEqual(['no operation of the table has this path']);
		expect(request('GET', '/crm/v2/settings/wizards').problems).toEqual([
			'v2.1-only operation sent under v2',
		]);
		// required in v2.1, optional in v2 (§5.9)
		expect(request('GET', '/crm/v2.1/Deals/1/Contact_Roles').problems).toEqual([
			'missing required query parameter `ids`',
		]);
		expect(request('GET', '/crm/v2/Deals/1/Contact_Roles').problems).toEqual([]);
		// a literal path of another method does not hide the operation of this method (§3.10)
		expect(request('PUT', '/crm/v2.1/Deals/1/Contact_Roles', { bodyKeys: ['data'] })).toMatchObject(
			{ operation: 'UpdateRelatedRecords (PUT)', problems: [] },
		);
	});
});
