// Territories (docs/protocol.md §5.6): GetTerritories, GetTerritory. A hierarchy under "Global"
// (`reporting_to`), with managers and account/deal assignment rules (JSON criteria, §3.12).
// The one list of the organisation's territories: record operations (records.ts `territories`)
// read this collection too. Knob `territoriesEnabled: false` turns the feature off.
import { HttpError } from '../errors.ts';
import { TERRITORIES } from '../records.ts';
import type { Ctx, Reply, Router } from '../router.ts';
import { operation } from '../router.ts';
import type { Sandbox } from '../types.ts';
import { DEMO_USERS } from '../catalogue/org.ts';
import { seedOnce } from './shared.ts';
import type { Json } from '../store.ts';

const TERRITORIES_READ = [['CRM.settings.territories.READ']];

interface TerritoryDoc extends Json {
	id: string;
	name: string;
	description: string;
	reporting_to: { id: string; name: string } | null;
	manager: { id: string; name: string; email: string } | null;
	permission_type: 'read_write' | 'read_only';
	account_rule_criteria: Json | null;
	deal_rule_criteria: Json | null;
	created_time: string;
	modified_time: string;
	created_by: { id: string; name: string };
	modified_by: { id: string; name: string };
}

export const TERRITORY_GLOBAL = { id: '4876876000000361001', name: 'Global' };
export const TERRITORY_NORTH_AMERICA = { id: '4876876000000361003', name: 'North America' };
export const TERRITORY_EUROPE = { id: '4876876000000361005', name: 'Europe' };
export const TERRITORY_TEXAS = { id: '4876876000000361007', name: 'Texas' };
const TERRITORY_CALIFORNIA = { id: '4876876000000361009', name: 'California' };
const TERRITORY_DACH = { id: '4876876000000361011', name: 'DACH' };

function seedTerritories(sandbox: Sandbox): void {
	const time = sandbox.formatTime();
	const admin = { id: DEMO_USERS[0].id, name: DEMO_USERS[0].full_name };
	const manager = (i: number) => ({
		id: DEMO_USERS[i].id,
		name: DEMO_USERS[i].full_name,
		email: DEMO_USERS[i].email,
	});
	const equal = (field: string, value: string) => ({ field, comparator: 'equal', value });
	const territory = (
		t: { id: string; name: string },
		description: string,
		parent: { id: string; name: string } | null,
		extra: Partial<TerritoryDoc>,
	): TerritoryDoc => ({
		id: t.id,
		name: t.name,
		description,
		reporting_to: parent ? { ...parent } : null,
		manager: null,
		permission_type: 'read_write',
		account_rule_criteria: null,
		deal_rule_criteria: null,
		created_time: time,
		modified_time: time,
		created_by: admin,
		modified_by: admin,
		...extra,
	});
	const list = [
		territory(TERRITORY_GLOBAL, 'Every customer of the organisation', null, {
			manager: manager(0),
		}),
		territory(TERRITORY_NORTH_AMERICA, 'United States and Canada', TERRITORY_GLOBAL, {
			manager: manager(1),
			account_rule_criteria: {
				group_operator: 'or',
				group: [equal('Billing_Country', 'United States'), equal('Billing_Country', 'Canada')],
			},
		}),
		territory(TERRITORY_EUROPE, 'European customers', TERRITORY_GLOBAL, {
			manager: manager(3),
			permission_type: 'read_only',
			account_rule_criteria: {
				field: 'Billing_Country',
				comparator: 'in',
				value: ['Germany', 'France', 'United Kingdom', 'Austria', 'Switzerland'],
			},
		}),
		territory(TERRITORY_TEXAS, 'Accounts billed in Texas', TERRITORY_NORTH_AMERICA, {
			manager: manager(2),
			account_rule_criteria: equal('Billing_State', 'Texas'),
			deal_rule_criteria: { field: 'Amount', comparator: 'greater_than', value: 10000 },
		}),
		territory(TERRITORY_CALIFORNIA, 'Accounts billed in California', TERRITORY_NORTH_AMERICA, {
			account_rule_criteria: equal('Billing_State', 'California'),
		}),
		territory(TERRITORY_DACH, 'Germany, Austria and Switzerland', TERRITORY_EUROPE, {
			account_rule_criteria: {
				field: 'Billing_Country',
				comparator: 'in',
				value: ['Germany', 'Austria', 'Switzerland'],
			},
		}),
	];
	for (const t of list) sandbox.store.putDoc(TERRITORIES, t.id, t);
}

function enabled(ctx: Ctx): void {
	if (ctx.sandbox.config.knobs.territoriesEnabled === false) {
		throw new HttpError('FEATURE_NOT_SUPPORTED', {}, 'territory feature not enabled');
	}
}

/** `territories` (+ `info` in v2.1, §13); 204 when empty. */
function territoriesReply(ctx: Ctx, list: TerritoryDoc[]): Reply {
	if (list.length === 0) return { status: 204 };
	const body: Json = { territories: list };
	if (ctx.v === 'v2.1')
		body.info = { per_page: 200, count: list.length, page: 1, more_records: false };
	return { body };
}

export const getTerritories = operation(
	'GET',
	'/settings/territories',
	{ scopes: TERRITORIES_READ },
	(ctx) => {
		const { sandbox } = ctx;
		enabled(ctx);
		return territoriesReply(ctx, sandbox.store.docs<TerritoryDoc>(TERRITORIES));
	},
);

const getTerritory = operation(
	'GET',
	'/settings/territories/:id',
	{ scopes: TERRITORIES_READ },
	(ctx) => {
		const { sandbox } = ctx;
		enabled(ctx);
		const territory = sandbox.store.doc<TerritoryDoc>(TERRITORIES, ctx.params.id);
		return territoriesReply(ctx, territory ? [territory] : []);
	},
);

export function registerTerritories(router: Router, sandbox: Sandbox): void {
	seedOnce(sandbox, 'territories', seedTerritories);
	router.register([getTerritories, getTerritory]);
}
