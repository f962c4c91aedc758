// Notifications (docs/protocol.md §5.14, §9): EnableNotifications, GetNotificationDetails,
// UpdateNotifications (PUT replaces), UpdateNotification (PATCH merges), DisableNotification
// (PATCH with `_delete_events: true`), DisableNotifications (DELETE ?channel_ids=), one file each
// (the two PATCH operations share one). Deliveries are made by ../../deliveries.ts from the store's
// change events. Test hooks: GET/DELETE /__sandbox/deliveries.
import { startDeliveries } from '../../deliveries.ts';
import type { Router } from '../../router.ts';
import type { Sandbox } from '../../types.ts';
import { disableNotifications } from './disable-notifications.ts';
import { enableNotifications } from './enable-notifications.ts';
import { getNotificationDetails } from './get-notification-details.ts';
import { clearDeliveries, getDeliveries } from './test-hooks.ts';
import { updateNotification } from './update-notification.ts';
import { updateNotifications } from './update-notifications.ts';

export function registerNotifications(router: Router, sandbox: Sandbox): void {
	startDeliveries(sandbox);
	router.register([
		enableNotifications,
		getNotificationDetails,
		updateNotifications,
		updateNotification,
		disableNotifications,
		getDeliveries,
		clearDeliveries,
	]);
}
