import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, pickedValue, recordFieldsUi } from '../../../shared/description/properties';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { recordBody } from '../../../shared/records/fields';
import type { FieldMeta } from '../../../shared/records/fields';
import { bodyPreSend, credentialVariant, crmRouting } from '../../../shared/transport';
import { digitsParameter } from '../../../shared/records/validation';
import { idListOf } from './shared';
import { jobIdFirst } from './hooks';
import { getParameter } from '../../../shared/parameters';

const MASS_UPDATE_MAX_IDS = 500;

/** Body of MassUpdate (§5.1): one `data` item of values and exactly one of `ids` / `cvid` (+ `criteria`) / `territory`. */
const massUpdatePreSend = bodyPreSend(async function (itemIndex) {
	const module = pickedValue(this, 'module');
	const { record } = await recordBody.call(
		this,
		itemIndex,
		module,
		new Map<string, Map<string, FieldMeta>>(),
		// one job changes many records: a picklist mistake is named before the job starts
		{ jsonLabel: 'Values JSON', checkJsonPicklists: true },
	);
	if (Object.keys(record).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Give at least one field to set', { itemIndex });
	}
	const body: IDataObject = { data: [record] };
	const by = getParameter(this, 'massUpdateBy', itemIndex) as string;
	if (by === 'ids') {
		body.ids = idListOf.call(
			this,
			getParameter(this, 'recordIds', itemIndex),
			itemIndex,
			'Record IDs',
			MASS_UPDATE_MAX_IDS,
		);
	} else if (by === 'cvid') {
		body.cvid = digitsParameter(this, 'cvid', 'Custom View ID', itemIndex);
		const raw = getParameter(this, 'criteriaJson', itemIndex, '') as string | IDataObject;
		if (raw && (typeof raw !== 'string' || raw.trim() !== '')) {
			let criteria: unknown = raw;
			if (typeof raw === 'string') {
				try {
					criteria = JSON.parse(raw);
				} catch {
					throw new NodeOperationError(this.getNode(), 'Criteria (JSON) is not valid JSON', {
						itemIndex,
					});
				}
			}
			body.criteria = Array.isArray(criteria) ? criteria : [criteria];
		}
	} else {
		const id = digitsParameter(this, 'territoryId', 'Territory ID', itemIndex);
		// v2: a Territory object; v2.1: {id, include_child} (§13)
		body.territory =
			(await credentialVariant.call(this)) === 'v2.1'
				? {
						id,
						include_child: getParameter(this, 'includeChild', itemIndex, false) as boolean,
					}
				: { id };
	}
	const options = getParameter(this, 'options', itemIndex, {}) as IDataObject;
	if (options.over_write !== undefined) body.over_write = options.over_write as boolean;
	return body;
});

/** MassUpdate — POST /crm/{v}/{module}/actions/mass_update */
export const operation: INodePropertyOptions = {
	name: 'Mass Update',
	value: 'massUpdate',
	action: 'Mass update records',
	description: 'Set field values on records chosen by IDs, custom view or territory',
	routing: crmRouting({
		request: {
			method: 'POST',
			url: '=/{{ toPathSegment($parameter.module) }}/actions/mass_update',
		},
		send: { preSend: [massUpdatePreSend] },
		output: { postReceive: [jobIdFirst] },
	}),
};

export const returns = 'the result: its status and the job id to check with Get Mass Update Status';

const properties: INodeProperties[] = [
	moduleSelect,
	{
		displayName: 'Records',
		name: 'massUpdateBy',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'By IDs', value: 'ids', description: 'Up to 500 records, updated at once' },
			{
				name: 'In a Custom View',
				value: 'cvid',
				description: 'A scheduled job; follow it with Get Mass Update Status',
			},
			{
				name: 'In a Territory',
				value: 'territory',
				description: 'A scheduled job; follow it with Get Mass Update Status',
			},
		],
		default: 'ids',
	},
	{
		displayName: 'Record IDs',
		name: 'recordIds',
		type: 'string',
		default: '',
		required: true,
		description: '1 to 500 comma-separated record IDs',
		displayOptions: { show: { massUpdateBy: ['ids'] } },
	},
	{
		displayName: 'Custom View ID',
		name: 'cvid',
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: { massUpdateBy: ['cvid'] } },
	},
	{
		displayName: 'Criteria (JSON)',
		name: 'criteriaJson',
		type: 'json',
		default: '',
		description:
			'Optional extra criteria within the view, e.g. {"field": "Lead_Source", "comparator": "equal", "value": "Web"}',
		displayOptions: { show: { massUpdateBy: ['cvid'] } },
	},
	{
		displayName: 'Territory ID',
		name: 'territoryId',
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: { massUpdateBy: ['territory'] } },
	},
	{
		displayName: 'Include Child Territories',
		name: 'includeChild',
		type: 'boolean',
		default: false,
		description: 'Whether records of the territories below it are updated too (v2.1)',
		displayOptions: { show: { massUpdateBy: ['territory'] } },
	},
	{
		displayName: 'Define Fields',
		name: 'fieldsMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Field/Value Pairs', value: 'pairs' },
			{ name: 'JSON', value: 'json' },
		],
		default: 'pairs',
	},
	{
		...recordFieldsUi,
		description: 'Values to set on every record',
		displayOptions: { show: { fieldsMode: ['pairs'] } },
	},
	{
		displayName: 'Values JSON',
		name: 'recordJson',
		type: 'json',
		default: '{}',
		description: 'Values to set on every record, as a JSON object',
		displayOptions: { show: { fieldsMode: ['json'] } },
	},
	optionsCollection([
		{
			displayName: 'Overwrite',
			name: 'over_write',
			type: 'boolean',
			default: false,
			description:
				'Whether multi-select values replace the existing ones instead of being added (over_write)',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['massUpdate'] } },
	properties,
);
