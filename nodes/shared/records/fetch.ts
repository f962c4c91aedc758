import type { IDataObject } from 'n8n-workflow';

import { crmRequest } from '../transport';
import type { CrmContext } from '../transport';

/** GetRecords accepts at most 100 ids per request (docs/protocol.md §6). */
const IDS_PER_REQUEST = 100;

/**
 * GetRecords for the given ids of one module, 100 per request (`fields` narrows the answer).
 * Records gone before the fetch are simply absent from the map.
 */
export async function fetchRecords(
	this: CrmContext,
	module: string,
	ids: string[],
	fields?: string,
): Promise<Map<string, IDataObject>> {
	const records = new Map<string, IDataObject>();
	const unique = [...new Set(ids)];
	for (let start = 0; start < unique.length; start += IDS_PER_REQUEST) {
		const body = await crmRequest(this, {
			method: 'GET',
			path: `/${encodeURIComponent(module)}`,
			// converted leads are hidden from GetRecords unless asked for (§3.2)
			qs: {
				ids: unique.slice(start, start + IDS_PER_REQUEST).join(','),
				...(fields ? { fields } : {}),
				...(module === 'Leads' ? { converted: 'both' } : {}),
			},
		});
		for (const record of (body.data as IDataObject[] | undefined) ?? [])
			records.set(String(record.id), record);
	}
	return records;
}
