// CSV of the bulk jobs (docs/protocol.md §10.3): RFC 4180 quoting, UTF-8, CRLF on output; input
// delimiter comma, semicolon, colon or pipe, detected from the header row. The sandbox reads and
// writes CSV with the csv-parse / csv-stringify packages, never with the nodes' own CSV code, so a
// bug in either side shows up end to end instead of cancelling out.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

const DELIMITERS = [',', ';', ':', '|'];

/** The delimiter of the header row: the candidate occurring most often outside quotes (comma on ties). */
export function detectDelimiter(text: string): string {
	const counts: Record<string, number> = { ',': 0, ';': 0, ':': 0, '|': 0 };
	let quoted = false;
	for (const c of text) {
		if (c === '"') quoted = !quoted;
		else if (!quoted && (c === '\n' || c === '\r')) break;
		else if (!quoted && c in counts) counts[c]++;
	}
	let best = ',';
	for (const d of DELIMITERS) if (counts[d] > counts[best]) best = d;
	return best;
}

/**
 * Rows of cells of a CSV text; a leading BOM is dropped, blank lines are skipped, rows may differ in
 * length, a stray quote inside an unquoted cell is kept as text. Throws on text that is not CSV (an
 * unclosed quoted cell).
 */
export function parseCsv(
	text: string,
	delimiter: string = detectDelimiter(text.replace(/^\uFEFF/, '')),
): string[][] {
	return parse(text, {
		bom: true,
		delimiter,
		skip_empty_lines: true,
		relax_column_count: true,
		relax_quotes: true,
		record_delimiter: ['\r\n', '\n', '\r'],
	}) as string[][];
}

function cellText(value: unknown): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'string') return value;
	if (typeof value === 'object') return JSON.stringify(value);
	return String(value);
}

/** One CSV line (no line end): cells as text, quoted where RFC 4180 needs it. */
export function csvLine(cells: unknown[]): string {
	return stringify([cells.map(cellText)], {
		record_delimiter: 'windows',
		quoted_match: /^\s|\s$/,
	}).replace(/\r\n$/, '');
}
