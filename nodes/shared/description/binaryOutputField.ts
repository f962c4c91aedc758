import type { INodeProperties } from 'n8n-workflow';

/** `binaryPropertyName`: the output binary field a download puts the file in. */
export const outputBinaryField: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the output binary field to put the file in',
};
