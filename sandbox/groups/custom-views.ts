// Custom views (docs/protocol.md §5.7): GetCustomViews (paged, `info` adds `default` and
// `translation`), GetCustomView. Views are documents of the collection `custom_views`, seeded once:
// "All <plural>" (the default) and "My <plural>" (the admin's records) for every module, plus module views with JSON
// criteria (§3.12) and a few views owned or shared by other users. Other groups select records of
// a view with `customViewMatches` (GetRecords `cvid`, MassUpdate, bulk read).
import { matchJsonCriteria } from '../criteria.ts';
import type { JsonCriterion } from '../criteria.ts';
import { fieldId } from '../metadata.ts';
import type { StoredModule } from '../metadata.ts';
import type { Ctx, Router } from '../router.ts';
import { operation } from '../router.ts';
import type { Sandbox } from '../types.ts';
import { seedOnce } from './shared.ts';
import type { Json } from '../store.ts';
import { pageOf, pagedReply, paging } from '../wire.ts';
import {
	demoUserId,
	moduleParam,
	moduleRef,
	storedModules,
	unknownId,
	userRef,
} from './modules.ts';

const CUSTOM_VIEWS_READ = [['CRM.settings.custom_views.READ']];

type ViewCategory = 'created_by_me' | 'other_users_views' | 'public_views' | 'shared_with_me';

interface CustomViewDoc {
	id: string;
	module: string;
	name: string;
	system_name: string | null;
	system_defined: boolean;
	default: boolean;
	/** `public`, `only_to_me` or `shared` */
	access_type: 'public' | 'only_to_me' | 'shared';
	/** JSON criteria (§3.12) with `field` as `{api_name, id}`; null = every record */
	criteria: JsonCriterion | null;
	/** columns */
	fields: Json[];
	sort_by: Json | null;
	sort_order: 'asc' | 'desc' | null;
	favorite: number | null;
	offline: boolean;
	shared_to: Json[] | null;
	created_by: string;
	created_time: string;
	modified_time: string;
	last_accessed_time: string | null;
}

const VIEW_TRANSLATION = {
	public_views: 'Public Views',
	other_users_views: "Other Users' Views",
	shared_with_me: 'Shared With Me',
	created_by_me: 'Created By Me',
};

/** A custom view by id. */
export function findCustomView(sandbox: Sandbox, id: string): CustomViewDoc | undefined {
	return sandbox.store.doc<CustomViewDoc>('custom_views', id);
}

/** Whether a record belongs to a view, for the given caller (`${CURRENTUSER}` in criteria). */
export function customViewMatches(
	view: CustomViewDoc,
	record: Json,
	currentUserId?: string,
): boolean {
	return matchJsonCriteria(record, view.criteria, { currentUserId });
}

function isAdmin(sandbox: Sandbox, userId: string): boolean {
	const user = sandbox.store.doc<{ profile?: { name?: string } }>('users', userId);
	return user?.profile?.name === 'Administrator';
}

/** The view's category for a caller; undefined when the caller may not see it. */
function categoryFor(
	sandbox: Sandbox,
	view: CustomViewDoc,
	userId: string,
): ViewCategory | undefined {
	if (view.created_by === userId && !view.system_defined) return 'created_by_me';
	if (view.access_type === 'public') return 'public_views';
	if (view.access_type === 'shared' && (view.shared_to ?? []).some((s) => s.id === userId))
		return 'shared_with_me';
	return isAdmin(sandbox, userId) ? 'other_users_views' : undefined;
}

function viewJson(
	sandbox: Sandbox,
	module: StoredModule,
	view: CustomViewDoc,
	category: ViewCategory,
	full: boolean,
): Json {
	const json: Json = {
		id: view.id,
		name: view.name,
		display_value: view.name,
		system_name: view.system_name,
		system_defined: view.system_defined,
		default: view.default,
		category,
		access_type: view.access_type,
		shared_type: view.access_type === 'shared' ? 'users' : null,
		sort_by: view.sort_by,
		sort_order: view.sort_order,
		favorite: view.favorite,
		offline: view.offline,
		module: moduleRef(module),
		created_by: userRef(sandbox, view.created_by),
		modified_by: userRef(sandbox, view.created_by),
		created_time: view.created_time,
		modified_time: view.modified_time,
		last_accessed_time: view.last_accessed_time,
	};
	if (full) {
		json.criteria = view.criteria;
		json.fields = view.fields;
		json.shared_to = view.shared_to;
	}
	return json;
}

