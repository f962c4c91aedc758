// The "From List" modes of the module and record pickers (shared/description/properties.ts). n8n calls them
// when the dropdown opens or its search text changes, never while the panel renders.
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { pickedValue } from '../description/properties';
import { crmRequest, crmRequestList } from '../transport';
import { byName, moduleLabel, recordModules } from './loadOptions';

/** Records per page of the list (docs/protocol.md §3.6: at most 200). */
const PAGE_SIZE = 50;

/** The pagination token of the page after `page`, when the answer says there are more records (§3.6). */
const nextPage = (body: IDataObject, page: number): string | undefined =>
	(body.info as IDataObject | undefined)?.more_records === true ? String(page + 1) : undefined;

const matches = (filter: string | undefined, ...texts: string[]) =>
	!filter || texts.some((t) => t.toLowerCase().includes(filter.trim().toLowerCase()));

/** Modules that hold records, by their plural label (GetModules); the search text matches label or API name. */
export async function searchModules(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const results: INodeListSearchItems[] = (await recordModules(this))
		.map((m) => ({
			name: moduleLabel(m),
			value: String(m.api_name),
		}))
		.filter((m) => matches(filter, m.name, m.value))
		.sort(byName);
	return { results };
}

/**
 * Records of `module` named by the module's display field (GetRecords, or SearchRecords by word when
 * a search text is typed), a page at a time; the pagination token is the next page number.
 */
async function recordsOf(
	ctx: ILoadOptionsFunctions,
	module: string,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	if (!module) return { results: [] };
	const meta = (await recordModules(ctx)).find(
		(m) => String(m.api_name).toLowerCase() === module.toLowerCase(),
	);
	const displayField = String(meta?.display_field ?? 'id');
	const page = Number(paginationToken ?? 1);
	const word = filter?.trim();
	const body = await crmRequest(ctx, {
		method: 'GET',
		path: `/${encodeURIComponent(module)}${word ? '/search' : ''}`,
		qs: {
			fields: displayField === 'id' ? 'id' : `id,${displayField}`,
			page,
			per_page: PAGE_SIZE,
			...(word ? { word } : {}),
		},
	});
	const records = (body.data as IDataObject[] | undefined) ?? [];
	const nameOf = (r: IDataObject) => {
		const value = r[displayField];
		const text = value && typeof value === 'object' ? (value as IDataObject).name : value;
		return text === undefined || text === null || text === '' ? String(r.id) : String(text);
	};
	return {
		results: records.map((r) => ({ name: nameOf(r), value: String(r.id) })),
		paginationToken: nextPage(body, page),
	};
}

/** Records of the chosen module. */
export async function searchRecords(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await recordsOf(this, pickedValue(this, 'module'), filter, paginationToken);
}

/** The From List method of a picker whose module is fixed: Leads (Convert Lead), Deals and Contacts (contact roles). */
const recordsIn = (module: string) =>
	async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		return await recordsOf(this, module, filter, paginationToken);
	};

export const searchLeads = recordsIn('Leads');
export const searchDeals = recordsIn('Deals');
export const searchContacts = recordsIn('Contacts');

/**
 * Notes by title and the record they belong to (GetNotes, newest first), a page at a time. Notes have
 * no search of their own: the search text matches the title, content or record of the page read.
 */
export async function searchNotes(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1);
	const body = await crmRequest(this, {
		method: 'GET',
		path: '/Notes',
		qs: {
			fields: 'Note_Title,Note_Content,Parent_Id',
			page,
			per_page: PAGE_SIZE,
			sort_by: 'Modified_Time',
			sort_order: 'desc',
		},
	});
	const notes = (body.data as IDataObject[] | undefined) ?? [];
	const text = (v: unknown) =>
		String((v && typeof v === 'object' ? (v as IDataObject).name : v) ?? '').trim();
	const results = notes
		.map((n) => {
			const title = text(n.Note_Title) || text(n.Note_Content).slice(0, 60) || String(n.id);
			const parent = text(n.Parent_Id);
			return {
				name: parent ? `${title} (${parent})` : title,
				value: String(n.id),
				content: text(n.Note_Content),
			};
		})
		.filter((n) => matches(filter, n.name, n.content))
		.map(({ name, value }) => ({ name, value }));
	return { results, paginationToken: nextPage(body, page) };
}

/** Attachments of the chosen record, by file name (GetAttachments), a page at a time. */
export async function searchAttachments(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const module = pickedValue(this, 'module');
	const recordId = pickedValue(this, 'recordId');
	if (!module || !/^[0-9]+$/.test(recordId)) return { results: [] };
	const page = Number(paginationToken ?? 1);
	const body = await crmRequest(this, {
		method: 'GET',
		path: `/${encodeURIComponent(module)}/${recordId}/Attachments`,
		qs: { fields: 'id,File_Name', page, per_page: PAGE_SIZE },
	});
	const results = ((body.data as IDataObject[] | undefined) ?? [])
		.map((a) => ({ name: String(a.File_Name ?? a.id), value: String(a.id) }))
		.filter((a) => matches(filter, a.name));
	return { results, paginationToken: nextPage(body, page) };
}

/** Records of the module the chosen related list holds (GetRelatedLists: its `module`). */
export async function searchRelatedRecords(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const module = pickedValue(this, 'module');
	const relatedList = String(this.getCurrentNodeParameter('relatedList') ?? '');
	if (!module || !relatedList) return { results: [] };
	const lists = await crmRequestList(this, '/settings/related_lists', 'related_lists', { module });
	const list = lists.find((l) => l.api_name === relatedList);
	return await recordsOf(this, String(list?.module ?? ''), filter, paginationToken);
}

export const listSearch = {
	searchModules,
	searchRecords,
	searchLeads,
	searchDeals,
	searchContacts,
	searchNotes,
	searchAttachments,
	searchRelatedRecords,
};
