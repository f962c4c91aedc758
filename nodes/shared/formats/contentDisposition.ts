/**
 * File name of a download from its Content-Disposition (docs/protocol.md §3.4): the extended form
 * `filename*=UTF-8''r%C3%A9sum%C3%A9.pdf` (text after the last `'`, percent-decoded) wins over the
 * plain `filename="report.pdf"` or `filename=report.pdf`, wherever each stands in the header.
 */
export function fileNameFromDisposition(disposition: unknown): string | undefined {
	if (typeof disposition !== 'string' || !disposition) return undefined;
	const star = /filename\*\s*=\s*([^;]+)/i.exec(disposition);
	if (star) {
		const value = star[1].trim().replace(/^"|"$/g, '');
		const encoded = value.slice(value.lastIndexOf("'") + 1);
		try {
			return decodeURIComponent(encoded);
		} catch {
			return encoded;
		}
	}
	// a quoted name may hold `;`, so the quoted form is matched first
	const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(disposition);
	if (!plain) return undefined;
	return (plain[2] ?? plain[1]).trim().replace(/^"|"$/g, '');
}
