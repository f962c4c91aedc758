// The request context a route handler gets (types.ts `Ctx`), built from what the request carried.
// server.ts builds one per HTTP request; the sandbox's pages (web/) build one to run an API
// operation in process, so a change made on a page takes the very path of the API call.
import { HttpError } from './errors.ts';
import { isJsonContentType } from './http.ts';
import type { Json } from './store.ts';
import type { Ctx } from './types.ts';

/**
 * JSON.parse reviver: integers beyond 2^53 (19-digit ids sent as JSON numbers, docs/protocol.md
 * §3.1) keep their exact digits as strings instead of being rounded.
 */
function keepBigIntegers(_key: string, value: unknown, context?: { source?: string }): unknown {
	if (
		typeof value === 'number' &&
		!Number.isSafeInteger(value) &&
		context?.source &&
		/^-?\d+$/.test(context.source)
	) {
		return context.source;
	}
	return value;
}

type CtxInit = Omit<Ctx, 'json' | 'q' | 'list' | 'header'> & {
	/** the request's Content-Type */
	contentType: string | undefined;
};

export function makeCtx(init: CtxInit): Ctx {
	const { contentType, ...fields } = init;
	let parsed: Json | undefined;
	return {
		...fields,
		json() {
			if (parsed) return parsed;
			if (!isJsonContentType(contentType)) {
				throw HttpError.invalidData({}, 'the request body is not JSON');
			}
			try {
				const value: unknown = JSON.parse(fields.rawBody.toString('utf8'), keepBigIntegers);
				if (!value || typeof value !== 'object' || Array.isArray(value))
					throw new Error('not an object');
				parsed = value as Json;
			} catch {
				throw HttpError.invalidData({}, 'body is not a valid JSON object');
			}
			return parsed;
		},
		q(name) {
			const value = fields.query.get(name);
			return value === null || value.trim() === '' ? undefined : value.trim();
		},
		list(name) {
			return fields.query
				.getAll(name)
				.flatMap((v) => v.split(','))
				.map((v) => v.trim())
				.filter(Boolean);
		},
		header(name) {
			const value = fields.headers[name.toLowerCase()];
			return Array.isArray(value) ? value[0] : value;
		},
	};
}
