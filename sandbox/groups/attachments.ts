// Attachments (docs/protocol.md §5.4): GetAttachments, UploadAttachment (multipart part `file`),
// UploadLinkAttachment (`attachmentUrl`), DeleteAttachments, DownloadAttachment, DeleteAttachment,
// GetFieldAttachments (v2.1 only). Bytes live in the file blob table (files.ts); the attachment itself
// is a document of the `attachments` collection naming its parent. Deleting a record deletes its
// attachments and their bytes.
import { HttpError, errorItem } from '../errors.ts';
import type { ErrorBody } from '../errors.ts';
import { deleteFile, filePart, getFile, putFile } from '../files.ts';
import { contentDisposition, safeFileName } from '../http.ts';
import { pickFields, recordName } from '../records.ts';
import type { Ctx, Reply, Router } from '../router.ts';
import { operation } from '../router.ts';
import type { Sandbox } from '../types.ts';
import type { ModuleDef } from '../catalogue/modules.ts';
import type { Json, StoredRecord, UserRef } from '../store.ts';
import { childPage, idsParam, paging, paramKey } from '../wire.ts';
import { eachItem, resultsReply, successItem } from './shared.ts';

/** Attachments share the record scopes (§2.3). */
const ATTACHMENT_SCOPES = [['CRM.modules.{mod}.{ACCESS}']];

const ATTACHMENTS = 'attachments';
const FIELD_ATTACHMENTS = 'field_attachments';
/** `ids` of DeleteAttachments (**assumed** bound, as for records). */
const ATTACHMENT_DELETE_IDS_MAX = 100;

interface AttachmentDoc extends Json {
	id: string;
	Parent_Id: { id: string; name: string };
	$se_module: string;
	File_Name: string;
	Size: number;
	$file_id: string | null;
	$link_url?: string;
	$type: string;
	$attachment_type: number;
	$editable: boolean;
	$sharing_permission: string;
	$state: string;
	Owner: UserRef;
	Created_By: UserRef;
	Modified_By: UserRef;
	Created_Time: string;
	Modified_Time: string;
}

/** A file of a file-upload field of a record (GetFieldAttachments). */
export interface FieldAttachmentDoc {
	id: string;
	module: string;
	record_id: string;
	field: string;
	file_id: string;
	File_Name: string;
}

function parentOf(
	ctx: Ctx,
	required: boolean,
): { module: ModuleDef; record: StoredRecord | undefined } {
	const module = ctx.module!;
	if (!module.related_lists.some((l) => l.module === 'Attachments')) {
		throw HttpError.invalidData(
			{ [paramKey(ctx)]: 'related_list' },
			'the module does not support attachments',
		);
	}
	const record = ctx.sandbox.store.getRecord(module.api_name, ctx.params.recordId);
	if (!record && required)
		throw HttpError.invalidData({ id: ctx.params.recordId }, 'the id given seems to be invalid');
	return { module, record };
}

export function attachmentsOf(sandbox: Sandbox, module: string, recordId: string): AttachmentDoc[] {
	return sandbox.store
		.docs<AttachmentDoc>(ATTACHMENTS)
		.filter((a) => a.$se_module === module && a.Parent_Id.id === recordId);
}

function findAttachment(
	ctx: Ctx,
	module: ModuleDef,
	recordId: string,
	id: string,
): AttachmentDoc | undefined {
	const doc = ctx.sandbox.store.doc<AttachmentDoc>(ATTACHMENTS, id);
	return doc && doc.$se_module === module.api_name && doc.Parent_Id.id === recordId
		? doc
		: undefined;
}

function removeAttachment(sandbox: Sandbox, doc: AttachmentDoc): void {
	if (doc.$file_id) deleteFile(sandbox, doc.$file_id);
	sandbox.store.deleteDoc(ATTACHMENTS, doc.id);
}

function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

function download(name: string, contentType: string, data: Buffer): Reply {
	return {
		raw: data,
		headers: { 'Content-Type': contentType, 'Content-Disposition': contentDisposition(name) },
	};
}

const opts = { scopes: ATTACHMENT_SCOPES };

