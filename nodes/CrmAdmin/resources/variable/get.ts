import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { checkDigits } from '../../../shared/validation';
import { API_NAME_RE } from '../shared';
import { groupField, variableKeyFields } from './shared';
import type { NotFound } from '../../../shared/transport';

/** The variable key of the path: digits by ID, an API name otherwise (§3.10); checked before sending. */
export async function variableKeyPreSend(this: IExecuteSingleFunctions, request: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const by = this.getNodeParameter('getBy', 'id') as string;
	const key = String(this.getNodeParameter(by === 'id' ? 'variableId' : 'variableApiName', '') ?? '').trim();
	if (by === 'id') checkDigits(this.getNode(), key, 'Variable ID', { itemIndex: this.getItemIndex() });
	else if (!API_NAME_RE.test(key)) {
		throw new NodeOperationError(this.getNode(), `Variable API Name must be a non-numeric API name, got "${key}"`, {
			itemIndex: this.getItemIndex(),
		});
	}
	return request;
}

/**
 * GetVariableByID — GET /crm/{v}/settings/variables/{id}?group=…;
 * GetVariableForAPIName — GET /crm/{v}/settings/variables/{apiName}?group=…
 */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a variable',
	description: 'Retrieve one variable by ID or API name',
	routing: {
		request: {
			method: 'GET',
			url: '=/settings/variables/{{ toPathSegment(String($parameter.getBy === "apiName" ? $parameter.variableApiName : $parameter.variableId).trim()) }}',
		},
		send: { preSend: [variableKeyPreSend] },
	},
};

const properties: INodeProperties[] = [
	{ ...groupField, routing: { send: { type: 'query', property: 'group' } } },
	...variableKeyFields('getBy', 'Get'),
];

export const description = updateDisplayOptions({ show: { resource: ['variable'], operation: ['get'] } }, properties);

/** Key of the items in the response (docs/protocol.md §5.9). */
export const rootProperty = 'variables';

/** A missing ID or API name: "No variable with …" (see the runner, shared/transport/runner.ts). */
export const notFound: NotFound = function () {
	const byId = this.getNodeParameter('getBy', 'id') === 'id';
	const key = String(this.getNodeParameter(byId ? 'variableId' : 'variableApiName', '') ?? '').trim();
	return `No variable with ${byId ? 'ID' : 'API name'} ${key}`;
};
