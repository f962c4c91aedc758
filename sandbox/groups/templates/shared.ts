// Helpers shared by the template operations (docs/protocol.md §5.7): the seed, the module and
// query checks and the list / single renderings.
import { HttpError } from '../../errors.ts';
import type { StoredModule } from '../../metadata.ts';
import type { Ctx } from '../../router.ts';
import type { Json } from '../../store.ts';
import type { Sandbox } from '../../types.ts';
import { demoUserId, moduleParam, moduleRef, storedModules, userRef } from '../modules.ts';

export const EMAIL_READ = [['CRM.templates.email.READ']];
export const INVENTORY_READ = [['CRM.templates.inventory.READ']];

export const INVENTORY_MODULES = ['Quotes', 'Sales_Orders', 'Purchase_Orders', 'Invoices'];
const EMAIL_MODULES = ['Leads', 'Contacts', 'Accounts', 'Deals'];
const INVENTORY_CATEGORIES = ['favorite', 'created_by_me', 'shared_with_me', 'draft'];
const INVENTORY_SORT_BY = ['name', 'created_time', 'modified_time', 'last_usage_time'];

interface TemplateDoc {
	id: string;
	kind: 'email' | 'inventory';
	name: string;
	subject: string | null;
	description: string | null;
	module: string;
	folder: Json;
	content: string;
	editor_mode: 'rich_text' | 'plain_text';
	attachments: Json[];
	consent_linked: boolean;
	associated: boolean;
	favorite: boolean;
	draft: boolean;
	last_usage_time: string | null;
	created_by: string;
	modified_by: string;
	created_time: string;
	modified_time: string;
}

interface TemplateSeed {
	name: string;
	module: string;
	folder: string;
	subject?: string;
	description: string;
	body: string;
	/** first name of the demo user owning the template (the admin when absent) */
	owner?: string;
	favorite?: boolean;
	draft?: boolean;
	used?: boolean;
	attachments?: Array<{ file_name: string; size: number }>;
	plain?: boolean;
}

const EMAIL_SEEDS: TemplateSeed[] = [
	{
		name: 'Welcome New Lead',
		module: 'Leads',
		folder: 'Sales Templates',
		subject: 'Thanks for your interest, ${Leads.First Name}',
		description: 'First reply to a new lead',
		body: '<p>Hi ${Leads.First Name},</p><p>Thanks for reaching out to ${Organization.Company Name}. ${Users.First Name} will call you shortly.</p>',
		favorite: true,
		used: true,
	},
	{
		name: 'Trade Show Follow-up',
		module: 'Leads',
		folder: 'Marketing Templates',
		subject: 'Great meeting you at the show',
		description: 'Follow-up after a trade show, with the product brochure',
		body: '<p>Hello ${Leads.First Name},</p><p>It was great meeting you. Our brochure is attached.</p>',
		attachments: [{ file_name: 'product-brochure.pdf', size: 48213 }],
		owner: 'Maria',
	},
	{
		name: 'Lead Re-engagement',
		module: 'Leads',
		folder: 'Marketing Templates',
		subject: 'Still looking for a CRM?',
		description: 'Plain-text nudge for dormant leads',
		body: 'Hi ${Leads.First Name}, are you still evaluating CRM tools? Reply to this mail to book a demo.',
		plain: true,
	},
	{
		name: 'Meeting Confirmation',
		module: 'Contacts',
		folder: 'Sales Templates',
		subject: 'Our meeting on ${Events.Start DateTime}',
		description: 'Confirms a scheduled meeting',
		body: '<p>Dear ${Contacts.Last Name},</p><p>This confirms our meeting.</p>',
		used: true,
	},
	{
		name: 'Quarterly Business Review',
		module: 'Accounts',
		folder: 'Sales Templates',
		subject: 'Your quarterly business review',
		description: 'Invitation to the QBR',
		body: '<p>Hello ${Accounts.Account Name} team,</p><p>Let us schedule the quarterly review.</p>',
	},
	{
		name: 'Proposal Sent',
		module: 'Deals',
		folder: 'Sales Templates',
		subject: 'Proposal for ${Deals.Deal Name}',
		description: 'Cover mail of a proposal',
		body: '<p>Please find our proposal for ${Deals.Deal Name} (${Deals.Amount}) attached.</p>',
		attachments: [{ file_name: 'terms-and-conditions.pdf', size: 20511 }],
		favorite: true,
		used: true,
	},
	{
		name: 'Deal Won - Thank You',
		module: 'Deals',
		folder: 'Sales Templates',
		subject: 'Welcome aboard!',
		description: 'Sent when a deal is won',
		body: '<p>Thank you for choosing ${Organization.Company Name}.</p>',
	},
	{
		name: 'Project Kick-off',
		module: 'Projects',
		folder: 'Support Templates',
		subject: 'Kick-off of ${Projects.Project Name}',
		description: 'Announces a project kick-off',
		body: '<p>The project ${Projects.Project Name} starts on ${Projects.Start Date}.</p>',
	},
];

