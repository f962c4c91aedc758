// jest `globalSetup`: a fresh folder where each test file leaves the totals of the requests its
// nodes sent (test/harness/requests.ts); the test workers inherit its name.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { REQUEST_LOG_DIR_ENV } from './requests';

export default function setup(): void {
	process.env[REQUEST_LOG_DIR_ENV] = mkdtempSync(path.join(os.tmpdir(), 'crm-requests-'));
}
