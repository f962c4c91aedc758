// CSV of the bulk jobs (wire-contract §10.3): RFC 4180 quoting, UTF-8, CRLF on output; input
// delimiter comma, semicolon, colon or pipe, detected from the header row. The parser and writer are
// the CRM Bulk node's own (nodes/shared/csv.ts has no imports, so Node's type stripping loads it as is).
import { toCsv } from '../nodes/shared/csv.ts';

export { detectDelimiter, parseCsv, toCsv } from '../nodes/shared/csv.ts';

/** One CSV line (no line end). */
export function csvLine(cells: unknown[]): string {
	return toCsv([cells]).slice(0, -2);
}
