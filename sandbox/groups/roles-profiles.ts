// Roles and profiles (docs/protocol.md §5.6): GetRoles, GetRole, GetProfiles, GetProfile.
// Roles form a hierarchy (`reporting_to`); profiles carry permissions per module and general
// permissions. The ids the demo users reference (sandbox/catalogue/org.ts) are kept.
import type { Router } from '../router.ts';
import { operation } from '../router.ts';
import type { Sandbox } from '../types.ts';
import { DEMO_USERS } from '../catalogue/org.ts';
import { seedOnce } from './shared.ts';
import type { Json } from '../store.ts';
import { parseDateTime } from '../time.ts';
import { ifModifiedSince, listReply } from '../wire.ts';

const ROLES_READ = [['CRM.settings.roles.READ']];
const PROFILES_READ = [['CRM.settings.profiles.READ']];

export const ROLES = 'roles';
const PROFILES = 'profiles';

const ADMIN = DEMO_USERS[0];
const MANAGER = DEMO_USERS[1];

/** Role and profile references of the demo users: CEO, Manager, Sales Rep; Administrator, Standard. */
export const ROLE_CEO = DEMO_USERS[0].role;
export const ROLE_MANAGER = DEMO_USERS[1].role;
export const ROLE_SALES_REP = DEMO_USERS[2].role;
export const PROFILE_ADMIN = DEMO_USERS[0].profile;
export const PROFILE_STANDARD = DEMO_USERS[2].profile;
const ROLE_SUPPORT_LEAD = { name: 'Support Lead', id: '4876876000000026026' };
const ROLE_SUPPORT_AGENT = { name: 'Support Agent', id: '4876876000000026029' };
const PROFILE_READ_ONLY = { name: 'Read Only', id: '4876876000000026032' };

interface RoleDoc extends Json {
	id: string;
	name: string;
	display_label: string;
	description: string;
	reporting_to: { id: string; name: string } | null;
	forecast_manager: { id: string; name: string } | null;
	admin_user: boolean;
	share_with_peers: boolean;
}

interface PermissionDetail extends Json {
	id: string;
	name: string;
	display_label: string;
	module: string | null;
	enabled: boolean;
}

interface ProfileDoc extends Json {
	id: string;
	name: string;
	display_label: string;
	description: string;
	default: boolean;
	category: boolean;
	_delete: boolean;
	created_time: string;
	modified_time: string;
	created_by: { id: string; name: string };
	modified_by: { id: string; name: string };
	permissions_details: PermissionDetail[];
	sections: Json[];
}

export function roleDoc(sandbox: Sandbox, id: string): RoleDoc | undefined {
	return sandbox.store.doc<RoleDoc>(ROLES, id);
}

export function profileDoc(sandbox: Sandbox, id: string): ProfileDoc | undefined {
	return sandbox.store.doc<ProfileDoc>(PROFILES, id);
}

/** Whether a profile is the administrator profile (AdminUsers, ActiveConfirmedAdmins). */
export function isAdminProfile(profileId: string | undefined): boolean {
	return profileId === PROFILE_ADMIN.id;
}

const ref = (u: { id: string; full_name: string }) => ({ id: u.id, name: u.full_name });

function seedRoles(sandbox: Sandbox): void {
	const role = (
		r: { id: string; name: string },
		description: string,
		reportingTo: { id: string; name: string } | null,
		extra: Partial<RoleDoc> = {},
	): RoleDoc => ({
		id: r.id,
		name: r.name,
		display_label: r.name,
		description,
		reporting_to: reportingTo ? { id: reportingTo.id, name: reportingTo.name } : null,
		forecast_manager: null,
		admin_user: false,
		share_with_peers: false,
		...extra,
	});
	const roles = [
		role(ROLE_CEO, 'Head of the organisation; sees every record', null, {
			admin_user: true,
			share_with_peers: true,
		}),
		role(ROLE_MANAGER, 'Sales manager; sees the records of the sales reps', ROLE_CEO, {
			share_with_peers: true,
			forecast_manager: ref(MANAGER),
		}),
		role(ROLE_SALES_REP, 'Sales representative', ROLE_MANAGER),
		role(ROLE_SUPPORT_LEAD, 'Leads the support team', ROLE_CEO, { share_with_peers: true }),
		role(ROLE_SUPPORT_AGENT, 'Handles cases', ROLE_SUPPORT_LEAD),
	];
	for (const r of roles) sandbox.store.putDoc(ROLES, r.id, r);
}

const MODULE_ACTIONS = ['View', 'Create', 'Edit', 'Delete'];
const GENERAL_PERMISSIONS: Array<{ name: string; label: string; section: 'general' | 'setup' }> = [
	{ name: 'Crm_Implied_Api_Access', label: 'API Access', section: 'general' },
	{ name: 'Crm_Implied_Export', label: 'Export', section: 'general' },
	{ name: 'Crm_Implied_Mass_Update', label: 'Mass Update', section: 'general' },
	{ name: 'Crm_Implied_Manage_Users', label: 'Manage Users', section: 'setup' },
	{ name: 'Crm_Implied_Manage_Roles', label: 'Manage Roles', section: 'setup' },
	{ name: 'Crm_Implied_Customize_CRM', label: 'Customize CRM', section: 'setup' },
];

