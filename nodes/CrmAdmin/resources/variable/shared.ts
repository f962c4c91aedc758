import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { keyFields } from '../shared';

export const VARIABLE_TYPES = [
	{ name: 'Checkbox', value: 'checkbox' },
	{ name: 'Currency', value: 'currency' },
	{ name: 'Date', value: 'date' },
	{ name: 'Date Time', value: 'datetime' },
	{ name: 'Decimal', value: 'decimal' },
	{ name: 'Email', value: 'email' },
	{ name: 'Integer', value: 'integer' },
	{ name: 'Long Integer', value: 'long' },
	{ name: 'Multi-Line Text', value: 'textarea' },
	{ name: 'Percent', value: 'percent' },
	{ name: 'Phone', value: 'phone' },
	{ name: 'Text', value: 'text' },
	{ name: 'Website', value: 'website' },
];

export const groupField: INodeProperties = {
	displayName: 'Variable Group Name or ID',
	name: 'group',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getVariableGroups' },
	default: '',
	required: true,
	description:
		'Group the variable belongs to (an API name works too). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const variableTypeField: INodeProperties = {
	displayName: 'Type',
	name: 'variableType',
	type: 'options',
	options: VARIABLE_TYPES,
	default: 'text',
	description: 'Data type of the value',
};

/** The variable ID parameter of delete, and of get and update by ID. */
export const variableIdField: INodeProperties = {
	displayName: 'Variable ID',
	name: 'variableId',
	type: 'string',
	default: '',
	required: true,
	placeholder: '4876876000000391101',
};

/** "By ID" / "By API Name" selector with the two key parameters. */
export function variableKeyFields(selector: string, verb: string): INodeProperties[] {
	return keyFields(selector, verb, variableIdField, {
		label: 'Variable',
		name: 'variableApiName',
		placeholder: 'Discount_Limit',
	});
}

/**
 * A variable value typed for the wire: numbers for integer, long, decimal, currency and percent,
 * a boolean for checkbox, text otherwise; an empty value clears the variable (null).
 */
export function variableValue(
	this: IExecuteFunctions,
	type: string,
	raw: unknown,
	itemIndex: number,
): unknown {
	if (raw === undefined || raw === null || raw === '') return null;
	const bad = (expected: string) =>
		new NodeOperationError(
			this.getNode(),
			`Value "${String(raw)}" is not ${expected} (variable type ${type})`,
			{ itemIndex },
		);
	switch (type) {
		case 'integer':
		case 'long': {
			const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
			if (!Number.isSafeInteger(n)) throw bad('a whole number');
			return n;
		}
		case 'decimal':
		case 'currency':
		case 'percent': {
			const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
			if (!Number.isFinite(n)) throw bad('a number');
			return n;
		}
		case 'checkbox': {
			if (typeof raw === 'boolean') return raw;
			const text = String(raw).trim().toLowerCase();
			if (text !== 'true' && text !== 'false') throw bad('true or false');
			return text === 'true';
		}
		default:
			return typeof raw === 'string' ? raw : String(raw);
	}
}

/** Common optional keys of a variable item. */
export function optionalKeys(values: IDataObject): IDataObject {
	const out: IDataObject = {};
	if (typeof values.description === 'string' && values.description !== '')
		out.description = values.description;
	if (typeof values.api_name === 'string' && values.api_name.trim() !== '')
		out.api_name = values.api_name.trim();
	return out;
}
