import type {
	IDataObject,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { optionsField } from '../../../shared/description/collections';
import { checkDigits, pickedDigits } from '../../../shared/records/validation';
import { moduleSelect, recordIdField } from '../../../shared/description/properties';
import type { OperationModule } from '../../../shared/description/nodeDescription';
import { bodyPreSend, crmRouting } from '../../../shared/transport';
import { getParameter } from '../../../shared/parameters';

/** Sharing limits of docs/protocol.md §6: 1..10 users per request, at most 10 users per record. */
const SHARE_USERS_MAX = 10;

const shareUsersField: INodeProperties = {
	displayName: 'Users',
	name: 'users',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add User',
	description: `Users to share the record with (at most ${SHARE_USERS_MAX})`,
	options: [
		{
			displayName: 'User',
			name: 'user',
			values: [
				{
					displayName: 'User Name or ID',
					name: 'userId',
					type: 'options',
					typeOptions: { loadOptionsMethod: 'getUsers' },
					default: '',
					description:
						'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
				},
				optionsField(
					'Permission',
					'permission',
					{ 'Full Access': 'full_access', 'Read Only': 'read_only', 'Read Write': 'read_write' },
					'read_only',
				),
				{
					displayName: 'Share Related Records',
					name: 'shareRelatedRecords',
					type: 'boolean',
					default: false,
					description: 'Whether the related records are shared too',
				},
			],
		},
	],
};

/** preSend of ShareRecord / UpdateSharePermissions: the `share` list, 1..10 users, checked before sending. */
const shareBody = bodyPreSend(function (itemIndex) {
	pickedDigits(this, 'recordId', 'Record ID', itemIndex);
	const users = (getParameter(this, 'users.user', itemIndex, []) as IDataObject[]) ?? [];
	if (users.length === 0)
		throw new NodeOperationError(this.getNode(), 'Add at least one user to share with', {
			itemIndex,
		});
	if (users.length > SHARE_USERS_MAX) {
		throw new NodeOperationError(
			this.getNode(),
			`${users.length} users given; a record can be shared with at most ${SHARE_USERS_MAX} users per request (and ${SHARE_USERS_MAX} in total)`,
			{ itemIndex },
		);
	}
	const share = users.map((u, i) => {
		const id = String(u.userId ?? '').trim();
		checkDigits(this.getNode(), id, `User ${i + 1}: user ID`, { itemIndex });
		return {
			user: { id },
			permission: u.permission ?? 'read_only',
			share_related_records: u.shareRelatedRecords === true,
		};
	});
	return { share };
});

/** postReceive of RevokeSharedRecord: `share` is one object, output as the item. */
export async function unwrapShare(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const share = (response.body as IDataObject | undefined)?.share;
	if (share && typeof share === 'object' && !Array.isArray(share))
		return [{ json: share as IDataObject }];
	return items;
}

/**
 * postReceive of GetSharedRecordDetails: the summary view outputs one item per share; the manage
 * view one item `{shared_with, shareable_user}` (the response's `share` and `shareable_user` lists).
 */
export async function shareDetails(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const body = response.body as IDataObject | undefined;
	if (!body || typeof body !== 'object' || !Array.isArray(body.shareable_user)) return items;
	return [
		{
			json: {
				shared_with: (body.share ?? []) as IDataObject[],
				shareable_user: body.shareable_user as IDataObject[],
			},
		},
	];
}

/**
 * Share and Update Permissions (routed): `method` on the record's `actions/share` with the `share`
 * body (shareBody), one output item per user under the `share` key.
 */
export function shareWriteOperation(
	method: 'POST' | 'PUT',
	option: INodePropertyOptions,
): Required<Pick<OperationModule, 'operation' | 'returns' | 'description'>> {
	return {
		operation: {
			...option,
			routing: crmRouting(
				{
					request: {
						method,
						url: '=/{{ toPathSegment($parameter.module) }}/{{ toPathSegment($parameter.recordId) }}/actions/share',
					},
					send: { preSend: [shareBody] },
				},
				{ rootProperty: 'share' },
			),
		},
		returns: 'one item per user: its status and the user id (under details)',
		description: updateDisplayOptions(
			{ show: { resource: ['share'], operation: [String(option.value)] } },
			[moduleSelect, recordIdField, shareUsersField],
		),
	};
}
