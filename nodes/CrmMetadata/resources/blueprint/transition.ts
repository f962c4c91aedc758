import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	moduleSelect,
	pickedValue,
	recordFieldsUi,
	recordIdField,
} from '../../../shared/description/properties';
import { coerceFieldValue, loadFieldMeta } from '../../../shared/records/fields';
import type { FieldMeta } from '../../../shared/records/fields';
import { digitsParameter, pickedDigits } from '../../../shared/records/validation';
import { idOptions } from '../shared';
import { getParameter } from '../../../shared/parameters';
import { bodyPreSend, crmRouting } from '../../../shared/transport';

/** preSend: the one-item `blueprint` body `{transition_id, data}`, data typed by the module's field metadata. */
const transitionBody = bodyPreSend(async function (itemIndex) {
	const module = pickedValue(this, 'module');
	pickedDigits(this, 'recordId', 'Record ID', itemIndex);
	const transitionId = digitsParameter(this, 'transitionId', 'Transition ID', itemIndex);
	const pairs =
		(getParameter(this, 'fieldsUi.field', itemIndex, []) as Array<{
			name: string;
			value: unknown;
		}>) ?? [];
	const data: IDataObject = {};
	if (pairs.some((p) => p.name)) {
		const meta = await loadFieldMeta.call(this, new Map<string, Map<string, FieldMeta>>(), module);
		for (const { name, value } of pairs) {
			if (!name) continue;
			const field = meta.get(name);
			if (!field)
				throw new NodeOperationError(
					this.getNode(),
					`Unknown field "${name}" in module ${module}`,
					{ itemIndex },
				);
			data[name] = coerceFieldValue.call(this, field, value, itemIndex) as IDataObject[string];
		}
	}
	return { blueprint: [{ transition_id: transitionId, data }] };
});

/** UpdateBlueprint — PUT /crm/{v}/{module}/{recordId}/actions/blueprint, one transition per request */
export const operation: INodePropertyOptions = {
	name: 'Run Transition',
	value: 'transition',
	action: 'Move a record through a blueprint transition',
	description: "Move a record to the next stage of its blueprint with the transition's data",
	routing: crmRouting({
		request: {
			method: 'PUT',
			url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}/actions/blueprint',
		},
		send: { preSend: [transitionBody] },
	}),
};

export const returns = 'the outcome of the transition: its status and message, with the record id';

const properties: INodeProperties[] = [
	moduleSelect,
	recordIdField,
	idOptions(
		'Transition Name or ID',
		'transitionId',
		'getBlueprintTransitions',
		['module', 'recordId'],
		'Transition to run',
	),
	{
		...recordFieldsUi,
		displayName: 'Transition Data',
		placeholder: 'Add Field',
		description:
			'Values of the fields the transition asks for; typed from the module field metadata',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['blueprint'], operation: ['transition'] } },
	properties,
);
