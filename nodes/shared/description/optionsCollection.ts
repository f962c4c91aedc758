// The "Options" collection of optional query/behaviour settings, written alike by every operation.
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/** Parameter `options`; displayOptions, when given, stands before `options` as in the literals it replaced. */
export function optionsCollection(
	options: INodeProperties[],
	displayOptions?: IDisplayOptions,
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		...(displayOptions === undefined ? {} : { displayOptions }),
		options,
	};
}
