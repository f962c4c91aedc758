// Layouts (docs/protocol.md §5.7): GetLayouts, GetLayout. Layouts are derived from the stored module
// definitions on every read (so module and field changes show at once): every module has a
// "Standard" layout; Deals also has "Partner Deals" (pipelines and wizards hang on Deals layouts).
// Sections group the module's fields: "<Singular> Information", "Address Information",
// "Description Information". Layout ids are stable: module id digits + `1` + sequence.
import { fieldJson } from '../metadata.ts';
import type { StoredModule } from '../metadata.ts';
import type { Router } from '../router.ts';
import { operation } from '../router.ts';
import type { Sandbox } from '../types.ts';
import type { Json } from '../store.ts';
import { moduleParam, storedModules, unknownId, userRef } from './modules.ts';

const LAYOUTS_READ = [['CRM.settings.layouts.READ']];

interface LayoutSpec {
	name: string;
	/** fields left out of this layout */
	exclude?: string[];
	/** profile names that see the layout (all when absent) */
	profiles?: string[];
}

/** Layouts besides "Standard", per module. */
const EXTRA_LAYOUTS: Record<string, LayoutSpec[]> = {
	Deals: [
		{
			name: 'Partner Deals',
			exclude: ['Campaign_Source', 'Lead_Source', 'Expected_Revenue'],
			profiles: ['Administrator'],
		},
	],
};

export interface Layout {
	id: string;
	name: string;
	module: StoredModule;
	spec: LayoutSpec;
}

/** Fields never placed on a layout. */
const HIDDEN = new Set(['id', 'Tag']);
const ADDRESS =
	/^(Mailing_|Billing_|Shipping_|Other_)?(Street|City|State|Zip|Zip_Code|Code|Country)$/;

export function layoutId(module: StoredModule, sequence: number): string {
	return `${module.id.slice(0, 10)}${module.id.slice(-4)}1${String(sequence).padStart(4, '0')}`;
}

/** The layouts of a module, "Standard" first. */
export function layoutsOf(module: StoredModule): Layout[] {
	const specs: LayoutSpec[] = [{ name: 'Standard' }, ...(EXTRA_LAYOUTS[module.api_name] ?? [])];
	return specs.map((spec, i) => ({ id: layoutId(module, i + 1), name: spec.name, module, spec }));
}

/** A layout by id, optionally within one module. */
export function findLayout(
	sandbox: Sandbox,
	id: string,
	module?: StoredModule,
): Layout | undefined {
	const modules = module ? [module] : storedModules(sandbox);
	for (const m of modules) {
		const layout = layoutsOf(m).find((l) => l.id === id);
		if (layout) return layout;
	}
	return undefined;
}

/** `{name, id}` of the profiles seeing a layout (profiles of the organisation's users). */
function profilesOf(sandbox: Sandbox, spec: LayoutSpec): Json[] {
	const seen = new Map<string, Json>();
	for (const u of sandbox.store.docs<{ profile?: { id: string; name: string } }>('users')) {
		if (u.profile && !seen.has(u.profile.id))
			seen.set(u.profile.id, { name: u.profile.name, id: u.profile.id, default: true });
	}
	const all = [...seen.values()];
	return spec.profiles ? all.filter((p) => spec.profiles!.includes(String(p.name))) : all;
}

function sectionOf(apiName: string, dataType: string): 'main' | 'address' | 'description' {
	if (ADDRESS.test(apiName)) return 'address';
	if (apiName === 'Description' || dataType === 'textarea') return 'description';
	return 'main';
}

function layoutJson(sandbox: Sandbox, layout: Layout, v: string): Json {
	const { module, spec } = layout;
	const groups: Record<'main' | 'address' | 'description', Json[]> = {
		main: [],
		address: [],
		description: [],
	};
	module.fields.forEach((field, index) => {
		if (HIDDEN.has(field.api_name) || spec.exclude?.includes(field.api_name)) return;
		const section = sectionOf(field.api_name, field.data_type);
		// `required`: the form layout's own rule (system-mandatory fields plus layout-only ones); the API enforces only the former
		const required = field.mandatory === true || field.layout_required === true;
		groups[section].push({
			...fieldJson(module, field, index, v),
			required,
			sequence_number: groups[section].length + 1,
		});
	});
	const titles: Array<[keyof typeof groups, string]> = [
		['main', `${module.singular_label} Information`],
		['address', 'Address Information'],
		['description', 'Description Information'],
	];
	const sections = titles
		.filter(([key]) => groups[key].length > 0)
		.map(([key, label], i) => ({
			display_label: label,
			api_name: label.replace(/[^A-Za-z0-9]+/g, '_'),
			name: label,
			generated_type: 'default',
			sequence_number: i + 1,
			column_count: key === 'description' ? 1 : 2,
			tab_traversal: 1,
			isSubformSection: false,
			properties: null,
			fields: groups[key],
		}));
	const convertMapping: Json = {};
	if (module.convertable) {
		for (const target of ['Contacts', 'Accounts', 'Deals']) {
			const m = storedModules(sandbox).find((x) => x.api_name === target);
			if (m) convertMapping[target] = { id: layoutId(m, 1), name: 'Standard' };
		}
	}
	const admin = userRef(sandbox);
	return {
		id: layout.id,
		name: layout.name,
		status: 1,
		display_type: -1,
		visible: true,
		show_business_card: false,
		created_for: null,
		created_by: admin,
		modified_by: module.modified_by ?? admin,
		created_time: module.modified_time,
		modified_time: module.modified_time,
		profiles: profilesOf(sandbox, spec),
		sections,
		convert_mapping: convertMapping,
	};
}

export const getLayouts = operation('GET', '/settings/layouts', { scopes: LAYOUTS_READ }, (ctx) => {
	const { sandbox } = ctx;
	const module = moduleParam(ctx);
	return { body: { layouts: layoutsOf(module).map((l) => layoutJson(sandbox, l, ctx.v)) } };
});

const getLayout = operation('GET', '/settings/layouts/:id', { scopes: LAYOUTS_READ }, (ctx) => {
	const { sandbox } = ctx;
	// `module` narrows the search; layout ids are unique across modules
	const module = ctx.q('module') === undefined ? undefined : moduleParam(ctx);
	const layout = findLayout(sandbox, ctx.params.id, module);
	if (!layout) throw unknownId(ctx, ctx.params.id);
	return { body: { layouts: [layoutJson(sandbox, layout, ctx.v)] } };
});

export function registerLayouts(router: Router): void {
	router.register([getLayouts, getLayout]);
}
