// Test hooks of the notification group under /__sandbox: the delivery log.
import { deliveriesOf } from '../../deliveries.ts';
import { operation } from '../../router.ts';

const admin = { root: 'admin' as const, public: true };

/** deliveries and their attempts, oldest first: `?channel_id=…&outcome=delivered|failed|pending` */
export const getDeliveries = operation('GET', '/deliveries', admin, (ctx) => {
	const channelId = ctx.q('channel_id');
	const outcome = ctx.q('outcome');
	const log = deliveriesOf(ctx.sandbox)?.log ?? [];
	const deliveries = log.filter(
		(d) => (!channelId || d.channel_id === channelId) && (!outcome || d.outcome === outcome),
	);
	return { body: { deliveries } };
});

export const clearDeliveries = operation('DELETE', '/deliveries', admin, (ctx) => ({
	body: { cleared: (deliveriesOf(ctx.sandbox)?.log ?? []).splice(0).length },
}));
