// The sandbox as the e2e steps see it: its test hooks (/__sandbox) and a token of its own, to look
// at and to change records.
export class SandboxApi {
	private token = '';
	private readonly url: string;
	constructor(url: string) {
		this.url = url;
	}
	async call<T = Record<string, unknown>>(
		method: string,
		p: string,
		body?: unknown,
	): Promise<{ status: number; body: T }> {
		if (!this.token && !p.startsWith('/__sandbox')) {
			const minted = await this.call<{ access_token: string }>('POST', '/__sandbox/tokens', {
				scope: 'CRM.modules.ALL,CRM.notifications.ALL,CRM.settings.ALL',
			});
			this.token = minted.body.access_token;
		}
		const res = await fetch(new URL(p, this.url), {
			method,
			headers: {
				'Content-Type': 'application/json',
				...(this.token && !p.startsWith('/__sandbox')
					? { Authorization: `Bearer ${this.token}` }
					: {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
	}
	async allRecords(module: string): Promise<Array<Record<string, unknown>>> {
		const all: Array<Record<string, unknown>> = [];
		for (let page = 1; ; page++) {
			const res = await this.call<{
				data?: Array<Record<string, unknown>>;
				info?: { more_records?: boolean };
			}>('GET', `/crm/v2.1/${module}?per_page=200&page=${page}`);
			all.push(...(res.body.data ?? []));
			if (!res.body.info?.more_records) return all;
		}
	}
}
