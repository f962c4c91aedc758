import { operation } from '../../router.ts';
import { PHOTO_UPLOADED, uploadedImage } from '../../files.ts';
import { photoRecord, PHOTOS, RECORD_SCOPES } from './shared.ts';
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
		const image = uploadedImage(sandbox, ctx.files, 'the image format is invalid');
		const doc: PhotoDoc = {
			module: module.api_name,
			record_id: record.id,
			...image,
		};
		store.putDoc(PHOTOS, `${module.api_name}:${record.id}`, doc);
		return PHOTO_UPLOADED;
	},
);
