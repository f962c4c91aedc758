import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { updateFieldsCollection } from '../../../shared/description/collections';
import { digitsMessage, isDigits, listOf } from '../../../shared/records/validation';
import { idOptions } from '../shared';

/** Pipeline names are at most 120 characters (sandbox INVALID_DATA maximum_length 120). */
const PIPELINE_NAME_MAX = 120;

export const pipelineIdField: INodeProperties = idOptions(
	'Pipeline Name or ID',
	'pipelineId',
	'getPipelines',
	['layoutId'],
	'Pipeline of the layout',
);

export const stageIdsField: INodeProperties = {
	displayName: 'Stage Names or IDs',
	name: 'stageIds',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getPipelineStages', loadOptionsDependsOn: ['layoutId'] },
	default: [],
	description:
		'Stages of the pipeline, in order. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

interface PipelineInput {
	name?: unknown;
	isDefault?: unknown;
	stageIds?: unknown;
}

/**
 * One `pipeline` body item from the node's values (create: name and stages required), or the
 * reason it cannot be sent. Stages go as `maps` of stage IDs in the given order.
 */
export function pipelineItem(
	input: PipelineInput,
	mode: 'create' | 'update',
): { item: IDataObject } | { error: string } {
	const item: IDataObject = {};
	const name = typeof input.name === 'string' ? input.name.trim() : input.name;
	if (name !== undefined && name !== '') {
		if (typeof name !== 'string') return { error: 'The pipeline name must be text' };
		if (name.length > PIPELINE_NAME_MAX)
			return {
				error: `The pipeline name may be at most ${PIPELINE_NAME_MAX} characters, got ${name.length}`,
			};
		item.display_value = name;
	} else if (mode === 'create') {
		return { error: 'The pipeline needs a name' };
	}
	if (input.isDefault !== undefined)
		item.default = input.isDefault === true || input.isDefault === 'true';
	const raw = input.stageIds;
	const stages = listOf(raw);
	if (stages.length > 0) {
		const bad = stages.find((s) => !isDigits(s));
		if (bad !== undefined) return { error: digitsMessage('Stage ID', bad) };
		item.maps = stages.map((id, i) => ({ id, sequence_number: i + 1 }));
	} else if (mode === 'create') {
		return { error: 'The pipeline needs at least one stage' };
	}
	if (mode === 'update' && Object.keys(item).length === 0)
		return { error: 'Nothing to update: add at least one field under "Update Fields"' };
	return { item };
}

/** "Update Fields" of both update operations. */
export const pipelineUpdateFields: INodeProperties = updateFieldsCollection([
	{
		displayName: 'Default',
		name: 'isDefault',
		type: 'boolean',
		default: true,
		description: 'Whether the pipeline becomes the default of the layout',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		description: 'New name of the pipeline',
	},
	{
		...stageIdsField,
		description: `${String(stageIdsField.description)} Replaces the stages of the pipeline.`,
	},
]);