function viewsOf(sandbox: Sandbox, module: StoredModule): CustomViewDoc[] {
	const views = sandbox.store
		.docs<CustomViewDoc>('custom_views')
		.filter((v) => v.module === module.api_name);
	// the default view first, then creation order
	return [...views.filter((v) => v.default), ...views.filter((v) => !v.default)];
}

function infoExtra(views: CustomViewDoc[]): Json {
	return { default: views.find((v) => v.default)?.id ?? null, translation: VIEW_TRANSLATION };
}

// ---- seed -------------------------------------------------------------------------------------

interface ViewSeed {
	name: string;
	criteria?: JsonCriterion;
	/** first name of the demo user owning the view (the admin when absent) */
	owner?: string;
	access?: CustomViewDoc['access_type'];
	sharedWith?: string;
	sortBy?: string;
	favorite?: number;
}

type LeafArgs = [field: string, comparator: string, value: unknown];

const OPEN_STAGES_EXCLUDED = ['Closed Won', 'Closed Lost', 'Closed-Lost to Competition'];

/** Module views besides "All" and "My"; `owner`/`sharedWith` name demo users by first name. */
const MODULE_VIEWS: Record<
	string,
	Array<Omit<ViewSeed, 'criteria'> & { where: LeafArgs[]; op?: 'and' | 'or' }>
> = {
	Leads: [
		{
			name: 'Web Leads',
			where: [['Lead_Source', 'in', ['Web', 'Web Download', 'Web Research']]],
			favorite: 1,
		},
		{
			name: 'Hot Leads',
			where: [
				['Rating', 'equal', 'Active'],
				['Lead_Status', 'not_in', ['Junk Lead', 'Lost Lead', 'Not Qualified']],
			],
		},
		{ name: 'Junk Leads', where: [['Lead_Status', 'equal', 'Junk Lead']] },
	],
	Contacts: [
		{
			name: 'Mailing List',
			where: [
				['Email_Opt_Out', 'equal', false],
				['Email', 'contains', '@'],
			],
		},
	],
	Accounts: [
		{ name: 'Customers', where: [['Account_Type', 'equal', 'Customer']], sortBy: 'Account_Name' },
		{
			name: 'Key Accounts',
			where: [['Annual_Revenue', 'greater_equal', 20_000_000]],
			owner: 'James',
			access: 'shared',
			sharedWith: 'Sandbox',
		},
	],
	Deals: [
		{
			name: 'Open Deals',
			where: [['Stage', 'not_in', OPEN_STAGES_EXCLUDED]],
			sortBy: 'Closing_Date',
			favorite: 1,
		},
		{
			name: 'Closing This Quarter',
			where: [['Closing_Date', 'between', ['2025-01-01', '2025-03-31']]],
		},
		{ name: 'Enterprise Pipeline', where: [['Pipeline', 'equal', 'Enterprise']] },
		{ name: 'Won Deals', where: [['Stage', 'equal', 'Closed Won']] },
		{
			name: "Maria's Big Deals",
			where: [['Amount', 'greater_than', 100_000]],
			owner: 'Maria',
			access: 'only_to_me',
		},
	],
	Cases: [
		{
			name: 'Escalated Cases',
			where: [
				['Status', 'equal', 'Escalated'],
				['Priority', 'in', ['High', 'Medium']],
			],
			op: 'or',
		},
	],
	Tasks: [
		{ name: 'Open Tasks', where: [['Status', 'not_equal', 'Completed']], sortBy: 'Due_Date' },
	],
	Projects: [{ name: 'Active Projects', where: [['Status', 'equal', 'Active']] }],
};

function leaf(module: StoredModule, [field, comparator, value]: LeafArgs): JsonCriterion {
	const index = module.fields.findIndex((f) => f.api_name === field);
	if (index === -1)
		throw new Error(`custom view seed names unknown field ${module.api_name}.${field}`);
	return { field: { api_name: field, id: fieldId(module, index) }, comparator, value };
}

function columns(module: StoredModule): Json[] {
	const names = [
		module.display_field,
		...module.fields
			.filter(
				(f) => !f.read_only && f.data_type !== 'textarea' && f.api_name !== module.display_field,
			)
			.map((f) => f.api_name),
	].slice(0, 5);
	return names.map((name) => {
		const index = module.fields.findIndex((f) => f.api_name === name);
		return { api_name: name, id: fieldId(module, index) };
	});
}