function deleteOne(ctx: Ctx, module: ModuleDef, recordId: string, id: string): Json | ErrorBody {
	const doc = findAttachment(ctx, module, recordId, id);
	if (!doc) return errorItem('INVALID_DATA', { id }, 'the id given seems to be invalid');
	removeAttachment(ctx.sandbox, doc);
	return successItem(id, 'record deleted');
}

// GetAttachments
const getAttachments = operation('GET', '/:module/:recordId/Attachments', opts, (ctx) => {
	const { sandbox } = ctx;
	const { module, record } = parentOf(ctx, false);
	const p = paging(ctx);
	const fields = ctx.list('fields');
	if (!record) return { status: 204 };
	const all = attachmentsOf(sandbox, module.api_name, record.id);
	if (fields.length > 0 && all.length > 0) {
		const unknown = fields.find((f) => !(f in all[0]) && f !== '$link_url');
		if (unknown)
			throw HttpError.invalidData(
				{ api_name: unknown, [paramKey(ctx)]: 'fields' },
				'invalid field name',
			);
	}
	return childPage(ctx, p, 'data', all, {
		map: (a) => pickFields(a, fields.length ? fields : undefined),
	});
});

// UploadAttachment (part `file`) / UploadLinkAttachment (`attachmentUrl`)
const uploadAttachment = operation('POST', '/:module/:recordId/Attachments', opts, (ctx) => {
	const { sandbox } = ctx;
	const { store } = sandbox;
	const { module, record } = parentOf(ctx, true);
	const parent = record!;
	const linkUrl = ctx.q('attachmentUrl') ?? ctx.formFields.attachmentUrl?.trim();
	const hasFile = ctx.files.some((f) => f.field === 'file');
	if (!hasFile && linkUrl === undefined)
		throw HttpError.invalidData({}, 'the request does not contain any file');
	if (!hasFile && !isHttpUrl(linkUrl!)) {
		throw HttpError.invalidData(
			{ [paramKey(ctx)]: 'attachmentUrl', expected_type: 'url' },
			'the attachment URL is invalid',
		);
	}
	const user = sandbox.user(ctx);
	const time = sandbox.formatTime();
	const base = {
		id: store.nextId(),
		Parent_Id: { id: parent.id, name: recordName(module, parent) },
		$se_module: module.api_name,
		$editable: true,
		$sharing_permission: 'full_access',
		$state: 'save',
		Owner: user,
		Created_By: user,
		Modified_By: user,
		Created_Time: time,
		Modified_Time: time,
	};
	let doc: AttachmentDoc;
	if (hasFile) {
		const part = filePart(ctx.files);
		const file = putFile(sandbox, {
			name: part.filename,
			contentType: part.contentType,
			data: part.data,
		});
		doc = {
			...base,
			File_Name: file.name,
			Size: file.size,
			$file_id: file.id,
			$type: 'Attachment',
			$attachment_type: 1,
		};
	} else {
		const name = safeFileName(
			linkUrl!.split(/[?#]/)[0].split('/').filter(Boolean).pop() ?? linkUrl!,
		);
		doc = {
			...base,
			File_Name: name,
			Size: 0,
			$file_id: null,
			$link_url: linkUrl!,
			$type: 'Link URL',
			$attachment_type: 3,
		};
	}
	store.putDoc(ATTACHMENTS, doc.id, doc);
	return {
		status: 201,
		body: {
			data: [
				{
					code: 'SUCCESS',
					details: {
						Modified_Time: time,
						Modified_By: { id: user.id, name: user.name },
						Created_Time: time,
						id: doc.id,
						Created_By: { id: user.id, name: user.name },
					},
					message: 'attachment uploaded successfully',
					status: 'success',
				},
			],
		},
	};
});

// DeleteAttachments
const deleteAttachments = operation('DELETE', '/:module/:recordId/Attachments', opts, (ctx) => {
	const { module } = parentOf(ctx, false);
	const ids = idsParam(ctx, 'ids', ATTACHMENT_DELETE_IDS_MAX, true)!;
	return resultsReply(
		'data',
		200,
		eachItem(ctx, ids, (id) => deleteOne(ctx, module, ctx.params.recordId, id)),
	);
});

// DownloadAttachment
const downloadAttachment = operation('GET', '/:module/:recordId/Attachments/:id', opts, (ctx) => {
	const { sandbox } = ctx;
	const { module } = parentOf(ctx, false);
	const doc = findAttachment(ctx, module, ctx.params.recordId, ctx.params.id);
	if (!doc) throw HttpError.invalidData({ id: ctx.params.id }, 'the id given seems to be invalid');
	if (!doc.$file_id)
		throw HttpError.invalidData({ id: doc.id }, 'a link attachment has no file to download');
	const file = getFile(sandbox, doc.$file_id);
	if (!file) throw HttpError.invalidData({ id: doc.id }, 'the id given seems to be invalid');
	return download(doc.File_Name, file.contentType, file.data);
});

// DeleteAttachment
const deleteAttachment = operation('DELETE', '/:module/:recordId/Attachments/:id', opts, (ctx) => {
	const { store } = ctx.sandbox;
	const { module } = parentOf(ctx, false);
	const result = store.transaction(() =>
		deleteOne(ctx, module, ctx.params.recordId, ctx.params.id),
	);
	return resultsReply('data', 200, [result]);
});

// GetFieldAttachments (v2.1 only)
const getFieldAttachments = operation(
	'GET',
	'/:module/:recordId/actions/download_fields_attachment',
	{ ...opts, v21Only: true },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const module = ctx.module!;
		const id = ctx.q('fields_attachment_id');
		if (id === undefined) throw HttpError.requiredParam('fields_attachment_id', ctx.v);
		const doc = store.doc<FieldAttachmentDoc>(FIELD_ATTACHMENTS, id);
		if (!doc || doc.module !== module.api_name || doc.record_id !== ctx.params.recordId) {
			throw HttpError.invalidData(
				{ [paramKey(ctx)]: 'fields_attachment_id', id },
				'the id given seems to be invalid',
			);
		}
		const file = getFile(sandbox, doc.file_id);
		if (!file) throw HttpError.invalidData({ id }, 'the id given seems to be invalid');
		return download(doc.File_Name, file.contentType, file.data);
	},
);

// test hook (not part of the service): puts a file into a file-upload field of a record;
// multipart part `file`, query `module`, `record_id`, `field`. Answers the fields_attachment_id.
const putFieldAttachment = operation(
	'POST',
	'/field_attachments',
	{ root: 'admin', public: true },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const module = sandbox.module(ctx.q('module') ?? '');
		const record = module ? store.getRecord(module.api_name, ctx.q('record_id') ?? '') : undefined;
		if (!module || !record)
			throw HttpError.invalidData({}, 'module and record_id must name an existing record');
		const part = filePart(ctx.files);
		const file = putFile(sandbox, {
			name: part.filename,
			contentType: part.contentType,
			data: part.data,
		});
		const doc: FieldAttachmentDoc = {
			id: store.nextId(),
			module: module.api_name,
			record_id: record.id,
			field: ctx.q('field') ?? 'File_Upload',
			file_id: file.id,
			File_Name: file.name,
		};
		store.putDoc(FIELD_ATTACHMENTS, doc.id, doc);
		return {
			status: 201,
			body: { id: doc.id, file_id: file.id, File_Name: file.name, Size: file.size },
		};
	},
);

export function registerAttachments(router: Router, sandbox: Sandbox): void {
	const { store } = sandbox;

	// cascade: deleting a record deletes its attachments (and field files) with their bytes
	store.onChange((event) => {
		if (event.operation !== 'delete') return;
		const gone = new Set(event.changes.map((c) => c.id));
		const attachments = store
			.docs<AttachmentDoc>(ATTACHMENTS)
			.filter((a) => a.$se_module === event.module && gone.has(a.Parent_Id.id));
		const fieldFiles = store
			.docs<FieldAttachmentDoc>(FIELD_ATTACHMENTS)
			.filter((f) => f.module === event.module && gone.has(f.record_id));
		if (attachments.length === 0 && fieldFiles.length === 0) return;
		store.transaction(() => {
			for (const doc of attachments) removeAttachment(sandbox, doc);
			for (const doc of fieldFiles) {
				deleteFile(sandbox, doc.file_id);
				store.deleteDoc(FIELD_ATTACHMENTS, doc.id);
			}
		});
	});
	router.register([
		getAttachments,
		uploadAttachment,
		deleteAttachments,
		downloadAttachment,
		deleteAttachment,
		getFieldAttachments,
		putFieldAttachment,
	]);
}
