import type {
	DisplayCondition,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	ILoadOptionsFunctions,
	INodeProperties,
	INodePropertyMode,
} from 'n8n-workflow';
import { isResourceLocatorValue } from 'n8n-workflow';

import { getParameter } from '../parameters';

// Record and module pickers are resource locators, as n8n's own CRM nodes have them: From List (loaded
// when the dropdown opens, so nothing is fetched while the panel renders and the credential is still
// being assigned), By ID, and By URL (a record's address in the CRM's web app,
// https://<web host>/crm/<org>/tab/<Module>/<record id>; README "Record pickers").

/** Module of a web-app address: the last path segment that is not a record ID. */
export const MODULE_URL_REGEX = String.raw`^https?://[^/]+/(?:[^?#]*/)?([A-Za-z][A-Za-z0-9_]*)(?:/[0-9]+)?/?(?:[?#].*)?$`;
/** Record ID of a web-app address: its last path segment. */
export const RECORD_URL_REGEX = String.raw`^https?://[^/]+/(?:[^?#]*/)?[A-Za-z][A-Za-z0-9_]*/([0-9]+)/?(?:[?#].*)?$`;
const URL_PLACEHOLDER = 'https://crm.example.com/crm/org123456/tab/Leads/4876876000000611001';

function urlMode(regex: string, what: string): INodePropertyMode {
	// filled in steps: the node-parameter lint would take a literal mode for a parameter without default
	const mode = { name: 'url', type: 'string' } as INodePropertyMode;
	mode.displayName = 'By URL';
	mode.placeholder = URL_PLACEHOLDER;
	mode.extractValue = { type: 'regex', regex };
	mode.validation = [
		{
			type: 'regex',
			properties: {
				regex,
				errorMessage: `Not a record address of the CRM's web app (no ${what} in it)`,
			},
		},
	];
	return mode;
}

/** Module picker: the module list of the connected CRM (custom modules included), its API name, or a record's address. */
export const moduleSelect: INodeProperties = {
	displayName: 'Module',
	name: 'module',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The module of the records, e.g. Leads or Deals',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchModules', searchable: true },
		},
		{
			displayName: 'By API Name',
			name: 'id',
			type: 'string',
			placeholder: 'Leads',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: '^[A-Za-z][A-Za-z0-9_]*$',
						errorMessage: 'An API name: letters, digits and _',
					},
				},
			],
		},
		urlMode(MODULE_URL_REGEX, 'module'),
	],
};

/** The From List methods of record pickers (shared/methods/listSearch.ts); each has a text ID before `locatorsSince`. */
const RECORD_LIST_METHODS = [
	'searchRecords',
	'searchLeads',
	'searchDeals',
	'searchContacts',
	'searchNotes',
	'searchAttachments',
	'searchRelatedRecords',
] as const;

interface RecordPickerOptions {
	displayName?: string;
	name?: string;
	description?: string;
	/** listSearch method of its From List mode (the module's records by default) */
	searchListMethod?: (typeof RECORD_LIST_METHODS)[number];
	/** a By URL mode (records with a page in the CRM's web app; notes have none) */
	byUrl?: boolean;
	placeholder?: string;
	/** By ID also takes an external-ID value (the operation's external-ID option): no digits check */
	externalValues?: boolean;
}

/** Record picker: records by their display name (searchable), a numeric ID, or the record's address. */
export function recordPicker(options: RecordPickerOptions = {}): INodeProperties {
	return {
		displayName: options.displayName ?? 'Record',
		name: options.name ?? 'recordId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description:
			options.description ?? 'The record: from the list, by ID, or by its address in the CRM',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: {
					searchListMethod: options.searchListMethod ?? 'searchRecords',
					searchable: true,
				},
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: options.placeholder ?? '4876876000000611001',
				validation: options.externalValues
					? []
					: [
							{
								type: 'regex',
								properties: {
									regex: String.raw`^\s*[0-9]+\s*$`,
									errorMessage: 'An ID is digits only',
								},
							},
						],
			},
			...(options.byUrl === false ? [] : [urlMode(RECORD_URL_REGEX, 'record ID')]),
		],
	};
}

export const recordIdField: INodeProperties = recordPicker();

