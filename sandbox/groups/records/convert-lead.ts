import type { ModuleDef } from '../../catalogue/modules.ts';
import { HttpError } from '../../errors.ts';
import { createRecord, updateRecord } from '../../records.ts';
import type { ItemResult, WriteOptions } from '../../records.ts';
import { operation } from '../../router.ts';
import type { Json, StoredRecord } from '../../store.ts';
import { wrapperList } from '../../wire.ts';
import { idOf } from './shared.ts';

/** the notifications the notify_* options sent, one document each (GET /__sandbox/records/convert_notifications) */
export const CONVERT_NOTIFICATIONS = 'convert_notifications';

/** Lead fields carried to the new Contact and Account. */
const LEAD_TO_CONTACT: Record<string, string> = {
	First_Name: 'First_Name',
	Last_Name: 'Last_Name',
	Email: 'Email',
	Phone: 'Phone',
	Mobile: 'Mobile',
	Lead_Source: 'Lead_Source',
	Designation: 'Title',
	Email_Opt_Out: 'Email_Opt_Out',
	Street: 'Mailing_Street',
	City: 'Mailing_City',
	State: 'Mailing_State',
	Zip_Code: 'Mailing_Zip',
	Country: 'Mailing_Country',
};
const LEAD_TO_ACCOUNT: Record<string, string> = {
	Company: 'Account_Name',
	Phone: 'Phone',
	Website: 'Website',
	Industry: 'Industry',
	Annual_Revenue: 'Annual_Revenue',
	Rating: 'Rating',
	Street: 'Billing_Street',
	City: 'Billing_City',
	State: 'Billing_State',
	Zip_Code: 'Billing_Code',
	Country: 'Billing_Country',
};

function mapFields(lead: Json, mapping: Record<string, string>): Json {
	const out: Json = {};
	for (const [from, to] of Object.entries(mapping)) {
		const value = lead[from];
		if (value !== undefined && value !== null && value !== '') out[to] = value;
	}
	return out;
}

/** Throws the item error of a failed write as the request's 400 (ConvertLead is all-or-nothing). */
function must(result: ItemResult, target: string): StoredRecord {
	if (!result.ok)
		throw new HttpError(
			result.body.code,
			{ ...result.body.details, module: target },
			result.body.message,
		);
	return result.record;
}

