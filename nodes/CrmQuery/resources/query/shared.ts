// Client-side reading of a COQL statement (docs/protocol.md §3.13), just enough to page it: find a
// trailing LIMIT clause outside string literals, count the SELECT columns, and map a position the
// service reports back to the statement the user wrote. The service stays the judge of syntax.

/** The service's limits of §3.13 / §6 that the node can check before sending. */
export const COQL_MAX_PER_CALL = 200;
export const COQL_MAX_COLUMNS = 50;

interface Word {
	text: string;
	start: number;
	/** parenthesis depth at the word */
	depth: number;
}

/** Words (identifiers, keywords, numbers) and top-level commas, skipping string literals. */
function scan(statement: string): { words: Word[]; commas: Array<{ at: number; depth: number }> } {
	const words: Word[] = [];
	const commas: Array<{ at: number; depth: number }> = [];
	let depth = 0;
	let i = 0;
	while (i < statement.length) {
		const c = statement[i];
		if (c === "'") {
			i++;
			while (i < statement.length) {
				if (statement[i] === "'" && statement[i + 1] === "'") i += 2;
				else if (statement[i] === "'") break;
				else i++;
			}
			i++;
			continue;
		}
		if (c === '(') depth++;
		else if (c === ')') depth = Math.max(0, depth - 1);
		else if (c === ',') commas.push({ at: i, depth });
		if (/[A-Za-z0-9_$.]/.test(c)) {
			let j = i;
			while (j < statement.length && /[A-Za-z0-9_$.]/.test(statement[j])) j++;
			words.push({ text: statement.slice(i, j), start: i, depth });
			i = j;
			continue;
		}
		i++;
	}
	return { words, commas };
}

export interface StatementPlan {
	/** the statement without its LIMIT clause (and without a trailing `;`) */
	base: string;
	/** LIMIT offset written by the user (0 when none) */
	offset: number;
	/** LIMIT count written by the user: the overall cap of the read */
	count?: number;
	/** a LIMIT clause the node cannot read: the statement is sent unchanged, for the service to judge */
	opaque: boolean;
	/** SELECT columns, when the select list could be found */
	columns?: number;
}

const LIMIT_TAIL = /^\s+(\d+)\s*(?:,\s*(\d+)|\s+offset\s+(\d+))?\s*;?\s*$/i;

/** Reads the parts of a statement the paging needs. */
export function planStatement(statement: string): StatementPlan {
	const { words, commas } = scan(statement);
	const select = words.find((w) => w.text.toLowerCase() === 'select');
	const from =
		select &&
		words.find(
			(w) => w.start > select.start && w.depth === select.depth && w.text.toLowerCase() === 'from',
		);
	const columns =
		select && from
			? commas.filter((c) => c.at > select.start && c.at < from.start && c.depth === select.depth)
					.length + 1
			: undefined;

	const limitWord = [...words]
		.reverse()
		.find((w) => w.depth === 0 && w.text.toLowerCase() === 'limit');
	if (!limitWord) {
		return { base: statement.replace(/[\s;]+$/, ''), offset: 0, opaque: false, columns };
	}
	const tail = LIMIT_TAIL.exec(statement.slice(limitWord.start + limitWord.text.length));
	if (!tail) return { base: statement, offset: 0, opaque: true, columns };
	const base = statement.slice(0, limitWord.start).replace(/\s+$/, '');
	if (tail[2] !== undefined)
		return { base, offset: Number(tail[1]), count: Number(tail[2]), opaque: false, columns };
	if (tail[3] !== undefined)
		return { base, offset: Number(tail[3]), count: Number(tail[1]), opaque: false, columns };
	return { base, offset: 0, count: Number(tail[1]), opaque: false, columns };
}

/** One page's statement: the user's statement with `LIMIT offset, count` in place of its own. */
export function pageStatement(plan: StatementPlan, offset: number, count: number): string {
	return `${plan.base} LIMIT ${offset}, ${count}`;
}

/** Character offset of a 1-based line/column position in a text. */
export function offsetOf(text: string, line: number, column: number): number {
	let offset = 0;
	for (let l = 1; l < line; l++) {
		const next = text.indexOf('\n', offset);
		if (next === -1) return text.length;
		offset = next + 1;
	}
	return offset + column - 1;
}

const HTML_ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'`': '&#96;',
};

/** Text before a syntax error's token quoted in its description, at most. */
const BEFORE_CHARS = 40;

/**
 * A syntax error's position in words, for an error description: the token, its line and column,
 * and the text just before it. n8n's error view shows descriptions as HTML in a proportional font
 * (runs of spaces and line breaks collapse), so no caret line: it would land under another word.
 */
export function positionInWords(text: string, line: number, column: number, near: string): string {
	const before = text
		.slice(0, offsetOf(text, line, column))
		.replace(/\s+/g, ' ')
		.trim();
	// the last words before the token, none cut in half
	const cut = before.length - BEFORE_CHARS;
	const tail = cut > 0 ? before.slice(cut) : before;
	const shown = cut > 0 ? `…${before[cut - 1] === ' ' ? tail : tail.replace(/^\S*\s+/, '')}` : tail;
	const words = `The CRM stopped reading at the token "${near}", line ${line}, column ${column}${
		shown ? `, right after "${shown}"` : ', at the start of the statement'
	}.`;
	return words.replace(/[&<>`]/g, (c) => HTML_ESCAPES[c]);
}

/** Whether the SELECT list holds `*` (COQL needs the column names). */
export function selectsStar(statement: string): boolean {
	// a lazy scan up to the first FROM: linear, no nested quantifiers to backtrack over
	const list = /^\s*select\s([\s\S]*?)\sfrom\s/i.exec(statement)?.[1];
	return list !== undefined && list.split(',').some((column) => column.trim() === '*');
}
