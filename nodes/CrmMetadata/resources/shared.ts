import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect } from '../../shared/description/properties';
import { crmRouting, requireV21 } from '../../shared/transport';
import type { OperationModule } from '../../shared/description/nodeDescription';

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

/**
 * Get Many of a settings list (routed), the whole operation file but its properties: "Get many
 * <things>", GET `url`, the items under `rootProperty` unwrapped by the request runner; `v21Only`
 * names the operation refused under a v2 credential (requireV21); `properties` shown for Get Many
 * of `resource`.
 */
export function settingsListOperation(spec: {
	resource: string;
	things: string;
	url: string;
	rootProperty: string;
	/** the option's description */
	description: string;
	v21Only?: string;
	returns: string;
	properties: INodeProperties[];
}): Pick<OperationModule, 'operation' | 'returns' | 'description'> {
	return {
		operation: {
			name: 'Get Many',
			value: 'getAll',
			action: `Get many ${spec.things}`,
			description: spec.description,
			routing: crmRouting(
				{
					request: { method: 'GET', url: spec.url },
					...(spec.v21Only ? { send: { preSend: [requireV21(spec.v21Only)] } } : {}),
				},
				{ rootProperty: spec.rootProperty },
			),
		},
		returns: spec.returns,
		description: updateDisplayOptions(
			{ show: { resource: [spec.resource], operation: ['getAll'] } },
			spec.properties,
		),
	};
}