/** ConvertLead: POST /crm/{v}/Leads/{id}/actions/convert (all or nothing) (docs/protocol.md §5.1). */
export const convertLead = operation(
	'POST',
	'/Leads/:id/actions/convert',
	{ scopes: [['CRM.modules.leads.CREATE']] },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const contacts = sandbox.module('Contacts')!;
		const accounts = sandbox.module('Accounts')!;
		const deals = sandbox.module('Deals')!;
		const [raw] = wrapperList(ctx, 'data', 1);
		if (!raw || typeof raw !== 'object' || Array.isArray(raw))
			throw HttpError.invalidData({ api_name: 'data' });
		const input = raw as Json;
		const lead = store.getRecord('Leads', ctx.params.id);
		if (!lead)
			throw HttpError.invalidData({ id: ctx.params.id }, 'the id given seems to be invalid');
		if (lead.$converted === true)
			throw new HttpError('ID_ALREADY_CONVERTED', { id: lead.id }, 'id already converted');
		for (const key of ['notify_lead_owner', 'notify_new_entity_owner', 'overwrite']) {
			if (input[key] !== undefined && typeof input[key] !== 'boolean')
				throw HttpError.invalidData({ api_name: key, expected_data_type: 'boolean' });
		}
		const actor = sandbox.user(ctx);
		const assignTo = idOf(input.assign_to);
		let owner = lead.Owner as Json | undefined;
		if (assignTo) {
			const user = store.doc<{ id: string; full_name: string; email: string }>('users', assignTo);
			if (!user)
				throw HttpError.invalidData(
					{ api_name: 'assign_to', id: assignTo },
					'the id given seems to be invalid',
				);
			owner = { id: user.id, name: user.full_name, email: user.email };
		}
		const o: WriteOptions = { v: ctx.v, user: actor, index: 0 };
		const withOwner = (fields: Json): Json =>
			owner ? { ...fields, Owner: { id: owner.id } } : fields;
		const overwrite = input.overwrite === true;

		const result = store.transaction(() => {
			// Account: the given one, else one named like the lead's company, else a new one
			let account: StoredRecord | undefined;
			const accountId = idOf(input.Accounts);
			if (accountId) {
				account = store.getRecord('Accounts', accountId);
				if (!account)
					throw HttpError.invalidData(
						{ api_name: 'Accounts', id: accountId },
						'the id given seems to be invalid',
					);
				if (overwrite) {
					const changes = mapFields(lead, LEAD_TO_ACCOUNT);
					delete changes.Account_Name;
					account = must(updateRecord(sandbox, accounts, account, changes, o), 'Accounts');
				}
			} else if (typeof lead.Company === 'string' && lead.Company.trim() !== '') {
				account =
					store.findRecordByText('Accounts', 'Account_Name', lead.Company) ??
					must(
						createRecord(sandbox, accounts, withOwner(mapFields(lead, LEAD_TO_ACCOUNT)), o),
						'Accounts',
					);
			}
			// Contact: the given one (overwritten on request), else a new one from the lead
			let contact: StoredRecord;
			const contactId = idOf(input.Contacts);
			const contactFields = mapFields(lead, LEAD_TO_CONTACT);
			if (account) contactFields.Account_Name = { id: account.id };
			if (contactId) {
				const existing = store.getRecord('Contacts', contactId);
				if (!existing)
					throw HttpError.invalidData(
						{ api_name: 'Contacts', id: contactId },
						'the id given seems to be invalid',
					);
				const linked = idOf(existing.Account_Name);
				if (accountId && linked && linked !== accountId) {
					throw new HttpError(
						'DATA_MISMATCH',
						{ api_name: 'Contacts', id: contactId },
						'contact or account id mismatched with the data',
					);
				}
				contact = overwrite
					? must(updateRecord(sandbox, contacts, existing, contactFields, o), 'Contacts')
					: existing;
			} else {
				contact = must(createRecord(sandbox, contacts, withOwner(contactFields), o), 'Contacts');
			}
			// Deal: only when the request carries Deals data
			let deal: StoredRecord | undefined;
			if (
				input.Deals &&
				typeof input.Deals === 'object' &&
				Object.keys(input.Deals as Json).length > 0
			) {
				const dealFields: Json = { ...(input.Deals as Json), Contact_Name: { id: contact.id } };
				if (account) dealFields.Account_Name = { id: account.id };
				deal = must(createRecord(sandbox, deals, withOwner(dealFields), o), 'Deals');
			}
			// carry_over_tags: the lead's tags named per target module move along
			const carry = (input.carry_over_tags ?? {}) as Json;
			const leadTags = Array.isArray(lead.Tag) ? (lead.Tag as Json[]) : [];
			const targets: Array<[string, ModuleDef, StoredRecord | undefined]> = [
				['Contacts', contacts, contact],
				['Accounts', accounts, account],
				['Deals', deals, deal],
			];
			for (const [key, module, record] of targets) {
				const wanted = carry[key];
				if (!record || !Array.isArray(wanted) || wanted.length === 0) continue;
				const names = new Set(
					wanted.map((w) =>
						String(
							typeof w === 'object' && w ? ((w as Json).name ?? (w as Json).id) : w,
						).toLowerCase(),
					),
				);
				const moved = leadTags.filter(
					(t) => names.has(String(t.name).toLowerCase()) || names.has(String(t.id).toLowerCase()),
				);
				if (moved.length === 0) continue;
				const current = store.getRecord(module.api_name, record.id)!;
				const tags = [...(Array.isArray(current.Tag) ? (current.Tag as Json[]) : [])];
				for (const t of moved)
					if (!tags.some((x) => String(x.name).toLowerCase() === String(t.name).toLowerCase()))
						tags.push(t);
				store.replaceRecord(
					module.api_name,
					{ ...current, Tag: tags },
					sandbox.now(),
					{ Tag: tags },
					{ v: ctx.v, silent: true },
				);
			}
			// the lead is marked converted (further updates answer CONVERTED_RECORD)
			const now = sandbox.now();
			const detail = {
				Contacts: contact.id,
				Accounts: account?.id ?? null,
				Deals: deal?.id ?? null,
				convert_time: sandbox.formatTime(now),
				converted_by: { id: actor.id, name: actor.name },
			};
			store.replaceRecord(
				'Leads',
				{
					...lead,
					$converted: true,
					$converted_detail: detail,
					Modified_Time: sandbox.formatTime(now),
					Modified_By: { id: actor.id, name: actor.name, email: actor.email },
				},
				now,
				{ $converted: true },
				{ v: ctx.v },
			);
			const notify = (kind: string, to: Json | undefined) => {
				if (!to) return;
				const id = store.nextId();
				store.putDoc(CONVERT_NOTIFICATIONS, id, {
					id,
					kind,
					lead_id: lead.id,
					to: { id: to.id, name: to.name },
					at: sandbox.formatTime(now),
				});
			};
			if (input.notify_lead_owner === true) notify('lead_owner', lead.Owner as Json | undefined);
			if (input.notify_new_entity_owner === true) notify('new_entity_owner', owner);
			return { Contacts: contact.id, Accounts: account?.id ?? null, Deals: deal?.id ?? null };
		});
		return { body: { data: [result] } };
	},
);
