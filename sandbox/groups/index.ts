/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console */
// Every operation group of the sandbox, registered on the one router.
import type { Router } from '../router.ts';
import type { Sandbox } from '../sandbox.ts';
import { registerAdmin } from './admin.ts';
import { registerModules } from './modules.ts';
import { registerOAuth } from './oauth.ts';
import { registerRecords } from './records.ts';

export function registerGroups(router: Router, sandbox: Sandbox): void {
	registerOAuth(router, sandbox);
	registerAdmin(router, sandbox);
	registerModules(router, sandbox);
	registerRecords(router, sandbox);
}
