import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { collectionValues } from '../shared';

export const taxIdField: INodeProperties = {
	displayName: 'Tax Name or ID',
	name: 'taxId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getTaxes' },
	default: '',
	required: true,
	description:
		'The tax. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const sequenceNumberField: INodeProperties = {
	displayName: 'Sequence Number',
	name: 'sequence_number',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 1,
	description:
		'Position of the tax in the list (1 = first); the others move down. Unique within one request.',
};

/** A Tax item from collection values, `value` as a number. */
export function taxBody(
	this: IExecuteFunctions,
	values: IDataObject,
	itemIndex: number,
): IDataObject {
	const body = collectionValues(values);
	if (typeof body.name === 'string') body.name = body.name.trim();
	if (body.value !== undefined) {
		const value = Number(body.value);
		if (!Number.isFinite(value)) {
			throw new NodeOperationError(
				this.getNode(),
				`Value must be a number, got "${String(body.value)}"`,
				{ itemIndex },
			);
		}
		body.value = value;
	}
	if (
		body.sequence_number !== undefined &&
		(!Number.isInteger(body.sequence_number) || (body.sequence_number as number) < 1)
	) {
		throw new NodeOperationError(
			this.getNode(),
			`Sequence Number must be a whole number from 1, got "${String(body.sequence_number)}"`,
			{ itemIndex },
		);
	}
	return body;
}
