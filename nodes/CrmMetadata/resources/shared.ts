import type { INodeProperties } from 'n8n-workflow';

import { moduleSelect } from '../../shared/description/properties';

/** The module picker sent as the `module` query parameter (the settings reads of one module). */
export const moduleQueryField: INodeProperties = {
	...moduleSelect,
	routing: { send: { type: 'query', property: 'module' } },
};

/** A numeric ID typed by hand or chosen from a list. */
export function idOptions(
	displayName: string,
	name: string,
	loadOptionsMethod: string,
	dependsOn: string[],
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'options',
		typeOptions: { loadOptionsMethod, loadOptionsDependsOn: dependsOn },
		default: '',
		required: true,
		description: `${description}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	};
}

/** The Deals layout every pipeline operation names (`layout_id`, docs/protocol.md §5.8). */
export const dealLayoutField: INodeProperties = {
	displayName: 'Deals Layout Name or ID',
	name: 'layoutId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getDealLayouts' },
	default: '',
	required: true,
	description:
		'Layout of the Deals module the pipelines belong to. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	routing: { send: { type: 'query', property: 'layout_id' } },
};
