import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { itemListRequest } from '../../../shared/transport/itemListRequest';
import { assertV21, runBatched } from '../../../shared/transport';
import { digitsParameter, isDigits } from '../../../shared/records/validation';
import { dealLayoutField, idOptions } from '../shared';
import { getParameter } from '../../../shared/parameters';

/** TransferAndDelete — POST /crm/{v}/settings/pipeline/actions/transfer?layout_id=, up to 100 transfers per request (custom operation, v2.1 only) */
export const operation: INodePropertyOptions = {
	name: 'Transfer and Delete',
	value: 'transferAndDelete',
	action: 'Transfer deals and delete a pipeline',
	description: 'Move the deals of a pipeline into another (stages mapped) and delete it',
};

export const returns = 'one item per transfer: its status and message';

const stageOptions = {
	type: 'options' as const,
	typeOptions: { loadOptionsMethod: 'getPipelineStages', loadOptionsDependsOn: ['layoutId'] },
	default: '',
};

const properties: INodeProperties[] = [
	dealLayoutField,
	idOptions(
		'From Pipeline Name or ID',
		'fromPipelineId',
		'getPipelines',
		['layoutId'],
		'Pipeline whose deals move and which is then deleted',
	),
	idOptions(
		'To Pipeline Name or ID',
		'toPipelineId',
		'getPipelines',
		['layoutId'],
		'Pipeline receiving the deals',
	),
	{
		displayName: 'Stage Mappings',
		name: 'stageMappings',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Stage Mapping',
		default: {},
		description: 'Where deals at a stage missing from the target pipeline go',
		options: [
			{
				displayName: 'Mapping',
				name: 'mapping',
				values: [
					{
						...stageOptions,
						displayName: 'From Stage Name or ID',
						name: 'from',
						description:
							'Stage of the deleted pipeline. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					{
						...stageOptions,
						displayName: 'To Stage Name or ID',
						name: 'to',
						description:
							'Stage of the target pipeline. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
				],
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['pipeline'], operation: ['transferAndDelete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	await assertV21.call(this, 'Pipeline → Transfer and Delete (TransferAndDelete)');
	return await runBatched(this, {
		build: (itemIndex) => {
			const layoutId = digitsParameter(this, 'layoutId', 'Deals layout ID', itemIndex);
			const from = digitsParameter(this, 'fromPipelineId', 'From pipeline ID', itemIndex);
			const to = digitsParameter(this, 'toPipelineId', 'To pipeline ID', itemIndex);
			if (from === to)
				throw new NodeOperationError(
					this.getNode(),
					'The pipelines to transfer from and to must differ',
					{ itemIndex },
				);
			const mappings =
				(getParameter(this, 'stageMappings.mapping', itemIndex, []) as Array<{
					from?: string;
					to?: string;
				}>) ?? [];
			const stages = mappings.map((m, i) => {
				const sFrom = String(m.from ?? '').trim();
				const sTo = String(m.to ?? '').trim();
				if (!isDigits(sFrom) || !isDigits(sTo)) {
					throw new NodeOperationError(
						this.getNode(),
						`Stage mapping ${i + 1} needs a from and a to stage ID`,
						{ itemIndex },
					);
				}
				return { from: sFrom, to: sTo };
			});
			return { key: layoutId, payload: { pipeline: { from, to }, stages } };
		},
		request: (layoutId, transfers) =>
			itemListRequest(
				{
					method: 'POST',
					path: '/settings/pipeline/actions/transfer',
					qs: { layout_id: layoutId },
				},
				'transfer_pipeline',
				transfers,
			),
		toJson: (result) => ({ ...result }),
	});
}
