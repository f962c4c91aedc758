import type {
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL, apiVariant } from './request';
import type { CrmCredentials } from './request';

/** The API variant of the node's credential (§1.2): `v2` or `v2.1` (the default). */
export async function credentialVariant(
	this: IExecuteFunctions | IExecuteSingleFunctions | ILoadOptionsFunctions,
): Promise<'v2' | 'v2.1'> {
	return apiVariant((await this.getCredentials(CREDENTIAL)) as CrmCredentials);
}

/**
 * Refuses a v2.1-only operation (docs/protocol.md §13) under a v2 credential before anything is sent:
 * under `/crm/v2` the route does not exist and would answer 404 INVALID_URL_PATTERN.
 */
export async function assertV21(
	this: IExecuteFunctions | IExecuteSingleFunctions | ILoadOptionsFunctions,
	operation: string,
	itemIndex?: number,
): Promise<void> {
	if ((await credentialVariant.call(this)) === 'v2.1') return;
	throw new NodeOperationError(
		this.getNode(),
		`${operation} needs API variant v2.1; the credential uses v2`,
		{
			itemIndex,
			description: `${operation} exists only under /crm/v2.1. Set the credential's API Variant to v2.1 to use it.`,
		},
	);
}

/** `routing.send.preSend` hook for declarative v2.1-only operations; the operation name comes from `routing.request` context. */
export function requireV21(operation: string) {
	return async function (
		this: IExecuteSingleFunctions,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		await assertV21.call(this, operation, this.getItemIndex());
		return requestOptions;
	};
}
