import type { IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** IDs of the service are decimal digits (Long on the interface, strings on the wire). */
export const ID_RE = /^\d+$/;

/** `routing.send.preSend` check that a path ID parameter is digits, reported before anything is sent. */
export function requireDigits(name: string, label: string) {
	return async function (this: IExecuteSingleFunctions, request: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const id = String(this.getNodeParameter(name, '') ?? '').trim();
		if (!ID_RE.test(id)) {
			throw new NodeOperationError(this.getNode(), `${label} must be digits, got "${id}"`, {
				itemIndex: this.getItemIndex(),
				description: `Set "${label}" to a numeric ID such as 4876876000000225013.`,
			});
		}
		return request;
	};
}
