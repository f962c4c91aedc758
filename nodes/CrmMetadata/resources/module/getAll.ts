import type {
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { toCrmDateTime } from '../../../shared/formats/dates';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { getParameter } from '../../../shared/parameters';
import { crmRouting } from '../../../shared/transport';

/** preSend: `Modified Since` as the If-Modified-Since header in the contract's DateTime form (§3.7, §4). */
async function ifModifiedSince(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const itemIndex = this.getItemIndex();
	const value = getParameter(this, 'options.modifiedSince', itemIndex, '') as string;
	if (!value) return requestOptions;
	const wire = toCrmDateTime(value);
	if (!wire) {
		throw new NodeOperationError(
			this.getNode(),
			`"Modified Since" is not a date and time: "${value}"`,
			{ itemIndex },
		);
	}
	requestOptions.headers = { ...requestOptions.headers, 'If-Modified-Since': wire };
	return requestOptions;
}

/** GetModules — GET /crm/{v}/settings/modules (one list, not paged; If-Modified-Since optional) */
export const operation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many modules',
	description: 'List the modules of the CRM, custom modules included',
	routing: crmRouting(
		{
			request: { method: 'GET', url: '/settings/modules' },
			send: { preSend: [ifModifiedSince] },
		},
		{ rootProperty: 'modules' },
	),
};

export const returns =
	'one item per module, with its id, API name and labels (nothing when none changed since Modified Since)';

const properties: INodeProperties[] = [
	optionsCollection([
		{
			displayName: 'Modified Since',
			name: 'modifiedSince',
			type: 'dateTime',
			default: '',
			description:
				'Output the modules only when one changed after this time, and nothing otherwise (If-Modified-Since)',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['module'], operation: ['getAll'] } },
	properties,
);
