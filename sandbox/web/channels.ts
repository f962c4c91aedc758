// The notification channels (GetNotificationDetails, docs/protocol.md §5.14) and the recent
// deliveries the sandbox made to them, with every attempt: when, the receiver's answer, how long.
import type { DeliveryEntry } from '../deliveries.ts';
import type { Json } from '../store.ts';
import { callApi } from './api.ts';
import { h, layout } from './html.ts';
import type { PageCtx, PageReply } from './index.ts';

const SHOWN_DELIVERIES = 50;

export async function channelsPage(ctx: PageCtx): Promise<PageReply> {
	const { sandbox } = ctx;
	const watch = await callApi(sandbox, 'GET', '/actions/watch');
	const channels: Json[] = watch.status === 200 ? watch.body.watch : [];
	const log = await callApi(sandbox, 'GET', '/deliveries', undefined, 'admin');
	const deliveries = (log.body.deliveries as DeliveryEntry[]).slice(-SHOWN_DELIVERIES).reverse();
	return {
		html: layout(
			ctx.frame('Notification channels', ':channels'),
			h`<h1>Notification channels</h1>
${channels.length === 0 ? h`<p class="muted">No live channel. Publishing a workflow with the CRM Trigger subscribes one.</p>` : ''}
<table><thead><tr><th>Channel</th><th>Events</th><th>Notify URL</th><th>Expires</th></tr></thead><tbody>
${channels.map((c) => h`<tr><td>${String(c.channel_id)}</td><td>${(c.events as string[]).join(', ')}</td><td><code>${String(c.notify_url)}</code></td><td>${String(c.channel_expiry)}</td></tr>`)}
</tbody></table>
<h2>Recent deliveries</h2><p class="muted">Newest first, the latest ${SHOWN_DELIVERIES}. Retry policy: <a href="/ui/settings">settings</a>.</p>
<table class="deliveries"><thead><tr><th>#</th><th>Queued</th><th>Channel</th><th>Module</th><th>Operation</th><th>Records</th><th>Outcome</th><th>Attempts (answer, time)</th></tr></thead><tbody>
${deliveries.map(
	(d) =>
		h`<tr><td>${d.delivery_id}</td><td>${d.queued_at}</td><td>${d.channel_id}</td><td>${d.module}</td><td>${d.operation}</td><td>${d.ids.join(', ')}</td><td><strong>${d.outcome}</strong></td><td>${
			d.attempts.length
				? h`<ol>${d.attempts.map((a) => h`<li>${a.at}: ${a.status !== undefined ? `HTTP ${a.status}` : (a.error ?? 'no answer')}${a.lost ? ' (answer lost)' : ''}${a.copy ? ' (copy)' : ''}, ${a.duration_ms} ms${a.response ? h` <code>${a.response.slice(0, 80)}</code>` : ''}</li>`)}</ol>`
				: h`<span class="muted">none yet</span>`
		}</td></tr>`,
)}
</tbody></table>${deliveries.length === 0 ? h`<p class="muted">No delivery yet.</p>` : ''}`,
		),
	};
}
