import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { recordPicker } from '../../../shared/description/properties';
import { toCrmDate } from '../../../shared/formats/dates';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import { jsonObjectParameter } from '../../../shared/records/fields';
import { checkDigits } from '../../../shared/records/validation';
import { listOf } from './shared';
import { validateRecordId } from './hooks';
import { getParameter } from '../../../shared/parameters';
import { bodyPreSend, crmRouting } from '../../../shared/transport';

/** The LeadConverter item (§5.1: `data` [=1]) from the parameters. */
const convertLeadPreSend = bodyPreSend(function (itemIndex) {
	const options = getParameter(this, 'options', itemIndex, {}) as IDataObject;
	const converter: IDataObject = {};
	for (const key of ['notify_lead_owner', 'notify_new_entity_owner', 'overwrite']) {
		if (options[key] !== undefined) converter[key] = options[key] as boolean;
	}
	for (const [key, label] of [
		['Accounts', 'Existing Account ID'],
		['Contacts', 'Existing Contact ID'],
		['assign_to', 'Assign To User ID'],
	] as const) {
		const value = String(options[key] ?? '').trim();
		if (!value) continue;
		checkDigits(this.getNode(), value, label, { itemIndex });
		converter[key] = value;
	}
	const tags = (getParameter(this, 'options.carryOverTags.tags', itemIndex, {}) ??
		{}) as IDataObject;
	const carry: IDataObject = {};
	for (const key of ['Contacts', 'Accounts', 'Deals']) {
		const names = listOf(tags[key]);
		if (names.length) carry[key] = names;
	}
	if (Object.keys(carry).length) converter.carry_over_tags = carry;
	if (getParameter(this, 'createDeal', itemIndex, false) as boolean) {
		const deal: IDataObject = {};
		const dealName = String(getParameter(this, 'dealName', itemIndex, '') ?? '').trim();
		if (dealName) deal.Deal_Name = dealName;
		const stage = String(getParameter(this, 'dealStage', itemIndex, '') ?? '').trim();
		if (stage) deal.Stage = stage;
		const closing = getParameter(this, 'dealClosingDate', itemIndex, '') as string;
		if (closing) {
			const date = toCrmDate(closing);
			if (!date)
				throw new NodeOperationError(this.getNode(), `Closing Date is not a date: "${closing}"`, {
					itemIndex,
				});
			deal.Closing_Date = date;
		}
		const amount = getParameter(this, 'dealAmount', itemIndex, undefined) as number | undefined;
		if (amount !== undefined && amount !== null) deal.Amount = amount;
		Object.assign(
			deal,
			jsonObjectParameter.call(this, 'dealJson', itemIndex, 'Additional Deal Fields'),
		);
		converter.Deals = deal;
	}
	return { data: [converter] };
});

/** ConvertLead — POST /crm/{v}/Leads/{id}/actions/convert */
export const operation: INodePropertyOptions = {
	name: 'Convert Lead',
	value: 'convertLead',
	action: 'Convert a lead',
	description: 'Convert a lead into a contact, an account and optionally a deal',
	routing: crmRouting(
		{
			request: {
				method: 'POST',
				url: '=/Leads/{{ toPathSegment(String($parameter.recordId).trim()) }}/actions/convert',
			},
			send: { preSend: [validateRecordId, convertLeadPreSend] },
		},
		{ rootProperty: 'data' },
	),
};

export const returns =
	'the ids of the contact, account and deal the lead was converted into or linked to (empty when none)';

const properties: INodeProperties[] = [
	recordPicker({
		displayName: 'Lead',
		description: 'The lead to convert',
		searchListMethod: 'searchLeads',
	}),
	{
		displayName: 'Create Deal',
		name: 'createDeal',
		type: 'boolean',
		default: false,
		description: 'Whether a deal is created with the contact and account',
	},
	{
		displayName: 'Deal Name',
		name: 'dealName',
		type: 'string',
		default: '',
		required: true,
		displayOptions: { show: { createDeal: [true] } },
	},
	{
		displayName: 'Stage Name or ID',
		name: 'dealStage',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getDealStages' },
		default: 'Qualification',
		required: true,
		description:
			'Stage of the new deal, from the Stage picklist of the Deals layout. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show: { createDeal: [true] } },
	},
	{
		displayName: 'Closing Date',
		name: 'dealClosingDate',
		type: 'dateTime',
		default: '',
		required: true,
		displayOptions: { show: { createDeal: [true] } },
	},
	{
		displayName: 'Amount',
		name: 'dealAmount',
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		default: 0,
		displayOptions: { show: { createDeal: [true] } },
	},
	{
		displayName: 'Additional Deal Fields (JSON)',
		name: 'dealJson',
		type: 'json',
		default: '{}',
		description: 'Further fields of the deal as a JSON object, e.g. {"Lead_Source": "Web"}',
		displayOptions: { show: { createDeal: [true] } },
	},
	optionsCollection([
		{
			displayName: 'Assign To User ID',
			name: 'assign_to',
			type: 'string',
			default: '',
			description: 'Owner of the new records (assign_to); the lead owner when empty',
		},
		{
			displayName: 'Carry Over Tags',
			name: 'carryOverTags',
			type: 'fixedCollection',
			default: {},
			description: 'Tags of the lead that move to the new records (carry_over_tags)',
			options: [
				{
					displayName: 'Tags',
					name: 'tags',
					values: [
						{
							displayName: 'To Accounts',
							name: 'Accounts',
							type: 'string',
							default: '',
							description: 'Comma-separated tag names',
						},
						{
							displayName: 'To Contacts',
							name: 'Contacts',
							type: 'string',
							default: '',
							description: 'Comma-separated tag names',
						},
						{
							displayName: 'To Deals',
							name: 'Deals',
							type: 'string',
							default: '',
							description: 'Comma-separated tag names',
						},
					],
				},
			],
		},
		{
			displayName: 'Existing Account ID',
			name: 'Accounts',
			type: 'string',
			default: '',
			description: 'Associate with this account instead of creating one (Accounts)',
		},
		{
			displayName: 'Existing Contact ID',
			name: 'Contacts',
			type: 'string',
			default: '',
			description: 'Associate with this contact instead of creating one (Contacts)',
		},
		{
			displayName: 'Notify Lead Owner',
			name: 'notify_lead_owner',
			type: 'boolean',
			default: false,
			description: 'Whether the lead owner is notified of the conversion',
		},
		{
			displayName: 'Notify New Entity Owner',
			name: 'notify_new_entity_owner',
			type: 'boolean',
			default: false,
			description: 'Whether the owner of the new records is notified',
		},
		{
			displayName: 'Overwrite',
			name: 'overwrite',
			type: 'boolean',
			default: false,
			description: "Whether the existing account and contact get the lead's values",
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['convertLead'] } },
	properties,
);
