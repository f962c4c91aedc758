// Related records (docs/protocol.md §5.2): GetRelatedRecords, UpdateRelatedRecords, DelinkRecords,
// GetRelatedRecord, UpdateRelatedRecord, DelinkRecord and their external-ID forms (X-EXTERNAL,
// §3.9), one file each.
//
// A related list defined by a lookup field (Accounts → Contacts via Contacts.Account_Name, Notes via
// Parent_Id) is a link stored on the related record: linking sets the lookup, delinking clears it,
// both through the record service. Other lists (Deals ↔ Products, Campaigns → Leads, Deals → Contacts
// "Contact Roles", …) are relation documents in the `relations` collection, symmetric (a Deal linked
// to a Product lists under the Product's Deals too) and carrying the relation fields sent with the
// link (e.g. `Contact_Role`). Deleting a record removes its relation documents.
// Helpers (also used by notes and contact roles) in shared.ts.
import type { Router } from '../../router.ts';
import type { Sandbox } from '../../types.ts';
import { delinkRecord } from './delink-record.ts';
import { delinkRecords } from './delink-records.ts';
import { getRelatedRecord } from './get-related-record.ts';
import { getRelatedRecords } from './get-related-records.ts';
import { RELATIONS, endKey } from './shared.ts';
import type { RelationDoc } from './shared.ts';
import { updateRelatedRecord } from './update-related-record.ts';
import { updateRelatedRecords } from './update-related-records.ts';

export function registerRelated(router: Router, sandbox: Sandbox): void {
	const { store } = sandbox;
	// cascade: a deleted record takes its relation documents with it
	store.onChange((event) => {
		if (event.operation !== 'delete') return;
		const gone = new Set(event.changes.map((c) => `${event.module}:${c.id}`));
		const stale = store
			.docs<RelationDoc>(RELATIONS)
			.filter((d) => gone.has(endKey(d.a)) || gone.has(endKey(d.b)));
		if (stale.length === 0) return;
		store.transaction(() => {
			for (const doc of stale) store.deleteDoc(RELATIONS, doc.id);
		});
	});
	router.register([
		getRelatedRecords,
		getRelatedRecord,
		updateRelatedRecords,
		updateRelatedRecord,
		delinkRecords,
		delinkRecord,
	]);
}