type Rule = (module: string | null, action: string) => boolean;

function seedProfiles(sandbox: Sandbox): void {
	const time = sandbox.formatTime();
	const modules = sandbox.modules().map((m) => m.api_name);
	let seq = 0;
	const permissionId = () => `4876876000000${String(40_000 + seq++).padStart(6, '0')}`;
	// one definition per permission, shared by every profile (same ids)
	const defs: Array<{
		id: string;
		name: string;
		display_label: string;
		module: string | null;
		action: string;
		section: string;
	}> = [];
	for (const module of modules) {
		for (const action of MODULE_ACTIONS) {
			defs.push({
				id: permissionId(),
				name: `${module}_${action}`,
				display_label: action,
				module,
				action,
				section: 'module_level',
			});
		}
	}
	for (const g of GENERAL_PERMISSIONS) {
		defs.push({
			id: permissionId(),
			name: g.name,
			display_label: g.label,
			module: null,
			action: g.name,
			section: g.section,
		});
	}

	const profile = (
		p: { id: string; name: string },
		description: string,
		rule: Rule,
		extra: Partial<ProfileDoc> = {},
	): ProfileDoc => {
		const permissions = defs.map(({ id, name, display_label, module, action }) => ({
			id,
			name,
			display_label,
			module,
			enabled: rule(module, action),
		}));
		const sections = ['module_level', 'general', 'setup'].map((section) => {
			const inSection = defs.filter((d) => d.section === section);
			const keys = [...new Set(inSection.map((d) => d.module ?? d.name))];
			return {
				name: section,
				categories: keys.map((key) => {
					const of = inSection.filter((d) => (d.module ?? d.name) === key);
					return {
						name: key,
						display_label: of[0].module ? key.replace(/_/g, ' ') : of[0].display_label,
						module: of[0].module,
						permissions_details: of.map((d) => d.id),
					};
				}),
			};
		});
		return {
			id: p.id,
			name: p.name,
			display_label: p.name,
			description,
			default: false,
			category: false,
			_delete: false,
			created_time: time,
			modified_time: time,
			created_by: ref(ADMIN),
			modified_by: ref(ADMIN),
			permissions_details: permissions,
			sections,
			...extra,
		};
	};

	const profiles = [
		profile(PROFILE_ADMIN, 'Full access to every module and to the setup', () => true),
		profile(
			PROFILE_STANDARD,
			'Works with records; no setup access',
			(module, action) =>
				module !== null
					? action !== 'Delete' || !['Accounts', 'Deals', 'Invoices'].includes(module)
					: ['Crm_Implied_Api_Access', 'Crm_Implied_Export'].includes(action),
			{ default: true },
		),
		profile(
			PROFILE_READ_ONLY,
			'Reads records only',
			(module, action) =>
				module !== null ? action === 'View' : action === 'Crm_Implied_Api_Access',
			{ category: true, _delete: true },
		),
	];
	for (const p of profiles) sandbox.store.putDoc(PROFILES, p.id, p);
}

/** A profile as GetProfiles lists it: without permissions and sections (GetProfile has them). */
function profileSummary(p: ProfileDoc): Json {
	const out: Json = { ...p };
	delete out.permissions_details;
	delete out.sections;
	return out;
}

export const getRoles = operation('GET', '/settings/roles', { scopes: ROLES_READ }, (ctx) =>
	listReply('roles', ctx.sandbox.store.docs<RoleDoc>(ROLES)),
);

const getRole = operation('GET', '/settings/roles/:id', { scopes: ROLES_READ }, (ctx) => {
	const { sandbox } = ctx;
	const role = roleDoc(sandbox, ctx.params.id);
	return role ? { body: { roles: [role] } } : { status: 204 };
});

const modifiedAfter = (p: ProfileDoc, since: number) =>
	(parseDateTime(p.modified_time) ?? 0) > since;

export const getProfiles = operation(
	'GET',
	'/settings/profiles',
	{ scopes: PROFILES_READ },
	(ctx) => {
		const { store } = ctx.sandbox;
		let profiles = store.docs<ProfileDoc>(PROFILES);
		const since = ifModifiedSince(ctx);
		if (since !== undefined) {
			profiles = profiles.filter((p) => modifiedAfter(p, since));
			if (profiles.length === 0) return { status: 304 };
		}
		return listReply('profiles', profiles.map(profileSummary));
	},
);

const getProfile = operation('GET', '/settings/profiles/:id', { scopes: PROFILES_READ }, (ctx) => {
	const { sandbox } = ctx;
	const profile = profileDoc(sandbox, ctx.params.id);
	if (!profile) return { status: 204 };
	const since = ifModifiedSince(ctx);
	if (since !== undefined && !modifiedAfter(profile, since)) return { status: 304 };
	return { body: { profiles: [profile] } };
});

export function registerRolesProfiles(router: Router, sandbox: Sandbox): void {
	seedOnce(sandbox, 'roles', seedRoles);
	seedOnce(sandbox, 'profiles', seedProfiles);
	router.register([getRoles, getRole, getProfiles, getProfile]);
}
