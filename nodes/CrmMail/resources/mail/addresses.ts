import type { IDataObject } from 'n8n-workflow';

/** A mail address of the wire (UserAddress): `email`, optionally `user_name`. */
export interface MailAddress extends IDataObject {
	email: string;
	user_name?: string;
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isEmail(value: string): boolean {
	return EMAIL_RE.test(value);
}

/** Splits on `,` and `;` outside double quotes and angle brackets. */
function splitList(text: string): string[] {
	const parts: string[] = [];
	let current = '';
	let quoted = false;
	let angle = false;
	for (const c of text) {
		if (c === '"') quoted = !quoted;
		else if (c === '<' && !quoted) angle = true;
		else if (c === '>' && !quoted) angle = false;
		if ((c === ',' || c === ';') && !quoted && !angle) {
			parts.push(current);
			current = '';
		} else {
			current += c;
		}
	}
	parts.push(current);
	return parts.map((p) => p.trim()).filter(Boolean);
}

/**
 * Parses `a@x.com`, `Jane Doe <jane@x.com>` or `"Doe, Jane" <jane@x.com>` entries, separated by
 * commas or semicolons. Answers the addresses and the entries that are not valid addresses.
 */
export function parseAddresses(text: string): { addresses: MailAddress[]; invalid: string[] } {
	const addresses: MailAddress[] = [];
	const invalid: string[] = [];
	for (const entry of splitList(text)) {
		const named = /^(.*?)\s*<([^<>]+)>$/.exec(entry);
		const email = (named ? named[2] : entry).trim();
		const name = named
			? named[1]
					.trim()
					.replace(/^"(.*)"$/, '$1')
					.trim()
			: '';
		if (!isEmail(email)) {
			invalid.push(entry);
			continue;
		}
		addresses.push(name ? { email, user_name: name } : { email });
	}
	return { addresses, invalid };
}
