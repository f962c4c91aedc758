import { HttpError } from '../../errors.ts';
import { operation } from '../../router.ts';
import { IMAGE_TYPES, photoRecord, PHOTOS, RECORD_SCOPES } from './shared.ts';
import type { PhotoDoc } from './shared.ts';

/** UploadPhoto: POST /crm/{v}/{module}/{id}/photo (docs/protocol.md §5.1). */
export const uploadPhoto = operation(
	'POST',
	'/:module/:id/photo',
	{ scopes: RECORD_SCOPES },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const { module, record } = photoRecord(ctx);
		const file = ctx.files.find((f) => f.field === 'file');
		if (!file) throw HttpError.invalidData({}, 'the request does not contain any file');
		if (file.data.length > sandbox.config.maxFileBytes) {
			throw new HttpError(
				'FILE_SIZE_MORE_THAN_ALLOWED_SIZE',
				{ limit: sandbox.config.maxFileBytes },
				'file size is more than the allowed size',
			);
		}
		if (!IMAGE_TYPES.has(file.contentType.toLowerCase()))
			throw HttpError.invalidData({}, 'the image format is invalid');
		const doc: PhotoDoc = {
			module: module.api_name,
			record_id: record.id,
			file_name: file.filename,
			content_type: file.contentType,
			size: file.data.length,
			data: file.data.toString('base64'),
			uploaded_time: sandbox.formatTime(),
		};
		store.putDoc(PHOTOS, `${module.api_name}:${record.id}`, doc);
		return {
			body: {
				code: 'SUCCESS',
				details: {},
				message: 'photo uploaded successfully',
				status: 'success',
			},
		};
	},
);