function seedCustomViews(sandbox: Sandbox): void {
	const { store } = sandbox;
	const admin = String(userRef(sandbox).id);
	const time = sandbox.formatTime();
	for (const module of storedModules(sandbox)) {
		const fieldRef = (name: string): Json | null => {
			const index = module.fields.findIndex((f) => f.api_name === name);
			return index === -1 ? null : { api_name: name, id: fieldId(module, index) };
		};
		const seeds: ViewSeed[] = [
			{ name: `All ${module.plural_label}` },
			// "My" views of the admin: a literal user id (every criteria reader of the sandbox knows ids)
			{ name: `My ${module.plural_label}`, criteria: leaf(module, ['Owner', 'equal', admin]) },
			...(MODULE_VIEWS[module.api_name] ?? []).map(({ where, op, ...rest }) => ({
				...rest,
				criteria:
					where.length === 1
						? leaf(module, where[0])
						: { group_operator: op ?? 'and', group: where.map((w) => leaf(module, w)) },
			})),
		];
		seeds.forEach((seed, i) => {
			const id = store.nextId();
			const system = i < 2;
			const owner = seed.owner ? demoUserId(sandbox, seed.owner) : admin;
			const sharedWith = seed.sharedWith ? demoUserId(sandbox, seed.sharedWith) : undefined;
			const doc: CustomViewDoc = {
				id,
				module: module.api_name,
				name: seed.name,
				system_name: i === 0 ? 'ALLVIEWS' : i === 1 ? 'MYVIEWS' : null,
				system_defined: system,
				default: i === 0,
				access_type: seed.access ?? 'public',
				criteria: seed.criteria ?? null,
				fields: columns(module),
				sort_by: seed.sortBy ? fieldRef(seed.sortBy) : null,
				sort_order: seed.sortBy ? 'asc' : null,
				favorite: seed.favorite ?? null,
				offline: false,
				shared_to: sharedWith
					? [
							{
								type: 'users',
								id: sharedWith,
								name: String(userRef(sandbox, sharedWith).name),
								subordinates: false,
							},
						]
					: null,
				created_by: owner,
				created_time: time,
				modified_time: time,
				last_accessed_time: null,
			};
			store.putDoc('custom_views', id, doc);
		});
	}
}

// ---- routes -----------------------------------------------------------------------------------

function visibleViews(
	ctx: Ctx,
	module: StoredModule,
): Array<{ view: CustomViewDoc; category: ViewCategory }> {
	const userId = String(ctx.sandbox.user(ctx).id);
	return viewsOf(ctx.sandbox, module)
		.map((view) => ({ view, category: categoryFor(ctx.sandbox, view, userId) }))
		.filter((v): v is { view: CustomViewDoc; category: ViewCategory } => v.category !== undefined);
}

export const getCustomViews = operation(
	'GET',
	'/settings/custom_views',
	{ scopes: CUSTOM_VIEWS_READ },
	(ctx) => {
		const { sandbox } = ctx;
		const module = moduleParam(ctx);
		const p = paging(ctx);
		const views = visibleViews(ctx, module);
		const page = pageOf(views, p).map(({ view, category }) =>
			viewJson(sandbox, module, view, category, false),
		);
		return pagedReply('custom_views', p, page, infoExtra(views.map((v) => v.view)));
	},
);

const getCustomView = operation(
	'GET',
	'/settings/custom_views/:id',
	{ scopes: CUSTOM_VIEWS_READ },
	(ctx) => {
		const { sandbox } = ctx;
		const module = ctx.q('module') === undefined ? undefined : moduleParam(ctx);
		const view = findCustomView(sandbox, ctx.params.id);
		if (!view || (module && view.module !== module.api_name)) throw unknownId(ctx, ctx.params.id);
		const viewModule = storedModules(sandbox).find((m) => m.api_name === view.module)!;
		const visible = visibleViews(ctx, viewModule).find((v) => v.view.id === view.id);
		if (!visible) throw unknownId(ctx, ctx.params.id);
		return {
			body: {
				custom_views: [viewJson(sandbox, viewModule, view, visible.category, true)],
				info: infoExtra(visibleViews(ctx, viewModule).map((v) => v.view)),
			},
		};
	},
);

export function registerCustomViews(router: Router, sandbox: Sandbox): void {
	seedOnce(sandbox, 'custom_views', seedCustomViews);
	router.register([getCustomViews, getCustomView]);
}
