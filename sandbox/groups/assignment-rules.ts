// Assignment rules (docs/protocol.md §5.7, v2.1 only): GetAssignmentRules, GetAssignmentRule
// (`module` required; the rule must belong to it). Seeded once into the collection
// `assignment_rules`: two lead rules, one deal rule, one case rule.
import { HttpError } from '../errors.ts';
import type { Router } from '../router.ts';
import { operation } from '../router.ts';
import type { Sandbox } from '../types.ts';
import { seedOnce } from './shared.ts';
import type { Json } from '../store.ts';
import {
	demoUserId,
	moduleParam,
	moduleRef,
	storedModules,
	unknownId,
	userRef,
} from './modules.ts';

const RULES_READ = [['CRM.settings.assignment_rules.READ']];

interface AssignmentRuleDoc {
	id: string;
	name: string;
	description: string;
	module: string;
	/** user id of the default assignee */
	default_assignee: string;
	created_by: string;
	modified_by: string;
	created_time: string;
	modified_time: string;
}

const RULE_SEEDS: Array<{ name: string; description: string; module: string; assignee: string }> = [
	{
		name: 'Web Lead Round Robin',
		description: 'Distributes web leads among the sales reps in turn',
		module: 'Leads',
		assignee: 'Maria',
	},
	{
		name: 'Trade Show Leads',
		description: 'Trade show and seminar leads go to the events team',
		module: 'Leads',
		assignee: 'James',
	},
	{
		name: 'Enterprise Deal Routing',
		description: 'Deals of the Enterprise pipeline go to the sales manager',
		module: 'Deals',
		assignee: 'Maria',
	},
	{
		name: 'Escalation Desk',
		description: 'Escalated cases are assigned to the support lead',
		module: 'Cases',
		assignee: 'Priya',
	},
];

function seedRules(sandbox: Sandbox): void {
	const admin = String(userRef(sandbox).id);
	const time = sandbox.formatTime();
	for (const seed of RULE_SEEDS) {
		const id = sandbox.store.nextId();
		const doc: AssignmentRuleDoc = {
			id,
			name: seed.name,
			description: seed.description,
			module: seed.module,
			default_assignee: demoUserId(sandbox, seed.assignee),
			created_by: admin,
			modified_by: admin,
			created_time: time,
			modified_time: time,
		};
		sandbox.store.putDoc('assignment_rules', id, doc);
	}
}

function ruleJson(sandbox: Sandbox, rule: AssignmentRuleDoc): Json {
	const module = storedModules(sandbox).find((m) => m.api_name === rule.module);
	return {
		id: rule.id,
		name: rule.name,
		description: rule.description,
		module: module ? moduleRef(module) : { api_name: rule.module },
		default_assignee: userRef(sandbox, rule.default_assignee),
		created_by: userRef(sandbox, rule.created_by),
		modified_by: userRef(sandbox, rule.modified_by),
		created_time: rule.created_time,
		modified_time: rule.modified_time,
	};
}

/** An assignment rule by id (lead assignment rules are what record writes name in `lar_id`). */
function findAssignmentRule(sandbox: Sandbox, id: string): AssignmentRuleDoc | undefined {
	return sandbox.store.doc<AssignmentRuleDoc>('assignment_rules', id);
}

export const getAssignmentRules = operation(
	'GET',
	'/settings/automation/assignment_rules',
	{ scopes: RULES_READ, v21Only: true },
	(ctx) => {
		const { sandbox } = ctx;
		const rules = sandbox.store.docs<AssignmentRuleDoc>('assignment_rules');
		if (rules.length === 0) return { status: 204 };
		return { body: { assignment_rules: rules.map((r) => ruleJson(sandbox, r)) } };
	},
);

const getAssignmentRule = operation(
	'GET',
	'/settings/automation/assignment_rules/:ruleId',
	{ scopes: RULES_READ, v21Only: true },
	(ctx) => {
		const { sandbox } = ctx;
		const module = moduleParam(ctx);
		const rule = findAssignmentRule(sandbox, ctx.params.ruleId);
		if (!rule) throw unknownId(ctx, ctx.params.ruleId, 3);
		if (rule.module !== module.api_name) {
			throw HttpError.invalidData(
				{ param_name: 'module', api_name: module.api_name },
				'the rule does not belong to the given module',
			);
		}
		return { body: { assignment_rules: [ruleJson(sandbox, rule)] } };
	},
);

export function registerAssignmentRules(router: Router, sandbox: Sandbox): void {
	seedOnce(sandbox, 'assignment_rules', seedRules);
	router.register([getAssignmentRules, getAssignmentRule]);
}
