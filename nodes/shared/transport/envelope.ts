import type { IDataObject } from 'n8n-workflow';

/** Wrapper keys of list responses (interface spec, "Envelopes shared by all groups"). */
export const WRAPPER_KEYS = [
	'data',
	'users',
	'roles',
	'profiles',
	'modules',
	'fields',
	'layouts',
	'related_lists',
	'custom_views',
	'wizards',
	'pipeline',
	'territories',
	'contact_roles',
	'currencies',
	'variables',
	'variable_groups',
	'tags',
	'org',
	'watch',
	'email_templates',
	'inventory_templates',
	'from_addresses',
	'taxes',
	'share',
	'assignment_rules',
	'blueprint',
	'base_currency',
	'transfer_pipeline',
];

export interface Page {
	items: IDataObject[];
	more: boolean;
	/** the body was an envelope (wrapper key found) */
	wrapped: boolean;
}

/**
 * Splits a response body into its items: the first wrapper list found (bare objects stay one item),
 * plus `info.more_records`. An empty body (204) has no items.
 */
export function unwrapBody(body: unknown): Page {
	if (body === undefined || body === null || body === '') return { items: [], more: false, wrapped: true };
	if (Array.isArray(body)) return { items: body as IDataObject[], more: false, wrapped: true };
	if (typeof body !== 'object') return { items: [{ value: body } as IDataObject], more: false, wrapped: false };
	const obj = body as IDataObject;
	const info = obj.info as IDataObject | undefined;
	const more = info?.more_records === true;
	for (const key of WRAPPER_KEYS) {
		const value = obj[key];
		if (Array.isArray(value)) return { items: value as IDataObject[], more, wrapped: true };
		if (value && typeof value === 'object' && key === 'blueprint') return { items: [value as IDataObject], more, wrapped: true };
	}
	return { items: Object.keys(obj).length ? [obj] : [], more, wrapped: false };
}

/** Output shape of a write result item: the id first, then the envelope. */
export function writeResult(item: IDataObject): IDataObject {
	const details = (item.details ?? {}) as IDataObject;
	return { id: details.id, ...item };
}
