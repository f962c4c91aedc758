// The one error model of the sandbox: every error the service answers is an HttpError,
// rendered as the contract's envelope {code, details, message, status: 'error'} (docs/protocol.md §11).

export type Details = Record<string, unknown>;

/** Error code → HTTP status (docs/protocol.md §12.2). Codes not listed answer 400. */
const STATUS_BY_CODE: Record<string, number> = {
	INVALID_TOKEN: 401,
	OAUTH_SCOPE_MISMATCH: 401,
	AUTHENTICATION_FAILURE: 401,
	NO_PERMISSION: 403,
	FEATURE_NOT_SUPPORTED: 403,
	FEATURE_NOT_ENABLED: 403,
	TERRITORY_NOT_ENABLED: 403,
	CURRENCIES_NOT_ENABLED: 403,
	NOT_SUPPORTED_FEATURE: 403,
	INVALID_URL_PATTERN: 404,
	RESOURCE_NOT_FOUND: 404,
	NOT_FOUND: 404,
	MEDIA_TYPE_NOT_SUPPORTED: 415,
	FILE_SIZE_MORE_THAN_ALLOWED_SIZE: 413,
	TOO_MANY_REQUESTS: 429,
	INTERNAL_ERROR: 500,
	INTERNAL_SERVER_ERROR: 500,
};

/** Default messages (interface spec, "Errors"); groups may pass their own. */
const MESSAGE_BY_CODE: Record<string, string> = {
	INVALID_TOKEN: 'invalid oauth token',
	OAUTH_SCOPE_MISMATCH: 'invalid oauth scope to access this URL',
	INVALID_URL_PATTERN: 'Please check if the URL trying to access is a correct one',
	INVALID_REQUEST_METHOD: 'The http request method type is not a valid one',
	INVALID_MODULE: 'the module name given seems to be invalid',
	INVALID_DATA: 'invalid data',
	MANDATORY_NOT_FOUND: 'required field not found',
	REQUIRED_PARAM_MISSING: 'One of the expected parameter is missing',
	DUPLICATE_DATA: 'duplicate data',
	NO_PERMISSION: 'permission denied',
	LIMIT_EXCEEDED: 'the limit has been exceeded',
	INTERNAL_ERROR: 'Internal server error occurred.',
	TOO_MANY_REQUESTS:
		'Number of API requests for the 24 hour period is exceeded or the concurrency limit of the user for the app is exceeded',
	RESOURCE_NOT_FOUND: 'the requested resource is not found',
	FILE_SIZE_MORE_THAN_ALLOWED_SIZE: 'file size is more than the allowed size',
};

function statusForCode(code: string): number {
	return STATUS_BY_CODE[code] ?? 400;
}

function messageForCode(code: string): string {
	return MESSAGE_BY_CODE[code] ?? code.toLowerCase().replace(/_/g, ' ');
}

export interface ErrorBody {
	code: string;
	details: Details;
	message: string;
	status: 'error';
	[extra: string]: unknown;
}

export function errorItem(code: string, details: Details = {}, message?: string): ErrorBody {
	return { code, details, message: message ?? messageForCode(code), status: 'error' };
}

export class HttpError extends Error {
	readonly code: string;
	readonly details: Details;
	readonly status: number;
	/** extra top-level keys (bulk-write error shape, §11.4) */
	readonly extra: Record<string, unknown>;

	constructor(
		code: string,
		details: Details = {},
		message?: string,
		status?: number,
		extra: Record<string, unknown> = {},
	) {
		super(message ?? messageForCode(code));
		this.code = code;
		this.details = details;
		this.status = status ?? statusForCode(code);
		this.extra = extra;
	}

	toBody(): ErrorBody {
		return { ...errorItem(this.code, this.details, this.message), ...this.extra };
	}

	static invalidToken(): HttpError {
		return new HttpError('INVALID_TOKEN');
	}

	static scopeMismatch(): HttpError {
		return new HttpError('OAUTH_SCOPE_MISMATCH');
	}

	static urlPattern(message?: string): HttpError {
		return new HttpError('INVALID_URL_PATTERN', {}, message);
	}

	static method(): HttpError {
		return new HttpError('INVALID_REQUEST_METHOD');
	}

	static requiredParam(param: string, v: string): HttpError {
		return new HttpError(
			'REQUIRED_PARAM_MISSING',
			v === 'v2.1' ? { param, param_name: param } : { param },
		);
	}

	static invalidData(details: Details = {}, message?: string): HttpError {
		return new HttpError('INVALID_DATA', details, message);
	}

	static mandatory(apiName: string, message?: string): HttpError {
		return new HttpError('MANDATORY_NOT_FOUND', { api_name: apiName }, message);
	}

	static limit(limit: number, apiName: string, message?: string): HttpError {
		return new HttpError('LIMIT_EXCEEDED', { limit, api_name: apiName }, message);
	}

	static notFound(code = 'RESOURCE_NOT_FOUND', details: Details = {}, message?: string): HttpError {
		return new HttpError(code, details, message);
	}
}
