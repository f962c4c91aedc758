import type { IExecuteSingleFunctions, IHttpRequestOptions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** IDs of the service are decimal digits (Long on the interface, strings on the wire, docs/protocol.md §3.1). */
export const ID_RE = /^\d+$/;

/** Is the text an ID of the service (digits only)? */
export function isDigits(value: unknown): boolean {
	return ID_RE.test(String(value ?? ''));
}

export interface DigitsCheckOptions {
	itemIndex?: number;
	description?: string;
}

/** The one message of a malformed ID: `<Label> must be digits, got "<value>"`. */
export function digitsMessage(label: string, value: string): string {
	return `${label} must be digits, got "${value}"`;
}

/**
 * The one ID check of the package: answers `value` when it is digits, else throws
 * `<Label> must be digits, got "<value>"`. Callers trim first where the parameter allows blanks.
 */
export function checkDigits(node: INode, value: string, label: string, options: DigitsCheckOptions = {}): string {
	if (!ID_RE.test(value)) {
		throw new NodeOperationError(node, digitsMessage(label, value), options);
	}
	return value;
}

/** `routing.send.preSend` check that a path ID parameter is digits, reported before anything is sent. */
export function requireDigits(name: string, label: string) {
	return async function (this: IExecuteSingleFunctions, request: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const id = String(this.getNodeParameter(name, '') ?? '').trim();
		checkDigits(this.getNode(), id, label, {
			itemIndex: this.getItemIndex(),
			description: `Set "${label}" to a numeric ID such as 4876876000000225013.`,
		});
		return request;
	};
}
