import { contentDisposition } from '../../http.ts';
import { operation } from '../../router.ts';
import { photoRecord, PHOTOS, RECORD_SCOPES } from './shared.ts';
import type { PhotoDoc } from './shared.ts';

/** GetPhoto: GET /crm/{v}/{module}/{id}/photo (docs/protocol.md §5.1). */
export const getPhoto = operation('GET', '/:module/:id/photo', { scopes: RECORD_SCOPES }, (ctx) => {
	const { store } = ctx.sandbox;
	const { module, record } = photoRecord(ctx);
	const photo = store.doc<PhotoDoc>(PHOTOS, `${module.api_name}:${record.id}`);
	if (!photo) return { status: 204 };
	return {
		raw: Buffer.from(photo.data, 'base64'),
		headers: {
			'Content-Type': photo.content_type,
			'Content-Disposition': contentDisposition(photo.file_name),
		},
	};
});
