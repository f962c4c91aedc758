import type { INodeProperties } from 'n8n-workflow';

/** `binaryPropertyName`: the input binary field an upload sends. */
export const binaryPropertyField = (description: string): INodeProperties => ({
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the input binary field containing the file',
	description,
});
