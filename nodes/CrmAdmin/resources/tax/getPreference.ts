import type {
	IDataObject,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { crmRouting } from '../../../shared/transport';

/** The `preference` object of a GetTaxes answer as the one output item. */
async function taxPreference(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const body = (response.body ?? {}) as IDataObject;
	return [{ json: (body.preference ?? {}) as IDataObject }];
}

/** GetTaxes — GET /crm/{v}/org/taxes (the `preference` object) */
export const operation: INodePropertyOptions = {
	name: 'Get Preference',
	value: 'getPreference',
	action: 'Get the tax preference',
	description:
		'Read the organization tax preference: whether rates may be modified and taxes auto-populated',
	routing: crmRouting({
		request: { method: 'GET', url: '/org/taxes' },
		output: { postReceive: [taxPreference] },
	}),
};

export const returns =
	'the tax preference: whether tax rates may be modified and whether taxes are auto-populated';

export const description: INodeProperties[] = [];
