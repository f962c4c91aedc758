// The package's own CSV code (nodes/shared/formats/csv.ts) against fixed RFC 4180 files, compared with what
// the csv-parse library reads from the same bytes; and end to end: a bulk-read export written by the
// sandbox (which uses csv-stringify, not the package's code) read back by the package's CSV.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';

import { csvToObjects, detectDelimiter, parseCsv, toCsv } from '../../nodes/shared/formats/csv';
import { readZip } from '../../nodes/shared/formats/zip';
import { useContractFixture } from '../harness/contract.ts';
import { api } from '../harness/sandbox.ts';
import { waitFor } from '../harness/wait.ts';

const FIXTURES = join(__dirname, '..', 'fixtures', 'csv');
const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.csv'));

/** What csv-parse reads: RFC 4180, BOM dropped, blank lines skipped, CRLF / LF / CR line ends, the given delimiter. */
const reference = (text: string, delimiter: string): string[][] =>
	parse(text, {
		bom: true,
		delimiter,
		skip_empty_lines: true,
		record_delimiter: ['\r\n', '\n', '\r'],
	}) as string[][];

describe('nodes/shared/formats/csv.ts on RFC 4180 fixtures', () => {
	it('has the fixtures (quotes, newlines, BOM, CRLF, empty fields, no trailing newline, delimiters)', () => {
		expect(fixtures.length).toBeGreaterThanOrEqual(8);
		const bytes = fixtures.map((f) => readFileSync(join(FIXTURES, f)));
		expect(bytes.some((b) => b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf)).toBe(true);
		expect(bytes.some((b) => b.includes('\r\n'))).toBe(true);
		expect(bytes.some((b) => b[b.length - 1] !== 0x0a)).toBe(true);
	});

	it.each(fixtures)('%s parses as csv-parse parses it', (name) => {
		const text = readFileSync(join(FIXTURES, name), 'utf8');
		const delimiter = detectDelimiter(text.replace(/^\uFEFF/, ''));
		expect(delimiter).toBe(name.startsWith('semicolon') ? ';' : ',');
		expect(parseCsv(text)).toEqual(reference(text, delimiter));
	});

	it('reads quotes, doubled quotes, embedded delimiters and line breaks to their values', () => {
		const quotes = parseCsv(readFileSync(join(FIXTURES, 'quotes-crlf.csv'), 'utf8'));
		expect(quotes[1]).toEqual(['O"Brien, Jr.', 'He said "hi"', 'plain']);
		const lines = csvToObjects(readFileSync(join(FIXTURES, 'embedded-newlines-lf.csv'), 'utf8'));
		expect(lines.map((r) => r.Text)).toEqual([
			'line one\nline two',
			'crlf inside\r\nstill inside',
			'trailing newline\n',
		]);
		const bom = csvToObjects(readFileSync(join(FIXTURES, 'bom-no-trailing-newline.csv'), 'utf8'));
		expect(bom).toEqual([
			{ Id: '1', City: 'Paris' },
			{ Id: '2', City: 'São Paulo' },
		]);
	});

	it('writes CSV that csv-parse reads back to the same cells', () => {
		const rows = [
			['Id', 'Text', 'Empty'],
			['1', 'O"Brien, Jr.', ''],
			['2', 'multi\nline\r\nvalue', ' spaced '],
			['3', 'naïve 日本 🚀', '"'],
		];
		expect(reference(toCsv(rows), ',')).toEqual(rows);
	});
});

describe('bulk-read export of the sandbox read by the package', () => {
	const sb = useContractFixture({
		scope: 'CRM.bulk.ALL,CRM.modules.ALL',
		sandbox: { jobStepMs: 10 },
	});

	const AWKWARD = [
		{
			Last_Name: 'O"Brien, Jr.',
			First_Name: ' padded ',
			Description: 'line one\nline two\r\nline "three", done',
			City: '',
		},
		{
			Last_Name: '"quoted"',
			First_Name: 'a,b;c|d:e',
			Description: 'naïve café 日本 🚀',
			City: 'São Paulo',
		},
		{
			Last_Name: 'Trailing newline',
			First_Name: '=SUM(A1)',
			Description: 'ends with a newline\n',
			City: ',',
		},
		{ Last_Name: 'Plain', First_Name: '', Description: '""', City: '\t tab' },
	];

	it('a record’s awkward values come back unchanged', async () => {
		const company = `CSV Awkward ${Date.now()}`;
		const created = await api(`${sb.url}/crm/v2.1/Leads`, sb.token, {
			method: 'POST',
			body: { data: AWKWARD.map((r) => ({ ...r, Company: company })) },
		});
		expect(created.status).toBe(201);
		const ids: string[] = created.body.data.map((r: any) => r.details.id);
		const fields = ['Last_Name', 'First_Name', 'Description', 'City'];
		const job = await api(`${sb.url}/crm/bulk/v2.1/read`, sb.token, {
			method: 'POST',
			body: {
				query: {
					module: { api_name: 'Leads' },
					fields,
					criteria: { api_name: 'Company', comparator: 'equal', value: company },
				},
				file_type: 'csv',
			},
		});
		expect(job.status).toBe(201);
		const jobId = job.body.data[0].details.id;
		const state = await waitFor(
			async () =>
				(await api(`${sb.url}/crm/bulk/v2.1/read/${jobId}`, sb.token)).body.data[0].state as string,
			{
				ok: (s) => s === 'COMPLETED',
				what: `bulk read ${jobId} COMPLETED`,
			},
		).catch(() => 'not COMPLETED');
		expect(state).toBe('COMPLETED');
		const res = await fetch(`${sb.url}/crm/bulk/v2.1/read/${jobId}/result`, {
			headers: { Authorization: `Bearer ${sb.token}` },
		});
		expect(res.status).toBe(200);
		const [entry] = readZip(Buffer.from(await res.arrayBuffer()));
		const rows = csvToObjects(entry.data.toString('utf8'));
		expect(rows).toHaveLength(AWKWARD.length);
		const byId = new Map(rows.map((r) => [r.Id, r]));
		AWKWARD.forEach((values, i) => {
			expect(byId.get(ids[i])).toEqual({ Id: ids[i], ...values });
		});
	});
});
