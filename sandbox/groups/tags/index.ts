// Tags (docs/protocol.md §5.5): GetTags, CreateTags, UpdateTags, UpdateTag, DeleteTag, MergeTags,
// GetRecordCountForTag, AddTagsToRecord, RemoveTagsFromRecord, AddTagsToMultipleRecords,
// RemoveTagsFromMultipleRecords.
//
// Tags are documents of the `tags` collection, one module each; a record carries its tags in its
// `Tag` list as `{id, name, color_code}`, changed through the store so change events fire. Limits of
// §6: name ≤25 characters without special characters, `config.tagsPerRecord` per record and
// `config.tagsPerModule` per module (LIMIT_EXCEEDED).
// One file per operation; helpers in shared.ts.
import type { Router } from '../../router.ts';
import type { Sandbox } from '../../types.ts';
import { seedOnce } from '../shared.ts';
import { addTagsToMultipleRecords } from './add-tags-to-multiple-records.ts';
import { addTagsToRecord } from './add-tags-to-record.ts';
import { createTags } from './create-tags.ts';
import { deleteTag } from './delete-tag.ts';
import { getRecordCountForTag } from './get-record-count-for-tag.ts';
import { getTags } from './get-tags.ts';
import { mergeTags } from './merge-tags.ts';
import { removeTagsFromMultipleRecords } from './remove-tags-from-multiple-records.ts';
import { removeTagsFromRecord } from './remove-tags-from-record.ts';
import { seedTags } from './shared.ts';
import { updateTag } from './update-tag.ts';
import { updateTags } from './update-tags.ts';

export function registerTags(router: Router, sandbox: Sandbox): void {
	seedOnce(sandbox, 'tags', seedTags);
	router.register([
		getTags,
		createTags,
		updateTags,
		updateTag,
		deleteTag,
		mergeTags,
		getRecordCountForTag,
		addTagsToRecord,
		addTagsToMultipleRecords,
		removeTagsFromRecord,
		removeTagsFromMultipleRecords,
	]);
}
