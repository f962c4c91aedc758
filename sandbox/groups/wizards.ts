// Wizards (docs/protocol.md §5.7, v2.1 only): GetWizards, GetWizardbyID (`layout_id` required: the
// container of that layout). Seeded once: an active "Lead Qualification" wizard on the Leads
// Standard layout (two screens with Next/Previous/Save buttons) and a draft "Partner Deal Handover"
// on the Deals "Partner Deals" layout. Documents of the collection `wizards`.
import { HttpError } from '../errors.ts';
import type { StoredModule } from '../metadata.ts';
import { fieldId } from '../metadata.ts';
import type { Router } from '../router.ts';
import { operation } from '../router.ts';
import type { Sandbox } from '../types.ts';
import { seedOnce } from './shared.ts';
import type { Json } from '../store.ts';
import { layoutsOf } from './layouts.ts';
import { moduleRef, storedModules, unknownId, userRef } from './modules.ts';
import { requiredQuery } from '../wire.ts';

const WIZARDS_READ = [['CRM.settings.wizards.READ']];

interface WizardDoc {
	id: string;
	name: string;
	module: string;
	active: boolean;
	draft: boolean;
	profiles: Json[];
	containers: Json[];
	created_by: string;
	created_time: string;
	modified_time: string;
}

interface ScreenSeed {
	label: string;
	fields: string[];
}

interface WizardSeed {
	name: string;
	module: string;
	layout: string;
	active: boolean;
	screens: ScreenSeed[];
}

const WIZARD_SEEDS: WizardSeed[] = [
	{
		name: 'Lead Qualification',
		module: 'Leads',
		layout: 'Standard',
		active: true,
		screens: [
			{
				label: 'Contact Details',
				fields: ['First_Name', 'Last_Name', 'Email', 'Phone', 'Company'],
			},
			{
				label: 'Qualification',
				fields: ['Lead_Source', 'Lead_Status', 'Industry', 'Annual_Revenue', 'Rating'],
			},
		],
	},
	{
		name: 'Partner Deal Handover',
		module: 'Deals',
		layout: 'Partner Deals',
		active: false,
		screens: [
			{ label: 'Deal', fields: ['Deal_Name', 'Account_Name', 'Amount', 'Closing_Date'] },
			{ label: 'Stage', fields: ['Stage', 'Probability', 'Next_Step'] },
		],
	},
];

function button(
	sandbox: Sandbox,
	label: string,
	type: string,
	sequence: number,
	target: Json | null,
): Json {
	return {
		id: sandbox.store.nextId(),
		display_label: label,
		type,
		sequence_number: sequence,
		background_color: type === 'submit' ? '#1A73E8' : '#FFFFFF',
		color: type === 'submit' ? '#FFFFFF' : '#1A73E8',
		shape: 'rectangle',
		visibility: 'visible',
		criteria: null,
		target_screen: target,
		transition: null,
	};
}

