// The last API calls the sandbox answered (its request log, GET /__sandbox/requests): method,
// path, status, and the route that took them.
import { h, layout } from './html.ts';
import type { PageCtx, PageReply } from './index.ts';

const SHOWN_CALLS = 100;

export function callsPage(ctx: PageCtx): PageReply {
	const { sandbox } = ctx;
	const calls = sandbox.requests.slice(-SHOWN_CALLS).reverse();
	return {
		html: layout(
			ctx.frame('Last API calls', ':calls'),
			h`<h1>Last API calls</h1><p class="muted">Newest first, the latest ${SHOWN_CALLS} of ${sandbox.requests.length} logged. The pages' own changes are not API calls and are not listed.</p>
<table class="calls"><thead><tr><th>Time</th><th>Method</th><th>Path</th><th>Status</th><th>Route</th></tr></thead><tbody>
${calls.map((c) => h`<tr><td>${sandbox.formatTime(c.at)}</td><td>${c.method}</td><td><code>${c.url}</code></td><td>${c.status === 0 ? 'no answer' : c.status}</td><td class="muted">${c.route ?? ''}</td></tr>`)}
</tbody></table>${calls.length === 0 ? h`<p class="muted">No API call yet.</p>` : ''}`,
		),
	};
}
