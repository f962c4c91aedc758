import { shareWriteOperation } from './shared';

/** ShareRecord — POST /crm/{v}/{module}/{recordId}/actions/share, body `share` [1..10] */
export const { operation, returns, description } = shareWriteOperation('POST', {
	name: 'Share',
	value: 'share',
	action: 'Share a record with users',
	description: 'Share a record with up to 10 users',
});
