import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { baseUrlExpression, crmRequestRunner } from './transport';

/** An operation that runs its own requests (batched writes, polling, binary data) instead of routing. */
export type CustomOperation = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/** One resource of a node: its selector option, its properties, and its custom operations. */
export interface ResourceModule {
	option: INodePropertyOptions;
	description: INodeProperties[];
	customOperations?: Record<string, CustomOperation>;
}

/** A node's resources put together: the Resource selector, every resource's properties, and the custom operations by resource. */
export interface AssembledResources {
	selector: INodeProperties;
	properties: INodeProperties[];
	customOperations: Record<string, Record<string, CustomOperation>>;
}

/** Builds a node's Resource selector (options in the given order), its properties and its custom-operation map. */
export function assembleResources(resources: ResourceModule[], defaultResource: string): AssembledResources {
	return {
		selector: {
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: resources.map((r) => r.option),
			default: defaultResource,
			// every routed operation pages through a pagination function: the node's request runner
			// (see shared/transport/runner.ts) unless the operation sets its own routing.operations.pagination
			routing: { send: { paginate: true } },
		},
		properties: resources.flatMap((r) => r.description),
		customOperations: Object.fromEntries(
			resources.filter((r) => r.customOperations).map((r) => [r.option.value as string, r.customOperations!]),
		),
	};
}

/** The subtitle of the CRM action nodes: "<operation>: <resource>". */
export const OPERATION_SUBTITLE = '={{ $parameter["operation"] + ": " + $parameter["resource"] }}';

export interface CrmNodeOptions {
	displayName: string;
	name: string;
	description: string;
	/** Defaults to ['transform']. */
	group?: INodeTypeDescription['group'];
	properties: INodeProperties[];
}

/** What a node file still writes itself: the community-node lint reads these from the description literal. */
type LintedFields = 'icon' | 'subtitle' | 'usableAsTool';

/**
 * The shared part of a CRM action node's description: version 1, one main input and output, the
 * crmOAuth2Api credential, and requests against the account's API domain. Every routed request goes
 * through the node's request runner (retry, envelope, paging, error mapping). Spread it into the node's
 * description literal next to `icon`, `subtitle` and `usableAsTool`.
 */
export function crmNodeDescription(options: CrmNodeOptions): Omit<INodeTypeDescription, LintedFields> {
	return {
		displayName: options.displayName,
		name: options.name,
		group: options.group ?? ['transform'],
		version: 1,
		description: options.description,
		defaults: { name: options.displayName },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'crmOAuth2Api', required: true }],
		requestDefaults: {
			baseURL: baseUrlExpression('rest'),
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			json: true,
		},
		requestOperations: { pagination: crmRequestRunner },
		properties: options.properties,
	};
}
