// Unit tests of the package's CSV reader/writer (nodes/shared/formats/csv.ts), cross-checked with the sandbox's.
import {
	countCsvRecords,
	csvToObjects,
	detectDelimiter,
	parseCsv,
	toCsv,
} from '../../../nodes/shared/formats/csv';
import { parseCsv as sandboxParseCsv } from '../../../sandbox/csv.ts';

describe('parseCsv', () => {
	test('RFC 4180: quotes, doubled quotes, delimiters and line breaks inside quotes, CRLF and LF', () => {
		const text = 'Id,Name,Note\r\n1,"Smith, John","said ""hi""\nthen left"\n2,Plain,\r\n';
		expect(parseCsv(text)).toEqual([
			['Id', 'Name', 'Note'],
			['1', 'Smith, John', 'said "hi"\nthen left'],
			['2', 'Plain', ''],
		]);
		expect(sandboxParseCsv(text)).toEqual(parseCsv(text));
	});

	test('BOM dropped, blank lines skipped, last line without line end', () => {
		expect(parseCsv('\ufeffA,B\n\n1,2\n\n3,4')).toEqual([
			['A', 'B'],
			['1', '2'],
			['3', '4'],
		]);
	});

	test.each([
		['A,B,C', ','],
		['A;B;C', ';'],
		['A:B:C', ':'],
		['A|B|C', '|'],
		['"A;x",B,C', ','],
		['A', ','],
	])('detects the delimiter of %s', (header, delimiter) => {
		expect(detectDelimiter(`${header}\n1,2,3`)).toBe(delimiter);
	});

	test('semicolon files parse with their delimiter', () => {
		expect(parseCsv('Last_Name;Company\nSmith;"Acme; Inc."\n')).toEqual([
			['Last_Name', 'Company'],
			['Smith', 'Acme; Inc.'],
		]);
	});
});

describe('csvToObjects / countCsvRecords / toCsv', () => {
	test('objects keyed by the header; short rows padded with empty strings', () => {
		expect(csvToObjects('Id,Last_Name,Email\n1,Smith,s@x.example\n2,Jones\n')).toEqual([
			{ Id: '1', Last_Name: 'Smith', Email: 's@x.example' },
			{ Id: '2', Last_Name: 'Jones', Email: '' },
		]);
	});

	test('counts data rows, not physical lines', () => {
		expect(countCsvRecords('A,B\n1,"two\nlines"\n3,4\n')).toBe(2);
		expect(countCsvRecords('A,B\n')).toBe(0);
		expect(countCsvRecords('')).toBe(0);
	});

	test('writes what it reads', () => {
		const rows = [
			['Id', 'Name', 'Note'],
			['1', 'Smith, John', 'said "hi"\nthen left'],
			['2', ' padded ', ''],
		];
		const text = toCsv(rows);
		expect(text).toBe(
			'Id,Name,Note\r\n1,"Smith, John","said ""hi""\nthen left"\r\n2," padded ",\r\n',
		);
		expect(parseCsv(text)).toEqual(rows);
	});

	test('parses 25,000 rows quickly', () => {
		const text = toCsv([
			['Last_Name', 'Email'],
			...Array.from({ length: 25_000 }, (_, i) => [`Name ${i}`, `n${i}@x.example`]),
		]);
		const started = Date.now();
		expect(countCsvRecords(text)).toBe(25_000);
		expect(Date.now() - started).toBeLessThan(2000);
	});
});
