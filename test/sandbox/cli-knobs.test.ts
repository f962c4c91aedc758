// The sandbox as `npm run sandbox` starts it (sandbox/cli.mts, a process of its own): SANDBOX_KNOBS
// sets the knobs of docs/protocol.md §6 for a run, and a wrong knob stops the start with its name.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

import { api, grantToken } from '../harness/sandbox.ts';
import { waitFor } from '../harness/wait.ts';

const CLI = path.resolve(__dirname, '../../sandbox/cli.mts');

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/** Starts the CLI with `knobs` as SANDBOX_KNOBS; answers its output so far, its exit and a stop. */
async function startCli(knobs: string) {
	const port = await freePort();
	const child = spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', CLI], {
		env: {
			...process.env,
			SANDBOX_PORT: String(port),
			SANDBOX_DB: ':memory:',
			SANDBOX_SEPARATE_UPLOAD_HOST: 'false',
			SANDBOX_KNOBS: knobs,
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const out = { stdout: '', stderr: '', code: undefined as number | null | undefined };
	child.stdout.on('data', (chunk) => (out.stdout += String(chunk)));
	child.stderr.on('data', (chunk) => (out.stderr += String(chunk)));
	child.on('exit', (code) => (out.code = code));
	return { url: `http://127.0.0.1:${port}`, out, stop: () => child.kill() };
}

describe('sandbox CLI: SANDBOX_KNOBS', () => {
	test('a knob given at start holds over HTTP: territories switched off answer FEATURE_NOT_SUPPORTED', async () => {
		const cli = await startCli('{"territoriesEnabled": false, "mailDailyLimit": 3}');
		try {
			// the banner ends with the data line (stdout may come in several chunks)
			await waitFor(() => cli.out.stdout.includes('Data: :memory:'), { timeout: 30_000 });
			expect(cli.out.stdout).toContain('CRM sandbox listening');
			expect(cli.out.stdout).toContain('Knobs: {"territoriesEnabled":false,"mailDailyLimit":3}');
			const { access_token } = await grantToken(cli.url, {
				scope: 'CRM.settings.territories.ALL,CRM.modules.ALL',
			});
			const answer = await api(`${cli.url}/crm/v2.1/settings/territories`, access_token);
			expect(answer.status).toBe(403);
			expect(answer.body).toMatchObject({ code: 'FEATURE_NOT_SUPPORTED' });
		} finally {
			cli.stop();
		}
	});

	test.each([
		['{"mailLimit": 3}', 'SANDBOX_KNOBS: unknown knob "mailLimit" (knobs: territoriesEnabled,'],
		['{"mailDailyLimit": "3"}', 'SANDBOX_KNOBS: "mailDailyLimit" takes a number, got "3"'],
		['[1]', 'SANDBOX_KNOBS must be a JSON object'],
		['{mailDailyLimit: 3}', 'SANDBOX_KNOBS is not valid JSON'],
	])('%s stops the start with exit code 2, naming the mistake', async (knobs, message) => {
		const cli = await startCli(knobs);
		await waitFor(() => cli.out.code !== undefined, { timeout: 30_000 });
		expect(cli.out.code).toBe(2);
		expect(cli.out.stderr).toContain(message);
		expect(cli.out.stdout).not.toContain('listening');
	});
});
