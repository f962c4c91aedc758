// First-start seeding: organisation, users, module metadata (always), demo records (option).
// Groups that own more settings data seed it themselves (groups/shared.ts `seedOnce`).
import type { StoredModule } from '../metadata.ts';
import { createRecord } from '../records.ts';
import type { Sandbox } from '../types.ts';
import type { Json } from '../store.ts';
import { MODULES } from '../catalogue/modules.ts';
import { DEMO_ORG, DEMO_USERS } from '../catalogue/org.ts';
import { demoRecords } from './demo.ts';

const MODULE_ID_BASE = 2175;

export function seedSettings(sandbox: Sandbox): void {
	const { store } = sandbox;
	const time = sandbox.formatTime();
	const admin = DEMO_USERS[0];
	store.putDoc('org', DEMO_ORG.id, DEMO_ORG);
	for (const user of DEMO_USERS) {
		store.putDoc('users', user.id, { ...user, created_time: time, Modified_Time: time });
	}
	MODULES.forEach((def, index) => {
		const module: StoredModule = {
			...def,
			id: `4876876000000${String(MODULE_ID_BASE + index * 4).padStart(6, '0')}`,
			modified_time: time,
			modified_by: { id: admin.id, name: admin.full_name },
			sequence_number: index + 1,
		};
		store.putDoc('modules', def.api_name, module);
	});
}

/** Resolves `{ $ref: "Module:index" }` lookups to the ids the store assigned. */
function resolveRefs(value: unknown, ids: Map<string, string>): unknown {
	if (Array.isArray(value)) return value.map((v) => resolveRefs(v, ids));
	if (value && typeof value === 'object') {
		const obj = value as Json;
		if (typeof obj.$ref === 'string') return { id: ids.get(obj.$ref) };
		return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, resolveRefs(v, ids)]));
	}
	return value;
}

export function seedDemoRecords(sandbox: Sandbox): void {
	const ids = new Map<string, string>();
	const counters = new Map<string, number>();
	const admin = DEMO_USERS[0];
	for (const { module: name, data } of demoRecords()) {
		const module = sandbox.module(name);
		if (!module) throw new Error(`demo data names unknown module ${name}`);
		const index = counters.get(name) ?? 0;
		counters.set(name, index + 1);
		const result = createRecord(sandbox, module, resolveRefs(data, ids), {
			v: 'v2.1',
			index: 0,
			user: { id: admin.id, name: admin.full_name, email: admin.email },
		});
		if (!result.ok)
			throw new Error(`demo record ${name}:${index} rejected: ${JSON.stringify(result.body)}`);
		ids.set(`${name}:${index}`, result.record.id);
	}
}