const INVENTORY_SEEDS: TemplateSeed[] = [
	{
		name: 'Standard Quote',
		module: 'Quotes',
		folder: 'Inventory Templates',
		description: 'Default quote layout',
		body: '<h1>Quote ${Quotes.Quote Number}</h1>${LineItems}',
		favorite: true,
		used: true,
	},
	{
		name: 'Quote - Compact',
		module: 'Quotes',
		folder: 'Inventory Templates',
		description: 'One-page quote without terms',
		body: '<h2>${Quotes.Subject}</h2>${LineItems}',
		owner: 'Maria',
	},
	{
		name: 'Quote - Draft Redesign',
		module: 'Quotes',
		folder: 'Inventory Templates',
		description: 'Work in progress',
		body: '<h1>${Quotes.Subject}</h1>',
		draft: true,
	},
	{
		name: 'Standard Sales Order',
		module: 'Sales_Orders',
		folder: 'Inventory Templates',
		description: 'Default sales order layout',
		body: '<h1>Sales Order ${Sales Orders.SO Number}</h1>${LineItems}',
		used: true,
	},
	{
		name: 'Standard Purchase Order',
		module: 'Purchase_Orders',
		folder: 'Inventory Templates',
		description: 'Default purchase order layout',
		body: '<h1>Purchase Order ${Purchase Orders.PO Number}</h1>${LineItems}',
	},
	{
		name: 'Standard Invoice',
		module: 'Invoices',
		folder: 'Inventory Templates',
		description: 'Default invoice layout',
		body: '<h1>Invoice ${Invoices.Invoice Number}</h1>${LineItems}',
		favorite: true,
		used: true,
	},
	{
		name: 'Invoice - Detailed',
		module: 'Invoices',
		folder: 'Inventory Templates',
		description: 'Invoice with tax breakdown',
		body: '<h1>Invoice</h1>${LineItems}${Taxes}',
		owner: 'James',
	},
];

const DAY = 86_400_000;

const collectionOf = (kind: TemplateDoc['kind']) =>
	kind === 'email' ? 'email_templates' : 'inventory_templates';

export function seedTemplates(sandbox: Sandbox): void {
	const { store } = sandbox;
	const folders = new Map<string, Json>();
	const folder = (name: string) => {
		if (!folders.has(name)) folders.set(name, { name, id: store.nextId() });
		return folders.get(name)!;
	};
	const now = sandbox.now();
	const all: Array<[TemplateSeed, 'email' | 'inventory']> = [
		...EMAIL_SEEDS.map((s) => [s, 'email'] as [TemplateSeed, 'email']),
		...INVENTORY_SEEDS.map((s) => [s, 'inventory'] as [TemplateSeed, 'inventory']),
	];
	all.forEach(([seed, kind], i) => {
		const id = store.nextId();
		const owner = seed.owner ? demoUserId(sandbox, seed.owner) : String(userRef(sandbox).id);
		// distinct, ordered times: later seeds were modified more recently
		const created = sandbox.formatTime(now - (60 - i) * DAY);
		const modified = sandbox.formatTime(now - (30 - i) * DAY);
		const doc: TemplateDoc = {
			id,
			kind,
			name: seed.name,
			subject: seed.subject ?? null,
			description: seed.description,
			module: seed.module,
			folder: folder(seed.folder),
			content: seed.body,
			editor_mode: seed.plain ? 'plain_text' : 'rich_text',
			attachments: (seed.attachments ?? []).map((a) => ({
				file_name: a.file_name,
				size: a.size,
				id: store.nextId(),
				file_id: `sandbox-${store.nextId()}`,
			})),
			consent_linked: false,
			associated: seed.used === true,
			favorite: seed.favorite === true,
			draft: seed.draft === true,
			last_usage_time: seed.used ? sandbox.formatTime(now - (10 - (i % 10)) * DAY) : null,
			created_by: owner,
			modified_by: owner,
			created_time: created,
			modified_time: modified,
		};
		store.putDoc(collectionOf(kind), id, doc);
	});
}

