/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console */
// CSV of the bulk jobs (wire-contract §10.3): RFC 4180 quoting, UTF-8, CRLF on output; input
// delimiter comma, semicolon, colon or pipe, detected from the header row.

export const DELIMITERS = [',', ';', ':', '|'];

/** The delimiter of the header row: the candidate occurring most often outside quotes (comma on ties). */
export function detectDelimiter(text: string): string {
	const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === '"') quoted = !quoted;
		else if (!quoted && (c === '\n' || c === '\r')) break;
		else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1);
	}
	let best = ',';
	for (const d of DELIMITERS) if (counts.get(d)! > counts.get(best)!) best = d;
	return best;
}

/** Parses CSV text into rows of cells (a leading BOM is dropped; blank lines are skipped). */
export function parseCsv(text: string, delimiter = detectDelimiter(text)): string[][] {
	if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
	const rows: string[][] = [];
	let row: string[] = [];
	let cell = '';
	let quoted = false;
	let i = 0;
	const endRow = () => {
		row.push(cell);
		cell = '';
		if (!(row.length === 1 && row[0] === '')) rows.push(row);
		row = [];
	};
	while (i < text.length) {
		const c = text[i];
		if (quoted) {
			if (c === '"') {
				if (text[i + 1] === '"') {
					cell += '"';
					i += 2;
					continue;
				}
				quoted = false;
				i++;
				continue;
			}
			const next = text.indexOf('"', i);
			const stop = next === -1 ? text.length : next;
			cell += text.slice(i, stop);
			i = stop;
			continue;
		}
		if (c === '"' && cell === '') {
			quoted = true;
			i++;
		} else if (c === delimiter) {
			row.push(cell);
			cell = '';
			i++;
		} else if (c === '\r' || c === '\n') {
			endRow();
			i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
		} else {
			cell += c;
			i++;
		}
	}
	if (cell !== '' || row.length > 0) endRow();
	return rows;
}

function cellText(value: unknown): string {
	if (value === null || value === undefined) return '';
	const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
	return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (no line end). */
export function csvLine(cells: unknown[]): string {
	return cells.map(cellText).join(',');
}

/** CSV text of the rows, CRLF line ends, trailing line end. */
export function toCsv(rows: unknown[][]): string {
	return rows.map((r) => csvLine(r) + '\r\n').join('');
}
