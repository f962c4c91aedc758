// Records (docs/protocol.md §5.1): GetRecords, GetRecord(+UsingExternalID), CreateRecords,
// UpdateRecords, UpdateRecord(+UsingExternalID), UpsertRecords, DeleteRecords,
// DeleteRecord(+UsingExternalID), SearchRecords, GetDeletedRecords, RecordCount, GetPhoto,
// UploadPhoto, DeletePhoto, MassUpdate, GetMassUpdateStatus, ConvertLead and the four territory
// assignment operations, one file each. Test hooks: POST /__sandbox/mass_update/advance,
// POST /__sandbox/records/purge, GET /__sandbox/records/writes,
// GET /__sandbox/records/convert_notifications.
import type { Router } from '../../router.ts';
import { assignTerritoriesToMultipleRecords } from './assign-territories-to-multiple-records.ts';
import { assignTerritoryToRecord } from './assign-territory-to-record.ts';
import { convertLead } from './convert-lead.ts';
import { createRecords } from './create-records.ts';
import { deletePhoto } from './delete-photo.ts';
import { deleteRecord } from './delete-record.ts';
import { deleteRecords } from './delete-records.ts';
import { getDeletedRecords } from './get-deleted-records.ts';
import { getMassUpdateStatus } from './get-mass-update-status.ts';
import { getPhoto } from './get-photo.ts';
import { getRecord } from './get-record.ts';
import { getRecords } from './get-records.ts';
import { massUpdate } from './mass-update.ts';
import { recordCount } from './record-count.ts';
import { removeTerritoriesFromMultipleRecords } from './remove-territories-from-multiple-records.ts';
import { removeTerritoriesFromRecord } from './remove-territories-from-record.ts';
import { searchRecords } from './search-records.ts';
import {
	advanceMassUpdates,
	convertNotifications,
	purgeRecords,
	recordWrites,
} from './test-hooks.ts';
import { updateRecord } from './update-record.ts';
import { updateRecords } from './update-records.ts';
import { uploadPhoto } from './upload-photo.ts';
import { upsertRecords } from './upsert-records.ts';

export { RECORD_SCOPES } from './shared.ts';

export function registerRecords(router: Router): void {
	// registration order breaks ties between routes of the same specificity (router.ts)
	router.register([
		getRecords,
		getRecord,
		createRecords,
		upsertRecords,
		updateRecords,
		updateRecord,
		deleteRecords,
		deleteRecord,
		searchRecords,
		recordCount,
		getDeletedRecords,
		getPhoto,
		uploadPhoto,
		deletePhoto,
		massUpdate,
		getMassUpdateStatus,
		convertLead,
		assignTerritoriesToMultipleRecords,
		assignTerritoryToRecord,
		removeTerritoriesFromMultipleRecords,
		removeTerritoriesFromRecord,
		advanceMassUpdates,
		purgeRecords,
		recordWrites,
		convertNotifications,
	]);
}
