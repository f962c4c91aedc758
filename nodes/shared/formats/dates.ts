// The date and time forms of docs/protocol.md §4, written in one place.
import { DateTime } from 'luxon';

const CRM_DATE_TIME = "yyyy-MM-dd'T'HH:mm:ssZZ";

/** `yyyy-MM-ddTHH:mm:ss±HH:mm`: whole seconds, the value's own offset. */
function formatDateTime(dt: DateTime): string {
	return dt.set({ millisecond: 0 }).toFormat(CRM_DATE_TIME);
}

/** DateTime in the contract's form `yyyy-MM-ddTHH:mm:ss±HH:mm` (§4), from ISO text, a JS date or epoch ms. */
export function toCrmDateTime(value: unknown): string | undefined {
	let dt: DateTime;
	if (value instanceof Date) dt = DateTime.fromJSDate(value);
	else if (typeof value === 'number') dt = DateTime.fromMillis(value);
	else if (DateTime.isDateTime(value)) dt = value;
	else dt = DateTime.fromISO(String(value), { setZone: true });
	if (!dt.isValid) {
		const sql = DateTime.fromSQL(String(value), { setZone: true });
		if (!sql.isValid) return undefined;
		dt = sql;
	}
	return formatDateTime(dt);
}

/** ISO text as the contract's DateTime (§4); text without an offset is read in `zone` (the workflow's). */
export function toCrmDateTimeIn(value: string, zone: string): string | undefined {
	const dt = DateTime.fromISO(value, { zone, setZone: true });
	return dt.isValid ? formatDateTime(dt) : undefined;
}

/** Date in the contract's form `yyyy-MM-dd` (§4). */
export function toCrmDate(value: unknown): string | undefined {
	const iso =
		value instanceof Date
			? DateTime.fromJSDate(value)
			: DateTime.isDateTime(value)
				? value
				: DateTime.fromISO(String(value), { setZone: true });
	return iso.isValid ? iso.toFormat('yyyy-MM-dd') : undefined;
}

/** Epoch ms of a dateTime parameter (JS date, luxon DateTime or ISO text read in `zone`); undefined when invalid. */
export function dateTimeMillis(value: unknown, zone: string): number | undefined {
	const dt =
		value instanceof Date
			? DateTime.fromJSDate(value)
			: DateTime.isDateTime(value)
				? value
				: DateTime.fromISO(String(value), { zone });
	return dt.isValid ? dt.toMillis() : undefined;
}

/** A UTC DateTime on the wire (§4): whole seconds, `Z`, e.g. a watch channel's `channel_expiry`. */
export function toUtcWireTime(ms: number): string {
	return DateTime.fromMillis(Math.floor(ms / 1000) * 1000, { zone: 'utc' }).toFormat(
		"yyyy-MM-dd'T'HH:mm:ss'Z'",
	);
}