export function templateJson(sandbox: Sandbox, doc: TemplateDoc, full: boolean): Json {
	const module = storedModules(sandbox).find((m) => m.api_name === doc.module);
	const json: Json = {
		id: doc.id,
		name: doc.name,
		type: doc.kind === 'email' ? 'normal' : 'inventory',
		subject: doc.subject,
		description: doc.description,
		module: module ? moduleRef(module) : { api_name: doc.module },
		folder: doc.folder,
		editor_mode: doc.editor_mode,
		associated: doc.associated,
		favorite: doc.favorite,
		last_usage_time: doc.last_usage_time,
		created_by: userRef(sandbox, doc.created_by),
		modified_by: userRef(sandbox, doc.modified_by),
		created_time: doc.created_time,
		modified_time: doc.modified_time,
	};
	if (doc.kind === 'email') {
		json.attachments = doc.attachments;
		json.consent_linked = doc.consent_linked;
	} else {
		json.draft = doc.draft;
	}
	if (full) json.content = doc.content;
	return json;
}

export function templatesOf(sandbox: Sandbox, kind: TemplateDoc['kind']): TemplateDoc[] {
	return sandbox.store.docs<TemplateDoc>(collectionOf(kind));
}

export function supportedModule(ctx: Ctx, kind: TemplateDoc['kind']): StoredModule {
	const module = moduleParam(ctx);
	const supported =
		kind === 'inventory'
			? INVENTORY_MODULES.includes(module.api_name)
			: EMAIL_MODULES.includes(module.api_name) || module.generated_type === 'custom';
	if (!supported) {
		throw new HttpError(
			'FEATURE_NOT_SUPPORTED',
			{ api_name: module.api_name },
			`${kind} templates are not supported for the module`,
		);
	}
	return module;
}

/** `category`, `sort_by`, `sort_order` of the inventory-template reads; 400 PATTERN_NOT_MATCHED otherwise. */
export function inventoryQuery(ctx: Ctx): {
	category?: string;
	sortBy: string;
	sortOrder: 'asc' | 'desc';
} {
	const check = (name: string, allowed: string[]) => {
		const value = ctx.q(name);
		if (value !== undefined && !allowed.includes(value)) {
			throw new HttpError(
				'PATTERN_NOT_MATCHED',
				{ param_name: name },
				'Please check whether the input values are correct',
			);
		}
		return value;
	};
	const category = check('category', INVENTORY_CATEGORIES);
	const sortBy = check('sort_by', INVENTORY_SORT_BY) ?? 'modified_time';
	const sortOrder = (check('sort_order', ['asc', 'desc']) ?? 'desc') as 'asc' | 'desc';
	return { category, sortBy, sortOrder };
}

export function inCategory(
	doc: TemplateDoc,
	category: string | undefined,
	userId: string,
): boolean {
	switch (category) {
		case undefined:
			return true;
		case 'favorite':
			return doc.favorite;
		case 'created_by_me':
			return doc.created_by === userId;
		case 'shared_with_me':
			return doc.created_by !== userId && !doc.draft;
		case 'draft':
			return doc.draft;
		default:
			return false;
	}
}

export function sortTemplates(
	docs: TemplateDoc[],
	sortBy: string,
	order: 'asc' | 'desc',
): TemplateDoc[] {
	const key = (d: TemplateDoc) => String((d as unknown as Json)[sortBy] ?? '');
	const sorted = [...docs].sort((a, b) => {
		const ka = key(a);
		const kb = key(b);
		const cmp =
			sortBy === 'name'
				? ka.toLowerCase().localeCompare(kb.toLowerCase())
				: Date.parse(ka || '1970-01-01T00:00:00Z') - Date.parse(kb || '1970-01-01T00:00:00Z');
		return cmp || a.id.localeCompare(b.id);
	});
	return order === 'desc' ? sorted.reverse() : sorted;
}

export function findTemplate(
	sandbox: Sandbox,
	kind: TemplateDoc['kind'],
	id: string,
): TemplateDoc | undefined {
	return sandbox.store.doc<TemplateDoc>(collectionOf(kind), id);
}
