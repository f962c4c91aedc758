import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, updateDisplayOptions } from 'n8n-workflow';

import { pickersSince } from './properties';
import { baseUrlExpression, RETURN_NOTHING, routeOf } from '../transport';

/** An operation that runs its own requests (batched writes, polling, binary data) instead of routing. */
type CustomOperation = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/**
 * One operation file (`nodes/<Node>/resources/<resource>/<operation>.ts`): its selector option and
 * properties, and either `execute` (a custom operation) or, for a routed one, the option's routing
 * through the request runner (crmRouting, shared/transport/runner.ts), whose route's `notFound` adds
 * the "On Not Found" parameter.
 */
export interface OperationModule {
	operation: INodePropertyOptions;
	description: INodeProperties[];
	execute?: CustomOperation;
	/** what an item of its output holds, for the model when the node is an AI agent's tool: "Returns <returns>." */
	returns: string;
}

const WRITES = {
	create: { name: 'Create', done: 'created' },
	update: { name: 'Update', done: 'updated' },
	delete: { name: 'Delete', done: 'deleted' },
};

/**
 * A batched Create, Update or Delete (custom operation) from what differs: "<Verb> a <thing>", one
 * output item per <done> <thing> with its id and status, `properties` shown for that operation of
 * `resource`, and the operation's `execute` (runBatched or its resource's helper).
 */
export function writeOperation(
	kind: keyof typeof WRITES,
	spec: {
		resource: string;
		/** what one item writes, e.g. "contact role" */
		thing: string;
		/** the option's description */
		description: string;
		properties: INodeProperties[];
		execute: CustomOperation;
	},
): Required<Pick<OperationModule, 'operation' | 'returns' | 'description' | 'execute'>> {
	const { name, done } = WRITES[kind];
	const article = /^[aeio]/.test(spec.thing) ? 'an' : 'a';
	return {
		operation: {
			name,
			value: kind,
			action: `${name} ${article} ${spec.thing}`,
			description: spec.description,
		},
		returns: `one item per ${done} ${spec.thing}: its id and status`,
		description: updateDisplayOptions(
			{ show: { resource: [spec.resource], operation: [kind] } },
			spec.properties,
		),
		execute: spec.execute,
	};
}

/** One resource of a node: its selector option, its properties and its custom operations. */
export interface ResourceModule {
	option: INodePropertyOptions;
	description: INodeProperties[];
	customOperations?: Record<string, CustomOperation>;
}

/** The operations a person looks for first, in this order (by value); the others follow by name. */
const FIRST_OPERATIONS = ['create', 'upsert', 'delete', 'get', 'getAll', 'search', 'update'];

function operationOrder(a: INodePropertyOptions, b: INodePropertyOptions): number {
	const rank = (o: INodePropertyOptions) => {
		const i = FIRST_OPERATIONS.indexOf(String(o.value));
		return i === -1 ? FIRST_OPERATIONS.length : i;
	};
	return (
		rank(a) - rank(b) || (rank(a) === FIRST_OPERATIONS.length ? a.name.localeCompare(b.name) : 0)
	);
}

/** "On Not Found" of a Get by ID: an error (default) or no output. */
function onNotFoundProperty(resource: string, operation: string): INodeProperties {
	return {
		displayName: 'On Not Found',
		name: 'onNotFound',
		type: 'options',
		options: [
			{ name: 'Error', value: 'error', description: 'Fail the item with "No … with ID …"' },
			{ name: 'Return Nothing', value: RETURN_NOTHING, description: 'Output no item for it' },
		],
		default: 'error',
		description: 'What to do when nothing has the given ID',
		displayOptions: { show: { resource: [resource], operation: [operation] } },
	};
}

/** "On Not Found" next to the ID it concerns: before the operation's Options (or last when it has none). */
function withOnNotFound(
	properties: INodeProperties[],
	onNotFound: INodeProperties,
): INodeProperties[] {
	const options = properties.findIndex((p) => p.type === 'collection');
	const at = options === -1 ? properties.length : options;
	return [...properties.slice(0, at), onNotFound, ...properties.slice(at)];
}

/**
 * What the model reads about an operation when the node is an AI agent's tool. n8n's automatic text is
 * "<action> in <node>", which never says what comes back (n8n-workflow NodeHelpers.makeDescription),
 * so each operation carries its own: "<action> in the CRM: <description>. Returns <returns>."
 */
function toolText(op: Pick<OperationModule, 'operation' | 'returns'>): string {
	const { action, description } = op.operation;
	const what = (description ?? '').replace(/\.$/, '');
	// "Find records…", but "CRM …" and "ID …" keep their capitals
	const lowered = /^[A-Z][a-z]/.test(what) ? what[0].toLowerCase() + what.slice(1) : what;
	return `${action ?? op.operation.name} in the CRM${lowered ? `: ${lowered}` : ''}. Returns ${op.returns}.`;
}

/** Names the hidden parameter holding an operation's tool text: one name per operation, so none is carried over to another. */
const TOOL_TEXT = 'toolText_';

/**
 * The tool variant's "Description" (n8n adds its own "Set Automatically" pair only when a node has no
 * `toolDescription`): an expression reading the operation's hidden tool text, so it follows the
 * chosen operation until the person writes their own.
 */
