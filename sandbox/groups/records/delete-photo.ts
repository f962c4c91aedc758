import { HttpError } from '../../errors.ts';
import { operation } from '../../router.ts';
import { photoRecord, PHOTOS, RECORD_SCOPES } from './shared.ts';

/** DeletePhoto: DELETE /crm/{v}/{module}/{id}/photo (docs/protocol.md §5.1). */
export const deletePhoto = operation(
	'DELETE',
	'/:module/:id/photo',
	{ scopes: RECORD_SCOPES },
	(ctx) => {
		const { store } = ctx.sandbox;
		const { module, record } = photoRecord(ctx);
		if (!store.deleteDoc(PHOTOS, `${module.api_name}:${record.id}`)) {
			throw HttpError.invalidData({ id: record.id }, 'no photo exists for the record');
		}
		return { body: { code: 'SUCCESS', details: {}, message: 'Photo deleted', status: 'success' } };
	},
);
