import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { listSearch, loadOptions as sharedLoadOptions } from '../shared/methods';
import { assertV21, crmRequestList } from '../shared/transport';

/** The from addresses of GetEmailAddresses (v2.1 only), default first. */
export async function getFromAddresses(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	await assertV21.call(this, 'From Address → Get Many');
	const addresses = await crmRequestList(
		this,
		'/settings/emails/actions/from_addresses',
		'from_addresses',
	);
	return [...addresses]
		.sort((a, b) => Number(b.default === true) - Number(a.default === true))
		.map((a) => ({
			name: `${String(a.user_name ?? a.email)} <${String(a.email)}>`,
			value: String(a.email),
			description: `${String(a.type ?? '')}${a.default === true ? ' (default)' : ''}`,
		}));
}

export const methods = { loadOptions: { ...sharedLoadOptions, getFromAddresses }, listSearch };
