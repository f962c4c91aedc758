// jest `setupFiles`: runs before any test module imports n8n-core, whose InstanceSettings
// writes <N8N_USER_FOLDER>/.n8n/config on first use. Keep it inside the package.
import { mkdirSync } from 'node:fs';
import path from 'node:path';

const userFolder = path.resolve(__dirname, '..', '..', '.n8n-test-home');
mkdirSync(userFolder, { recursive: true });
process.env.N8N_USER_FOLDER = userFolder;
process.env.N8N_ENCRYPTION_KEY ??= 'test-encryption-key';
process.env.N8N_LOG_LEVEL ??= 'silent';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
