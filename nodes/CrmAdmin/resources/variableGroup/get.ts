import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { checkDigits } from '../../../shared/validation';
import { API_NAME_RE } from '../shared';
import type { NotFound } from '../../../shared/transport';

/** The group key of the path: digits by ID, an API name otherwise (§3.10); checked before sending. */
export async function groupKeyPreSend(this: IExecuteSingleFunctions, request: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const by = this.getNodeParameter('getBy', 'id') as string;
	const key = String(this.getNodeParameter(by === 'id' ? 'groupId' : 'groupApiName', '') ?? '').trim();
	if (by === 'id') checkDigits(this.getNode(), key, 'Variable Group ID', { itemIndex: this.getItemIndex() });
	else if (!API_NAME_RE.test(key)) {
		throw new NodeOperationError(this.getNode(), `Variable Group API Name must be a non-numeric API name, got "${key}"`, {
			itemIndex: this.getItemIndex(),
		});
	}
	return request;
}

/**
 * GetVariableGroupById — GET /crm/{v}/settings/variable_groups/{id};
 * GetVariableGroupByAPIName — GET /crm/{v}/settings/variable_groups/{apiName}
 */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a variable group',
	description: 'Retrieve one variable group by ID or API name',
	routing: {
		request: {
			method: 'GET',
			url: '=/settings/variable_groups/{{ toPathSegment(String($parameter.getBy === "apiName" ? $parameter.groupApiName : $parameter.groupId).trim()) }}',
		},
		send: { preSend: [groupKeyPreSend] },
	},
};

const properties: INodeProperties[] = [
	{
		displayName: 'Get By',
		name: 'getBy',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'ID', value: 'id' },
			{ name: 'API Name', value: 'apiName' },
		],
		default: 'id',
	},
	{
		displayName: 'Variable Group Name or ID',
		name: 'groupId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getVariableGroups' },
		default: '',
		required: true,
		description:
			'The variable group. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show: { getBy: ['id'] } },
	},
	{
		displayName: 'Variable Group API Name',
		name: 'groupApiName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'General',
		displayOptions: { show: { getBy: ['apiName'] } },
	},
];

export const description = updateDisplayOptions({ show: { resource: ['variableGroup'], operation: ['get'] } }, properties);

/** Key of the items in the response (docs/protocol.md §5.9). */
export const rootProperty = 'variable_groups';

/** A missing ID or API name: "No variable group with …" (see the runner, shared/transport/runner.ts). */
export const notFound: NotFound = function () {
	const byId = this.getNodeParameter('getBy', 'id') === 'id';
	const key = String(this.getNodeParameter(byId ? 'groupId' : 'groupApiName', '') ?? '').trim();
	return `No variable group with ${byId ? 'ID' : 'API name'} ${key}`;
};