/** What the pickers of node versions before `locatorsSince` are: a module dropdown and a text ID. */
const LEGACY: Record<string, (p: INodeProperties) => INodeProperties> = {
	searchModules: (p) => ({
		...withoutModes(p),
		displayName: `${p.displayName} Name or ID`,
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getModules' },
		default: '',
		description:
			'API name of the module, e.g. Leads or Deals. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	}),
	...Object.fromEntries(RECORD_LIST_METHODS.map((method) => [method, legacyRecordId])),
};

function legacyRecordId(p: INodeProperties): INodeProperties {
	return {
		...withoutModes(p),
		displayName: /ID$/.test(p.displayName) ? p.displayName : `${p.displayName} ID`,
		type: 'string',
		default: '',
		placeholder: p.modes?.find((m) => m.name === 'id')?.placeholder ?? '4876876000000611001',
	};
}

function withoutModes(p: INodeProperties): INodeProperties {
	const rest = { ...p };
	delete rest.modes;
	delete rest.typeOptions;
	return rest;
}

const listMethodOf = (p: INodeProperties) =>
	p.type === 'resourceLocator'
		? (p.modes ?? []).map((m) => m.typeOptions?.searchListMethod).find((m) => m && m in LEGACY)
		: undefined;

function forVersions(p: INodeProperties, condition: DisplayCondition): INodeProperties {
	const show = { ...(p.displayOptions?.show ?? {}), '@version': [condition] };
	return { ...p, displayOptions: { ...p.displayOptions, show } };
}

/**
 * A node's properties with its pickers per version: from `since` the resource locators, before it the
 * dropdown / text field saved workflows were built with (same parameter names; reading goes through
 * pickedValue, which takes both shapes). Without `since` the node keeps the old pickers.
 */
export function pickersSince(properties: INodeProperties[], since?: number): INodeProperties[] {
	return properties.flatMap((p) => {
		const method = listMethodOf(p);
		if (!method) return [p];
		const legacy = LEGACY[method](p);
		return since === undefined
			? [legacy]
			: [forVersions(legacy, { _cnd: { lt: since } }), forVersions(p, { _cnd: { gte: since } })];
	});
}

/**
 * The value of a picker parameter (module, record ID), trimmed: a plain value as saved by earlier
 * versions, or a resource locator's (its URL mode read by n8n with the mode's pattern). Every read of a
 * picker goes through here.
 */
export function pickedValue(
	ctx: IExecuteFunctions | IExecuteSingleFunctions | ILoadOptionsFunctions,
	name: string,
	itemIndex = 0,
): string {
	if ('getCurrentNodeParameter' in ctx) {
		const current = ctx.getCurrentNodeParameter(name);
		if (!isResourceLocatorValue(current)) return String(current ?? '').trim();
		if (current.mode !== 'url') return String(current.value ?? '').trim();
		try {
			return String(ctx.getCurrentNodeParameter(name, { extractValue: true }) ?? '').trim();
		} catch {
			// an address without a module or ID in it: nothing to list for it yet
			return '';
		}
	}
	const raw = getParameter(ctx, name, itemIndex, '');
	if (!isResourceLocatorValue(raw)) return String(raw ?? '').trim();
	if (raw.mode !== 'url') return String(raw.value ?? '').trim();
	const url = getParameter(ctx, name, itemIndex, '', { extractValue: true });
	return String(url ?? '').trim();
}

/** Return All / Limit pair; the operation's request runner (crmRouting) pages with them. */
export function returnAllLimit(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** Field/value pairs of a record; values are typed from the module's field metadata when sent. */
export const recordFieldsUi: INodeProperties = {
	displayName: 'Fields',
	name: 'fieldsUi',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add Field',
	options: [
		{
			displayName: 'Field',
			name: 'field',
			values: [
				{
					displayName: 'Field Name or ID',
					name: 'name',
					type: 'options',
					typeOptions: { loadOptionsMethod: 'getFields', loadOptionsDependsOn: ['module'] },
					default: '',
					description:
						'Field API name. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					description:
						'Value of the field; numbers, booleans, dates and lookups are converted to the field type',
				},
			],
		},
	],
};
