// Date and time forms of docs/protocol.md §4: DateTime `yyyy-MM-ddTHH:mm:ss±HH:mm`, Date `yyyy-MM-dd`.

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

/** Formats epoch ms as a contract DateTime in the given offset (minutes east of UTC); never `Z`. */
export function formatDateTime(ms: number, offsetMinutes = 0): string {
	const d = new Date(Math.floor(ms / 1000) * 1000 + offsetMinutes * 60_000);
	const sign = offsetMinutes < 0 ? '-' : '+';
	return (
		`${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
		`T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}` +
		`${sign}${pad(Math.trunc(offsetMinutes / 60))}:${pad(offsetMinutes % 60)}`
	);
}

const DATETIME_RE =
	/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses a contract DateTime (offset or Z, optional fraction dropped); undefined when malformed. */
export function parseDateTime(value: unknown): number | undefined {
	if (typeof value !== 'string') return undefined;
	const m = DATETIME_RE.exec(value.trim());
	if (!m) return undefined;
	const ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7]}`);
	return Number.isNaN(ms) ? undefined : ms;
}

export function isDate(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	const m = DATE_RE.exec(value);
	if (!m) return false;
	const d = new Date(`${value}T00:00:00Z`);
	return !Number.isNaN(d.getTime()) && d.getUTCDate() === Number(m[3]);
}

/** If-Modified-Since: a contract DateTime, or an RFC 7231 HTTP-date (sandbox extra). */
export function parseImsHeader(value: string | undefined): number | undefined {
	if (!value) return undefined;
	return parseDateTime(value) ?? (Number.isNaN(Date.parse(value)) ? undefined : Date.parse(value));
}
