import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { itemListRequest } from '../../../shared/transport/itemListRequest';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { assertV21, runBatched } from '../../../shared/transport';
import { digitsParameter } from '../../../shared/records/validation';
import { dealLayoutField } from '../shared';
import { pipelineItem, stageIdsField } from './shared';
import { getParameter } from '../../../shared/parameters';
import { writeOperation } from '../../../shared/description/nodeDescription';

const properties: INodeProperties[] = [
	dealLayoutField,
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		description: 'Name of the pipeline',
	},
	{ ...stageIdsField, required: true },
	optionsCollection([
		{
			displayName: 'Default',
			name: 'isDefault',
			type: 'boolean',
			default: false,
			description: 'Whether the pipeline becomes the default of the layout',
		},
	]),
];

/** CreatePipelines — POST /crm/{v}/settings/pipeline?layout_id=, up to 100 pipelines per request (custom operation, v2.1 only) */
export const { operation, returns, description, execute } = writeOperation('create', {
	resource: 'pipeline',
	thing: 'pipeline',
	description: 'Create pipelines in a Deals layout',
	properties,
	async execute() {
		await assertV21.call(this, 'Pipeline → Create (CreatePipelines)');
		return await runBatched(this, {
			build: (itemIndex) => {
				const layoutId = digitsParameter(this, 'layoutId', 'Deals layout ID', itemIndex);
				const built = pipelineItem(
					{
						name: getParameter(this, 'name', itemIndex),
						stageIds: getParameter(this, 'stageIds', itemIndex),
						isDefault: (getParameter(this, 'options', itemIndex, {}) as IDataObject).isDefault,
					},
					'create',
				);
				if ('error' in built)
					throw new NodeOperationError(this.getNode(), built.error, { itemIndex });
				return { key: layoutId, payload: built.item };
			},
			request: (layoutId, pipelines) =>
				itemListRequest(
					{ method: 'POST', path: '/settings/pipeline', qs: { layout_id: layoutId } },
					'pipeline',
					pipelines,
				),
		});
	},
});
