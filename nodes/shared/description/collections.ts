// Collection parameters every node writes alike: "Additional Fields" / "Update Fields" and the
// plain text and dropdown parameters (sort order, all or any). Factories, not constants: callers pass the
// options they hold.
import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

function fieldsCollection(
	displayName: string,
	name: string,
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName,
		name,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options,
	};
}

/** The optional fields of a create: parameter `additionalFields`. */
export const additionalFieldsCollection = (options: INodeProperties[]): INodeProperties =>
	fieldsCollection('Additional Fields', 'additionalFields', options);

/** The fields an update may change: parameter `updateFields`. */
export const updateFieldsCollection = (options: INodeProperties[]): INodeProperties =>
	fieldsCollection('Update Fields', 'updateFields', options);

/**
 * A dropdown parameter (`type: 'options'`) from what differs: its choices (name → value when none
 * needs a description of its own; in the order written, but names that are whole numbers come
 * first, ascending, as JavaScript orders keys), its default and what follows the default (`more`:
 * description, displayOptions, routing…, in the order given).
 */
export function optionsField(
	displayName: string,
	name: string,
	choices: Record<string, string> | INodePropertyOptions[],
	defaultValue: string,
	more: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		displayName,
		name,
		type: 'options',
		options: Array.isArray(choices)
			? choices
			: Object.entries(choices).map(([name, value]) => ({ name, value })),
		default: defaultValue,
		...more,
	};
}

/** A text parameter, empty by default; `more` (placeholder, description…) follows the default. */
export function textField(
	displayName: string,
	name: string,
	more: Partial<INodeProperties> = {},
): INodeProperties {
	return { displayName, name, type: 'string', default: '', ...more };
}

/** `routing` that sends a parameter as the query value of the same name. */
export const sendAsQuery = (name: string): Partial<INodeProperties> => ({
	routing: { send: { type: 'query', property: name } },
});

/** `sort_order` query option (asc/desc, newest first by default). */
export function sortOrderOption(description?: string): INodeProperties {
	return optionsField(
		'Sort Order',
		'sort_order',
		{ Ascending: 'asc', Descending: 'desc' },
		'desc',
		{ ...(description === undefined ? {} : { description }), ...sendAsQuery('sort_order') },
	);
}

/** How a list of conditions combines: all (AND) or any (OR); value `and` by default. */
export function allOrAnyOption(
	displayName: string,
	name: string,
	displayOptions: IDisplayOptions,
): INodeProperties {
	return optionsField(
		displayName,
		name,
		{ 'All Conditions (AND)': 'and', 'Any Condition (OR)': 'or' },
		'and',
		{ displayOptions },
	);
}

/** The repeatable "Conditions" list (parameter `conditions`, one `condition` per entry). */
export function conditionsCollection(
	description: string,
	displayOptions: IDisplayOptions,
	values: INodeProperties[],
): INodeProperties {
	return {
		displayName: 'Conditions',
		name: 'conditions',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Condition',
		default: {},
		displayOptions,
		description,
		options: [{ displayName: 'Condition', name: 'condition', values }],
	};
}

/** Conditions the CRM accepts in one search criteria (docs/protocol.md §3.11). */
export const MAX_CRITERIA_CONDITIONS = 10;

/** One search condition of the criteria builder (field, operator, value); fields come from `fieldLoader`. */
export function conditionValues(fieldLoader: string, dependsOn: string[]): INodeProperties[] {
	return [
		{
			displayName: 'Field Name or ID',
			name: 'field',
			type: 'options',
			typeOptions: { loadOptionsMethod: fieldLoader, loadOptionsDependsOn: dependsOn },
			default: '',
			description:
				'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
		},
		{
			displayName: 'Operator',
			name: 'operator',
			type: 'options',
			options: [
				{ name: 'Equals', value: 'equals' },
				{
					name: 'Greater or Equal',
					value: 'greater_equal',
					description: 'Numbers, dates and times only',
				},
				{
					name: 'Greater Than',
					value: 'greater_than',
					description: 'Numbers, dates and times only',
				},
				{
					name: 'Less or Equal',
					value: 'less_equal',
					description: 'Numbers, dates and times only',
				},
				{ name: 'Less Than', value: 'less_than', description: 'Numbers, dates and times only' },
				{ name: 'Not Equal', value: 'not_equal', description: 'Numbers, dates and times only' },
				{ name: 'Starts With', value: 'starts_with' },
			],
			default: 'equals',
		},
		{
			displayName: 'Value',
			name: 'value',
			type: 'string',
			default: '',
			description:
				'Dates as yyyy-MM-dd; date-times in ISO 8601 (sent as yyyy-MM-ddTHH:mm:ss±HH:mm)',
		},
	];
}