const TOOL_DESCRIPTION: INodeProperties = {
	displayName: 'Description',
	name: 'toolDescription',
	type: 'string',
	typeOptions: { rows: 2 },
	default: `={{ $parameter["${TOOL_TEXT}" + $parameter.resource + "_" + $parameter.operation] }}`,
	hint: 'Follows the operation; write your own to tell the model more',
	description: 'What the model reads about this tool: what it does and what it returns',
	displayOptions: { show: { '@tool': [true] } },
};

function toolTextProperty(resource: string, op: OperationModule): INodeProperties {
	const operation = String(op.operation.value);
	return {
		displayName: 'Tool Text',
		name: `${TOOL_TEXT}${resource}_${operation}`,
		type: 'hidden',
		default: toolText(op),
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
	};
}

/**
 * A resource from its operation files: the Operation selector (Create, Create or Update, Delete, Get,
 * Get Many, Search, Update first, then by name; a routed operation's option carries its routing),
 * every operation's properties and the custom operations (files that export `execute`).
 * Registering an operation = its file plus one entry in `operations`.
 */
export function defineResource(
	option: INodePropertyOptions,
	operations: OperationModule[],
	defaultOperation: string,
): ResourceModule {
	const resource = String(option.value);
	const valueOf = (op: OperationModule) => String(op.operation.value);
	const custom = operations.filter((op) => op.execute);
	return {
		option,
		description: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: [resource] } },
				options: operations.map((op) => op.operation).sort(operationOrder),
				default: defaultOperation,
			},
			...operations.flatMap((op) =>
				routeOf(op.operation)?.notFound
					? withOnNotFound(op.description, onNotFoundProperty(resource, valueOf(op)))
					: op.description,
			),
			...operations.map((op) => toolTextProperty(resource, op)),
		],
		customOperations: custom.length
			? Object.fromEntries(custom.map((op) => [valueOf(op), op.execute!]))
			: undefined,
	};
}

/**
 * n8n's "Custom API Call" choice (value `__CUSTOM_API_CALL__`): the editor answers it with a notice
 * pointing to the HTTP Request node, which calls the API with this package's credential type. n8n
 * 2.40.7 adds it by itself only to single-version nodes (LoadNodesAndCredentials.injectCustomApiCallOptions),
 * so CRM Bulk had it and CRM Record (two versions) did not: every node's Resource list ends with it
 * (see crmNodeDescription), which also keeps n8n from adding a second one there.
 */
const CUSTOM_API_CALL: INodePropertyOptions = {
	name: 'Custom API Call',
	value: '__CUSTOM_API_CALL__',
};

/** A node's resources put together: the Resource selector, every resource's properties, the custom operations by resource. */
export interface AssembledResources {
	selector: INodeProperties;
	properties: INodeProperties[];
	customOperations: Record<string, Record<string, CustomOperation>>;
}

/** Builds a node's Resource selector (options in the given order), its properties and its custom-operation map. */
export function assembleResources(
	resources: ResourceModule[],
	defaultResource: string,
): AssembledResources {
	return {
		selector: {
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: resources.map((r) => r.option),
			default: defaultResource,
		},
		properties: resources.flatMap((r) => r.description),
		customOperations: Object.fromEntries(
			resources
				.filter((r) => r.customOperations)
				.map((r) => [r.option.value as string, r.customOperations!]),
		),
	};
}

/** The subtitle of the CRM action nodes: "<operation>: <resource>". */
export const OPERATION_SUBTITLE = '={{ $parameter["operation"] + ": " + $parameter["resource"] }}';

interface CrmNodeOptions {
	displayName: string;
	name: string;
	description: string;
	/** Defaults to ['transform']. */
	group?: INodeTypeDescription['group'];
	properties: INodeProperties[];
	/** Defaults to 1; a list when a node gains a version (new defaults, saved workflows unchanged). */
	version?: INodeTypeDescription['version'];
	defaultVersion?: number;
	/** the first version whose module and record pickers are resource locators (shared/description/properties.ts pickersSince); none: the old pickers */
	locatorsSince?: number;
}

/** What a node file still writes itself: the community-node lint reads these from the description literal. */
type LintedFields = 'icon' | 'subtitle' | 'usableAsTool';

/**
 * The shared part of a CRM action node's description: version 1, one main input and output, the
 * crmOAuth2Api credential, and requests against the account's API domain. Each routed operation
 * names its request runner in its own routing (crmRouting, shared/transport/runner.ts).
 * Spread it into the node's description literal next to `icon`, `subtitle` and `usableAsTool`.
 */
export function crmNodeDescription(
	options: CrmNodeOptions,
): Omit<INodeTypeDescription, LintedFields> {
	return {
		displayName: options.displayName,
		name: options.name,
		group: options.group ?? ['transform'],
		version: options.version ?? 1,
		...(options.defaultVersion !== undefined ? { defaultVersion: options.defaultVersion } : {}),
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
		properties: [
			TOOL_DESCRIPTION,
			...pickersSince(options.properties, options.locatorsSince).map((p) =>
				p.name === 'resource' && p.options ? { ...p, options: [...p.options, CUSTOM_API_CALL] } : p,
			),
		],
	};
}
