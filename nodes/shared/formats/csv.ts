// CSV for the bulk jobs (docs/protocol.md §10.3): RFC 4180 quoting; input delimiter comma, semicolon,
// colon or pipe (detected from the header row); output CRLF with comma. No CSV package is allowed
// in community nodes, so this is the package's own small parser and writer.

const CSV_DELIMITERS = [',', ';', ':', '|'];

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

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/**
 * Calls `onRow` with the cells of every row, in order; a leading BOM is dropped and blank lines are
 * skipped. One pass over char codes, no intermediate list of rows: bulk results hold 100,000s of
 * rows, and the parsed-records output builds its items straight from this.
 */
function forEachCsvRow(text: string, delimiter: string, onRow: (row: string[]) => void): void {
	let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
	// a delimiter of more than one character never matches a single character, as in a plain comparison
	const delim = delimiter.length === 1 ? delimiter.charCodeAt(0) : -1;
	const length = text.length;
	let row: string[] = [];
	let cell = '';
	let quoted = false;
	const endRow = () => {
		row.push(cell);
		cell = '';
		if (!(row.length === 1 && row[0] === '')) onRow(row);
		row = [];
	};
	while (i < length) {
		const c = text.charCodeAt(i);
		if (quoted) {
			if (c === QUOTE) {
				if (text.charCodeAt(i + 1) === QUOTE) {
					cell += '"';
					i += 2;
				} else {
					quoted = false;
					i++;
				}
				continue;
			}
			const next = text.indexOf('"', i);
			const stop = next === -1 ? length : next;
			cell += text.slice(i, stop);
			i = stop;
			continue;
		}
		if (c === QUOTE && cell === '') {
			quoted = true;
			i++;
		} else if (c === delim) {
			row.push(cell);
			cell = '';
			i++;
		} else if (c === CR || c === LF) {
			endRow();
			i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
		} else {
			// plain run up to the next special character
			let j = i + 1;
			while (j < length) {
				const d = text.charCodeAt(j);
				if (d === delim || d === CR || d === LF) break;
				j++;
			}
			cell = cell === '' ? text.slice(i, j) : cell + text.slice(i, j);
			i = j;
		}
	}
	if (cell !== '' || row.length > 0) endRow();
}

/** Parses CSV text into rows of cells; a leading BOM is dropped and blank lines are skipped. */
export function parseCsv(text: string, delimiter: string = detectDelimiter(text)): string[][] {
	const rows: string[][] = [];
	forEachCsvRow(text, delimiter, (row) => rows.push(row));
	return rows;
}

/**
 * Calls `onRecord` with one object per data row of a CSV with a header row, keyed by the header
 * names as `keyOf` maps them (missing cells are ''). Every object starts as a copy of one template
 * holding the keys, so all share one shape, which keeps building 100,000s of them cheap.
 */
function forEachCsvObject(
	text: string,
	onRecord: (record: Record<string, string>) => void,
	keyOf: (column: string) => string = (column) => column,
): void {
	let header: string[] | undefined;
	let template: Record<string, string> = {};
	forEachCsvRow(text, detectDelimiter(text), (row) => {
		if (!header) {
			header = row.map(keyOf);
			template = {};
			for (const name of header) template[name] = '';
			return;
		}
		const record = { ...template };
		for (let i = 0; i < header.length; i++) record[header[i]] = i < row.length ? row[i] : '';
		onRecord(record);
	});
}

/** Records of a CSV with a header row: one object per data row, keyed by the header names (as `keyOf` maps them). */
export function csvToObjects(
	text: string,
	keyOf?: (column: string) => string,
): Array<Record<string, string>> {
	const records: Array<Record<string, string>> = [];
	forEachCsvObject(text, (record) => records.push(record), keyOf);
	return records;
}

/** Number of data rows (header excluded, blank lines skipped), quoted line breaks respected. */
export function countCsvRecords(text: string): number {
	return Math.max(0, parseCsv(text).length - 1);
}

function cellText(value: unknown): string {
	if (value === null || value === undefined) return '';
	const text =
		typeof value === 'string'
			? value
			: typeof value === 'object'
				? JSON.stringify(value)
				: String(value);
	return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text of the rows: comma-separated, quoted where needed, CRLF after every row. */
export function toCsv(rows: unknown[][]): string {
	return rows.map((row) => row.map(cellText).join(',') + '\r\n').join('');
}