function seedWizards(sandbox: Sandbox): void {
	const { store } = sandbox;
	const time = sandbox.formatTime();
	const admin = String(userRef(sandbox).id);
	const modules = storedModules(sandbox);
	for (const seed of WIZARD_SEEDS) {
		const module = modules.find((m) => m.api_name === seed.module);
		const layout = module ? layoutsOf(module).find((l) => l.name === seed.layout) : undefined;
		if (!module || !layout) continue;
		const screens = seed.screens.map((s) => ({
			id: store.nextId(),
			display_label: s.label,
			fields: s.fields,
		}));
		const screenRef = (i: number) => ({
			id: screens[i].id,
			display_label: screens[i].display_label,
		});
		const connections: Json[] = [];
		const screenJson = screens.map((screen, i) => {
			const buttons: Json[] = [];
			if (i > 0)
				buttons.push(button(sandbox, 'Previous', 'previous', buttons.length + 1, screenRef(i - 1)));
			if (i < screens.length - 1)
				buttons.push(button(sandbox, 'Next', 'next', buttons.length + 1, screenRef(i + 1)));
			else buttons.push(button(sandbox, 'Save', 'submit', buttons.length + 1, null));
			for (const b of buttons)
				if (b.target_screen)
					connections.push({ source_button: { id: b.id }, target_screen: b.target_screen });
			return {
				id: screen.id,
				display_label: screen.display_label,
				segments: [
					{
						id: store.nextId(),
						display_label: screen.display_label,
						sequence_number: 1,
						column_count: 2,
						fields: screen.fields.map((name) => fieldRefOf(module, name)),
						buttons,
					},
				],
			};
		});
		const id = store.nextId();
		const doc: WizardDoc = {
			id,
			name: seed.name,
			module: module.api_name,
			active: seed.active,
			draft: !seed.active,
			profiles: [{ name: 'Administrator' }, ...(seed.active ? [{ name: 'Standard' }] : [])],
			containers: [
				{
					id: store.nextId(),
					layout: { id: layout.id, name: layout.name },
					chart_data: {
						nodes: screens.map((s, i) => ({
							pos_x: 120 + i * 260,
							pos_y: 80,
							start_node: i === 0,
							screen: screenRef(i),
						})),
						connections,
					},
					screens: screenJson,
				},
			],
			created_by: admin,
			created_time: time,
			modified_time: time,
		};
		store.putDoc('wizards', id, doc);
	}
}

function fieldRefOf(module: StoredModule, name: string): Json {
	const index = module.fields.findIndex((f) => f.api_name === name);
	if (index === -1) throw new Error(`wizard seed names unknown field ${module.api_name}.${name}`);
	return {
		api_name: name,
		id: fieldId(module, index),
		field_label: module.fields[index].field_label,
	};
}

function wizardJson(sandbox: Sandbox, wizard: WizardDoc, containers?: Json[]): Json {
	const module = storedModules(sandbox).find((m) => m.api_name === wizard.module);
	const profileIds = new Map<string, string>();
	for (const u of sandbox.store.docs<{ profile?: { id: string; name: string } }>('users')) {
		if (u.profile) profileIds.set(u.profile.name, u.profile.id);
	}
	return {
		id: wizard.id,
		name: wizard.name,
		module: module ? moduleRef(module) : { api_name: wizard.module },
		active: wizard.active,
		draft: wizard.draft,
		parent_wizard: null,
		profiles: wizard.profiles.map((p) => ({
			name: p.name,
			id: profileIds.get(String(p.name)) ?? null,
		})),
		created_by: userRef(sandbox, wizard.created_by),
		modified_by: userRef(sandbox, wizard.created_by),
		created_time: wizard.created_time,
		modified_time: wizard.modified_time,
		...(containers ? { containers } : {}),
	};
}

export const getWizards = operation(
	'GET',
	'/settings/wizards',
	{ scopes: WIZARDS_READ, v21Only: true },
	(ctx) => {
		const { sandbox } = ctx;
		const wizards = sandbox.store.docs<WizardDoc>('wizards');
		if (wizards.length === 0) return { status: 204 };
		return { body: { wizards: wizards.map((w) => wizardJson(sandbox, w)) } };
	},
);

const getWizardbyID = operation(
	'GET',
	'/settings/wizards/:wizardId',
	{ scopes: WIZARDS_READ, v21Only: true },
	(ctx) => {
		const { sandbox } = ctx;
		const layoutId = requiredQuery(ctx, 'layout_id');
		const wizard = sandbox.store.doc<WizardDoc>('wizards', ctx.params.wizardId);
		if (!wizard) throw unknownId(ctx, ctx.params.wizardId);
		const containers = wizard.containers.filter((c) => (c.layout as Json).id === layoutId);
		if (containers.length === 0) {
			throw HttpError.invalidData(
				{ param_name: 'layout_id', id: layoutId },
				'the wizard has no container for the given layout',
			);
		}
		return { body: { wizards: [wizardJson(sandbox, wizard, containers)] } };
	},
);

export function registerWizards(router: Router, sandbox: Sandbox): void {
	seedOnce(sandbox, 'wizards', seedWizards);
	router.register([getWizards, getWizardbyID]);
}
