/**
 * Polls of one node that overlap in one n8n instance: n8n 2.40.7's scheduler starts a poll of a node
 * while the previous one still runs when a poll takes longer than the interval; both start from the
 * same committed cursor, both hold the same lease and both commit, so the second emits the first's
 * changes again (docs/production.md "How the CRM Polling Trigger reads every change once", measured by `npm run test:scale`). n8n runs the
 * pollers of a workflow in one process (the leader main), so a guard in that process sees every poll
 * of the node. It holds no workflow state: it is empty after a restart, and a claim older than
 * STALE_MS (far beyond n8n's poll timeout) no longer blocks, so a poll that never settles cannot stop
 * the trigger.
 */
const STALE_MS = 10 * 60_000;

/** node key → epoch ms its running poll started */
const running = new Map<string, number>();

/** Claims the poll of `key`; false while another poll of it runs here. */
export function enterPoll(key: string, now: number): boolean {
	const since = running.get(key);
	if (since !== undefined && now - since < STALE_MS) return false;
	running.set(key, now);
	return true;
}

/** Ends the claim made at `since` (a stale claim taken over meanwhile stays with its new poll). */
export function leavePoll(key: string, since: number): void {
	if (running.get(key) === since) running.delete(key);
}
