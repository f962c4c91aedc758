// CSV for the bulk jobs (wire-contract §10.3): RFC 4180 quoting; input delimiter comma, semicolon,
// colon or pipe (detected from the header row); output CRLF with comma. No CSV package is allowed
// in community nodes, so this is the package's own small parser and writer.

export const CSV_DELIMITERS = [',', ';', ':', '|'];

/** The delimiter of the header row: the candidate occurring most often outside quotes (comma on ties). */
export function detectDelimiter(text: string): string {
	const counts: Record<string, number> = { ',': 0, ';': 0, ':': 0, '|': 0 };
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === '"') quoted = !quoted;
		else if (!quoted && (c === '\n' || c === '\r')) break;
		else if (!quoted && c in counts) counts[c]++;
	}
	let best = ',';
	for (const d of CSV_DELIMITERS) if (counts[d] > counts[best]) best = d;
	return best;
}

/** Parses CSV text into rows of cells; a leading BOM is dropped and blank lines are skipped. */
export function parseCsv(text: string, delimiter: string = detectDelimiter(text)): string[][] {
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
				} else {
					quoted = false;
					i++;
				}
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
			// plain run up to the next special character
			let j = i + 1;
			while (j < text.length) {
				const d = text[j];
				if (d === delimiter || d === '\r' || d === '\n') break;
				j++;
			}
			cell += text.slice(i, j);
			i = j;
		}
	}
	if (cell !== '' || row.length > 0) endRow();
	return rows;
}

/** Records of a CSV with a header row: one object per data row, keyed by the header names. */
export function csvToObjects(text: string): Array<Record<string, string>> {
	const [header = [], ...rows] = parseCsv(text);
	return rows.map((row) => {
		const record: Record<string, string> = {};
		header.forEach((name, i) => (record[name] = row[i] ?? ''));
		return record;
	});
}

/** Number of data rows (header excluded, blank lines skipped), quoted line breaks respected. */
export function countCsvRecords(text: string): number {
	return Math.max(0, parseCsv(text).length - 1);
}

function cellText(value: unknown): string {
	if (value === null || value === undefined) return '';
	const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
	return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text of the rows: comma-separated, quoted where needed, CRLF after every row. */
export function toCsv(rows: unknown[][]): string {
	return rows.map((row) => row.map(cellText).join(',') + '\r\n').join('');
}
