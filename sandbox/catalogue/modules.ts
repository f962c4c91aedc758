// Module and field metadata of the sandbox CRM (data only, plus tiny lookup helpers).
// Watchable modules follow docs/protocol.md §9.1; duplicate-check fields follow §3.10.

type FieldDataType =
	| 'text'
	| 'textarea'
	| 'email'
	| 'phone'
	| 'website'
	| 'integer'
	| 'bigint'
	| 'double'
	| 'currency'
	| 'percent'
	| 'boolean'
	| 'date'
	| 'datetime'
	| 'picklist'
	| 'multiselectpicklist'
	| 'lookup'
	| 'ownerlookup'
	| 'userlookup'
	| 'autonumber'
	| 'fileupload'
	| 'imageupload'
	| 'profileimage'
	| 'subform'
	| 'formula';

export interface FieldDef {
	api_name: string;
	field_label: string;
	data_type: FieldDataType;
	/** Max chars for text-like fields (text 255, textarea 32000, email 100, phone 30, website 255). */
	length?: number;
	/** For double / currency / percent. */
	decimal_place?: number;
	/** Required on every API create (the service's system-mandatory fields, docs/protocol.md §3.10). */
	mandatory?: boolean;
	system_mandatory?: boolean;
	/**
	 * Marked required by the module's standard form layout only: reported by the layouts, never
	 * enforced on API writes (the real service does not apply layout rules to the API).
	 */
	layout_required?: boolean;
	unique?: boolean;
	/** External-ID field (usable in the X-EXTERNAL header). */
	external?: boolean;
	/** System fields such as Created_Time. */
	read_only?: boolean;
	custom_field?: boolean;
	/** picklist / multiselectpicklist values. */
	pick_list_values?: string[];
	/** Lookup target module API name; ownerlookup / userlookup target 'users'. */
	lookup_module?: string;
	/** Multi-line (cannot appear in COQL WHERE). */
	textarea?: boolean;
}

export interface ModuleDef {
	api_name: string;
	module_name: string;
	singular_label: string;
	plural_label: string;
	generated_type: 'default' | 'custom' | 'linking';
	creatable: boolean;
	editable: boolean;
	deletable: boolean;
	viewable: boolean;
	api_supported: boolean;
	convertable: boolean;
	watchable: boolean;
	display_field: string;
	duplicate_check_fields: string[];
	related_lists: Array<{
		api_name: string;
		display_label: string;
		module: string;
		lookup_field?: string;
	}>;
	fields: FieldDef[];
}

// ---------------------------------------------------------------------------
// Field builders

type FieldOpts = Omit<FieldDef, 'api_name' | 'field_label' | 'data_type'> & { label?: string };

const DEFAULT_LENGTH: Partial<Record<FieldDataType, number>> = {
	text: 255,
	textarea: 32000,
	email: 100,
	phone: 30,
	website: 255,
	picklist: 120,
	multiselectpicklist: 2000,
	autonumber: 255,
};

const DEFAULT_DECIMALS: Partial<Record<FieldDataType, number>> = {
	double: 2,
	currency: 2,
	percent: 2,
};

/** Builds a field definition, filling label, length and decimal defaults; only set flags appear. */
function fd(api_name: string, data_type: FieldDataType, opts: FieldOpts = {}): FieldDef {
	const { label, ...rest } = opts;
	const def: FieldDef = {
		api_name,
		field_label: label ?? api_name.replace(/_/g, ' '),
		data_type,
	};
	const length = rest.length ?? DEFAULT_LENGTH[data_type];
	if (length !== undefined) def.length = length;
	const decimals = rest.decimal_place ?? DEFAULT_DECIMALS[data_type];
	if (decimals !== undefined) def.decimal_place = decimals;
	if (rest.mandatory) def.mandatory = true;
	if (rest.system_mandatory) def.system_mandatory = true;
	if (rest.layout_required) def.layout_required = true;
	if (rest.unique) def.unique = true;
	if (rest.external) def.external = true;
	if (rest.read_only) def.read_only = true;
	def.custom_field = rest.custom_field === true;
	if (rest.pick_list_values) def.pick_list_values = [...rest.pick_list_values];
	if (rest.lookup_module) def.lookup_module = rest.lookup_module;
	if (rest.textarea || data_type === 'textarea') def.textarea = true;
	return def;
}

/** Mandatory standard field (system mandatory too). */
const req = (opts: FieldOpts = {}): FieldOpts => ({
	...opts,
	mandatory: true,
	system_mandatory: true,
});
/** Required by the form layout only (not through the API). */
const layoutReq = (opts: FieldOpts = {}): FieldOpts => ({ ...opts, layout_required: true });
const text = (api: string, opts: FieldOpts = {}) => fd(api, 'text', opts);
const area = (api: string, opts: FieldOpts = {}) => fd(api, 'textarea', opts);
const email = (api: string, opts: FieldOpts = {}) => fd(api, 'email', opts);
const phone = (api: string, opts: FieldOpts = {}) => fd(api, 'phone', opts);
const website = (api: string, opts: FieldOpts = {}) => fd(api, 'website', opts);
const int = (api: string, opts: FieldOpts = {}) => fd(api, 'integer', opts);
const dbl = (api: string, opts: FieldOpts = {}) => fd(api, 'double', opts);
const money = (api: string, opts: FieldOpts = {}) => fd(api, 'currency', opts);
const pct = (api: string, opts: FieldOpts = {}) => fd(api, 'percent', opts);
const bool = (api: string, opts: FieldOpts = {}) => fd(api, 'boolean', opts);
const date = (api: string, opts: FieldOpts = {}) => fd(api, 'date', opts);
const dt = (api: string, opts: FieldOpts = {}) => fd(api, 'datetime', opts);
const pick = (api: string, values: string[], opts: FieldOpts = {}) =>
	fd(api, 'picklist', { ...opts, pick_list_values: values });
const multi = (api: string, values: string[], opts: FieldOpts = {}) =>
	fd(api, 'multiselectpicklist', { ...opts, pick_list_values: values });
const lookup = (api: string, module: string | undefined, opts: FieldOpts = {}) =>
	fd(api, 'lookup', module ? { ...opts, lookup_module: module } : opts);
const autonum = (api: string, opts: FieldOpts = {}) =>
	fd(api, 'autonumber', { ...opts, read_only: true });
/**
 * Inventory line items (InventoryLineItems of the interface spec): system mandatory on quotes and
 * orders. Last in its module, so the ids of the fields before it (derived from positions) stay put.
 */
const lineItems = () => fd('Product_Details', 'subform', req({ label: 'Product Details' }));

/** System fields every module carries; `Description` only for standard modules (docs/protocol.md §3.10). */
function systemFields(ownerLabel: string, standard: boolean): FieldDef[] {
	const fields: FieldDef[] = [
		fd('id', 'bigint', { label: 'Record Id', read_only: true }),
		fd('Owner', 'ownerlookup', { label: ownerLabel, lookup_module: 'users' }),
		fd('Created_By', 'ownerlookup', {
			label: 'Created By',
			lookup_module: 'users',
			read_only: true,
		}),
		fd('Modified_By', 'ownerlookup', {
			label: 'Modified By',
			lookup_module: 'users',
			read_only: true,
		}),
		fd('Created_Time', 'datetime', { label: 'Created Time', read_only: true }),
		fd('Modified_Time', 'datetime', { label: 'Modified Time', read_only: true }),
		fd('Tag', 'text', { read_only: true }),
	];
	if (standard) fields.push(area('Description'));
	return fields;
}

// ---------------------------------------------------------------------------
// Shared picklists

const LEAD_SOURCE = [
	'-None-',
	'Advertisement',
	'Cold Call',
	'Employee Referral',
	'External Referral',
	'Online Store',
	'Partner',
	'Public Relations',
	'Sales Email Alias',
	'Seminar Partner',
	'Internal Seminar',
	'Trade Show',
	'Web Download',
	'Web Research',
	'Chat',
	'Web',
];

const LEAD_STATUS = [
	'-None-',
	'Attempted to Contact',
	'Contact in Future',
	'Contacted',
	'Junk Lead',
	'Lost Lead',
	'Not Contacted',
	'Pre-Qualified',
	'Not Qualified',
];

const INDUSTRY = [
	'-None-',
	'ASP (Application Service Provider)',
	'Data/Telecom OEM',
	'ERP (Enterprise Resource Planning)',
	'Government/Military',
	'Large Enterprise',
	'ManagementISV',
	'MSP (Management Service Provider)',
	'Network Equipment Enterprise',
	'Non-management ISV',
	'Optical Networking',
	'Service Provider',
	'Small/Medium Enterprise',
	'Storage Equipment',
	'Storage Service Provider',
	'Systems Integrator',
	'Wireless Industry',
];

const RATING = ['-None-', 'Acquired', 'Active', 'Market Failed', 'Project Cancelled', 'Shut Down'];

const ACCOUNT_TYPE = [
	'-None-',
	'Analyst',
	'Competitor',
	'Customer',
	'Distributor',
	'Integrator',
	'Investor',
	'Other',
	'Partner',
	'Press',
	'Prospect',
	'Reseller',
	'Vendor',
];

const DEAL_STAGE = [
	'Qualification',
	'Needs Analysis',
	'Value Proposition',
	'Identify Decision Makers',
	'Proposal/Price Quote',
	'Negotiation/Review',
	'Closed Won',
	'Closed Lost',
	'Closed-Lost to Competition',
];

const ORDER_STATUS = ['Created', 'Approved', 'Delivered', 'Cancelled'];
const CARRIER = ['FedEX', 'UPS', 'USPS', 'DHL', 'BlueDart'];

// ---------------------------------------------------------------------------
// Modules

type RelatedList = ModuleDef['related_lists'][number];

const notesAndAttachments: RelatedList[] = [
	{ api_name: 'Notes', display_label: 'Notes', module: 'Notes' },
	{ api_name: 'Attachments', display_label: 'Attachments', module: 'Attachments' },
];

const rl = (module: string, display_label: string, lookup_field?: string): RelatedList =>
	lookup_field
		? { api_name: module, display_label, module, lookup_field }
		: { api_name: module, display_label, module };

interface ModuleInput {
	api_name: string;
	singular_label: string;
	plural_label: string;
	display_field: string;
	owner_label: string;
	duplicate_check_fields?: string[];
	related_lists?: RelatedList[];
	fields: FieldDef[];
	custom?: boolean;
	convertable?: boolean;
	watchable?: boolean;
}

function mod(input: ModuleInput): ModuleDef {
	const custom = input.custom === true;
	return {
		api_name: input.api_name,
		module_name: input.api_name,
		singular_label: input.singular_label,
		plural_label: input.plural_label,
		generated_type: custom ? 'custom' : 'default',
		creatable: true,
		editable: true,
		deletable: true,
		viewable: true,
		api_supported: true,
		convertable: input.convertable === true,
		watchable: input.watchable !== false,
		display_field: input.display_field,
		duplicate_check_fields: input.duplicate_check_fields ?? [],
		related_lists: input.related_lists ?? [...notesAndAttachments],
		fields: [...systemFields(input.owner_label, !custom), ...input.fields],
	};
}

/** Custom-module field: flags custom_field. */
const cf = (def: FieldDef): FieldDef => ({ ...def, custom_field: true });

export const MODULES: ModuleDef[] = [
	mod({
		api_name: 'Leads',
		singular_label: 'Lead',
		plural_label: 'Leads',
		display_field: 'Last_Name',
		owner_label: 'Lead Owner',
		convertable: true,
		duplicate_check_fields: ['Email'],
		related_lists: [
			rl('Products', 'Products'),
			rl('Campaigns', 'Campaigns'),
			...notesAndAttachments,
		],
		fields: [
			text('First_Name', { label: 'First Name', length: 40 }),
			text('Last_Name', req({ label: 'Last Name', length: 80 })),
			text('Company', layoutReq()),
			text('Designation', { label: 'Title' }),
			email('Email', { unique: true }),
			phone('Phone'),
			phone('Mobile'),
			website('Website'),
			pick('Lead_Source', LEAD_SOURCE, { label: 'Lead Source' }),
			pick('Lead_Status', LEAD_STATUS, { label: 'Lead Status' }),
			pick('Industry', INDUSTRY),
			money('Annual_Revenue', { label: 'Annual Revenue' }),
			int('No_of_Employees', { label: 'No. of Employees' }),
			pick('Rating', RATING),
			bool('Email_Opt_Out', { label: 'Email Opt Out' }),
			multi('Interests', ['CRM', 'ERP', 'Analytics', 'Support']),
			date('Last_Contacted_Date', { label: 'Last Contacted Date' }),
			dt('Follow_Up_Time', { label: 'Follow Up Time' }),
			text('Street'),
			text('City', { length: 100 }),
			text('State', { length: 100 }),
			text('Zip_Code', { label: 'Zip Code', length: 30 }),
			text('Country', { length: 100 }),
			text('External_Lead_ID', {
				label: 'External Lead ID',
				external: true,
				unique: true,
				length: 100,
			}),
		],
	}),
	mod({
		api_name: 'Contacts',
		singular_label: 'Contact',
		plural_label: 'Contacts',
		display_field: 'Last_Name',
		owner_label: 'Contact Owner',
		duplicate_check_fields: ['Email'],
		related_lists: [
			rl('Deals', 'Deals', 'Contact_Name'),
			rl('Products', 'Products'),
			rl('Campaigns', 'Campaigns'),
			rl('Cases', 'Cases', 'Related_To'),
			rl('Tasks', 'Open Tasks', 'Who_Id'),
			...notesAndAttachments,
		],
		fields: [
			text('First_Name', { label: 'First Name', length: 40 }),
			text('Last_Name', req({ label: 'Last Name', length: 80 })),
			email('Email', { unique: true }),
			phone('Phone'),
			phone('Mobile'),
			lookup('Account_Name', 'Accounts', { label: 'Account Name' }),
			text('Title', { length: 100 }),
			text('Department', { length: 100 }),
			pick('Lead_Source', LEAD_SOURCE, { label: 'Lead Source' }),
			date('Date_of_Birth', { label: 'Date of Birth' }),
			bool('Email_Opt_Out', { label: 'Email Opt Out' }),
			text('Mailing_Street', { label: 'Mailing Street' }),
			text('Mailing_City', { label: 'Mailing City', length: 100 }),
			text('Mailing_State', { label: 'Mailing State', length: 100 }),
			text('Mailing_Zip', { label: 'Mailing Zip', length: 30 }),
			text('Mailing_Country', { label: 'Mailing Country', length: 100 }),
			text('External_Contact_ID', {
				label: 'External Contact ID',
				external: true,
				unique: true,
				length: 100,
			}),
		],
	}),
	mod({
		api_name: 'Accounts',
		singular_label: 'Account',
		plural_label: 'Accounts',
		display_field: 'Account_Name',
		owner_label: 'Account Owner',
		duplicate_check_fields: ['Account_Name'],
		related_lists: [
			rl('Contacts', 'Contacts', 'Account_Name'),
			rl('Deals', 'Deals', 'Account_Name'),
			rl('Products', 'Products'),
			rl('Quotes', 'Quotes', 'Account_Name'),
			rl('Sales_Orders', 'Sales Orders', 'Account_Name'),
			rl('Invoices', 'Invoices', 'Account_Name'),
			rl('Cases', 'Cases', 'Account_Name'),
			rl('Tasks', 'Open Tasks', 'What_Id'),
			rl('Projects', 'Projects', 'Account'),
			...notesAndAttachments,
		],
		fields: [
			text('Account_Name', req({ label: 'Account Name', unique: true })),
			text('Account_Number', { label: 'Account Number', length: 40 }),
			phone('Phone'),
			website('Website'),
			pick('Industry', INDUSTRY),
			money('Annual_Revenue', { label: 'Annual Revenue' }),
			int('Employees'),
			pick('Account_Type', ACCOUNT_TYPE, { label: 'Account Type' }),
			pick('Rating', RATING),
			text('Ticker_Symbol', { label: 'Ticker Symbol', length: 30 }),
			lookup('Parent_Account', 'Accounts', { label: 'Parent Account' }),
			text('Billing_Street', { label: 'Billing Street' }),
			text('Billing_City', { label: 'Billing City', length: 100 }),
			text('Billing_State', { label: 'Billing State', length: 100 }),
			text('Billing_Code', { label: 'Billing Code', length: 30 }),
			text('Billing_Country', { label: 'Billing Country', length: 100 }),
			text('External_Account_ID', {
				label: 'External Account ID',
				external: true,
				unique: true,
				length: 100,
			}),
		],
	}),
	mod({
		api_name: 'Deals',
		singular_label: 'Deal',
		plural_label: 'Deals',
		display_field: 'Deal_Name',
		owner_label: 'Deal Owner',
		duplicate_check_fields: ['Deal_Name'],
		related_lists: [
			// the contact-roles list: its records are Contacts, its name is Contact_Roles, and its path
			// /Deals/{id}/Contact_Roles resolves to the contact-roles operations (docs/protocol.md §3.10)
			{ api_name: 'Contact_Roles', display_label: 'Contact Roles', module: 'Contacts' },
			rl('Products', 'Products'),
			rl('Quotes', 'Quotes', 'Deal_Name'),
			...notesAndAttachments,
		],
		fields: [
			text('Deal_Name', req({ label: 'Deal Name', length: 120 })),
			money('Amount'),
			pick('Stage', DEAL_STAGE, req()),
			date('Closing_Date', layoutReq({ label: 'Closing Date' })),
			lookup('Account_Name', 'Accounts', layoutReq({ label: 'Account Name' })),
			lookup('Contact_Name', 'Contacts', { label: 'Contact Name' }),
			lookup('Campaign_Source', 'Campaigns', { label: 'Campaign Source' }),
			pct('Probability', { label: 'Probability (%)' }),
			money('Expected_Revenue', { label: 'Expected Revenue', read_only: true }),
			pick('Type', ['-None-', 'Existing Business', 'New Business']),
			pick('Lead_Source', LEAD_SOURCE, { label: 'Lead Source' }),
			pick('Pipeline', ['Standard', 'Enterprise']),
			text('Next_Step', { label: 'Next Step', length: 100 }),
		],
	}),
	mod({
		api_name: 'Tasks',
		singular_label: 'Task',
		plural_label: 'Tasks',
		display_field: 'Subject',
		owner_label: 'Task Owner',
		fields: [
			text('Subject', req()),
			date('Due_Date', { label: 'Due Date' }),
			pick('Status', ['Not Started', 'Deferred', 'In Progress', 'Completed', 'Waiting for input']),
			pick('Priority', ['High', 'Highest', 'Low', 'Lowest', 'Normal']),
			lookup('What_Id', 'Accounts', { label: 'Related To' }),
			lookup('Who_Id', 'Contacts', { label: 'Contact Name' }),
			bool('Send_Notification_Email', { label: 'Send Notification Email' }),
		],
	}),
	mod({
		api_name: 'Events',
		singular_label: 'Meeting',
		plural_label: 'Meetings',
		display_field: 'Event_Title',
		owner_label: 'Host',
		fields: [
			text('Event_Title', req({ label: 'Title' })),
			dt('Start_DateTime', req({ label: 'From' })),
			dt('End_DateTime', req({ label: 'To' })),
			text('Venue'),
			text('Participants'),
			bool('All_day', { label: 'All day' }),
			lookup('What_Id', 'Accounts', { label: 'Related To' }),
			lookup('Who_Id', 'Contacts', { label: 'Contact Name' }),
		],
	}),
	mod({
		api_name: 'Calls',
		singular_label: 'Call',
		plural_label: 'Calls',
		display_field: 'Subject',
		owner_label: 'Call Owner',
		fields: [
			text('Subject', req()),
			pick('Call_Type', ['Outbound', 'Inbound', 'Missed'], req({ label: 'Call Type' })),
			dt('Call_Start_Time', req({ label: 'Call Start Time' })),
			text('Call_Duration', { label: 'Call Duration', length: 10 }),
			pick(
				'Call_Purpose',
				['-None-', 'Prospecting', 'Administrative', 'Negotiation', 'Demo', 'Project', 'Desk'],
				{
					label: 'Call Purpose',
				},
			),
			pick(
				'Call_Result',
				[
					'-None-',
					'Interested',
					'Not interested',
					'No response',
					'Busy',
					'Requested more info',
					'Requested call back',
					'Invalid number',
				],
				{ label: 'Call Result' },
			),
			lookup('What_Id', 'Accounts', { label: 'Related To' }),
			lookup('Who_Id', 'Contacts', { label: 'Contact Name' }),
		],
	}),
	mod({
		api_name: 'Products',
		singular_label: 'Product',
		plural_label: 'Products',
		display_field: 'Product_Name',
		owner_label: 'Product Owner',
		duplicate_check_fields: ['Product_Name'],
		related_lists: [
			rl('Leads', 'Leads'),
			rl('Contacts', 'Contacts'),
			rl('Accounts', 'Accounts'),
			rl('Deals', 'Deals'),
			rl('Price_Books', 'Price Books'),
			...notesAndAttachments,
		],
		fields: [
			text('Product_Name', req({ label: 'Product Name', length: 120 })),
			text('Product_Code', { label: 'Product Code', length: 40 }),
			money('Unit_Price', { label: 'Unit Price' }),
			dbl('Qty_in_Stock', { label: 'Qty in Stock' }),
			bool('Product_Active', { label: 'Product Active' }),
			pick('Product_Category', ['-None-', 'Hardware', 'Software', 'CRM Applications', 'Services'], {
				label: 'Product Category',
			}),
			pick('Manufacturer', ['-None-', 'AltvetPet Inc.', 'LexPon Inc.', 'MetBeat Corp.']),
			lookup('Vendor_Name', 'Vendors', { label: 'Vendor Name' }),
			bool('Taxable'),
			date('Sales_Start_Date', { label: 'Sales Start Date' }),
		],
	}),
	mod({
		api_name: 'Vendors',
		singular_label: 'Vendor',
		plural_label: 'Vendors',
		display_field: 'Vendor_Name',
		owner_label: 'Vendor Owner',
		duplicate_check_fields: ['Vendor_Name'],
		related_lists: [
			rl('Products', 'Products', 'Vendor_Name'),
			rl('Purchase_Orders', 'Purchase Orders', 'Vendor_Name'),
			...notesAndAttachments,
		],
		fields: [
			text('Vendor_Name', req({ label: 'Vendor Name', length: 120 })),
			email('Email'),
			phone('Phone'),
			website('Website'),
			text('Category', { length: 100 }),
			text('Street'),
			text('City', { length: 100 }),
			text('State', { length: 100 }),
			text('Zip_Code', { label: 'Zip Code', length: 30 }),
			text('Country', { length: 100 }),
		],
	}),
	mod({
		api_name: 'Price_Books',
		singular_label: 'Price Book',
		plural_label: 'Price Books',
		display_field: 'Price_Book_Name',
		owner_label: 'Price Book Owner',
		duplicate_check_fields: ['Price_Book_Name'],
		related_lists: [rl('Products', 'Products'), ...notesAndAttachments],
		fields: [
			text('Price_Book_Name', req({ label: 'Price Book Name', length: 120 })),
			bool('Active'),
			pick('Pricing_Model', ['Flat', 'Differential'], { label: 'Pricing Model' }),
		],
	}),
	mod({
		api_name: 'Quotes',
		singular_label: 'Quote',
		plural_label: 'Quotes',
		display_field: 'Subject',
		owner_label: 'Quote Owner',
		related_lists: [rl('Sales_Orders', 'Sales Orders', 'Quote_Name'), ...notesAndAttachments],
		fields: [
			text('Subject', req()),
			pick(
				'Quote_Stage',
				['Draft', 'Negotiation', 'Delivered', 'On Hold', 'Confirmed', 'Closed Won', 'Closed Lost'],
				{
					label: 'Quote Stage',
				},
			),
			date('Valid_Till', { label: 'Valid Till' }),
			lookup('Deal_Name', 'Deals', { label: 'Deal Name' }),
			lookup('Account_Name', 'Accounts', layoutReq({ label: 'Account Name' })),
			lookup('Contact_Name', 'Contacts', { label: 'Contact Name' }),
			pick('Carrier', CARRIER),
			money('Sub_Total', { label: 'Sub Total', read_only: true }),
			money('Grand_Total', { label: 'Grand Total', read_only: true }),
			area('Terms_and_Conditions', { label: 'Terms and Conditions' }),
			lineItems(),
		],
	}),
	mod({
		api_name: 'Sales_Orders',
		singular_label: 'Sales Order',
		plural_label: 'Sales Orders',
		display_field: 'Subject',
		owner_label: 'Sales Order Owner',
		related_lists: [rl('Invoices', 'Invoices', 'Sales_Order'), ...notesAndAttachments],
		fields: [
			text('Subject', req()),
			pick('Status', ORDER_STATUS),
			date('Due_Date', { label: 'Due Date' }),
			lookup('Account_Name', 'Accounts', layoutReq({ label: 'Account Name' })),
			lookup('Quote_Name', 'Quotes', { label: 'Quote Name' }),
			lookup('Deal_Name', 'Deals', { label: 'Deal Name' }),
			text('Customer_No', { label: 'Customer No', length: 40 }),
			pick('Carrier', CARRIER),
			money('Grand_Total', { label: 'Grand Total', read_only: true }),
			lineItems(),
		],
	}),
	mod({
		api_name: 'Purchase_Orders',
		singular_label: 'Purchase Order',
		plural_label: 'Purchase Orders',
		display_field: 'Subject',
		owner_label: 'Purchase Order Owner',
		fields: [
			text('Subject', req()),
			lookup('Vendor_Name', 'Vendors', req({ label: 'Vendor Name' })),
			date('PO_Date', { label: 'PO Date' }),
			text('PO_Number', { label: 'PO Number', length: 40 }),
			pick('Status', ORDER_STATUS),
			date('Due_Date', { label: 'Due Date' }),
			text('Tracking_Number', { label: 'Tracking Number', length: 60 }),
			money('Grand_Total', { label: 'Grand Total', read_only: true }),
		],
	}),
	mod({
		api_name: 'Invoices',
		singular_label: 'Invoice',
		plural_label: 'Invoices',
		display_field: 'Subject',
		owner_label: 'Invoice Owner',
		fields: [
			text('Subject', req()),
			autonum('Invoice_Number', { label: 'Invoice Number' }),
			date('Invoice_Date', { label: 'Invoice Date' }),
			date('Due_Date', { label: 'Due Date' }),
			pick('Status', ORDER_STATUS),
			lookup('Account_Name', 'Accounts', layoutReq({ label: 'Account Name' })),
			lookup('Sales_Order', 'Sales_Orders', { label: 'Sales Order' }),
			money('Grand_Total', { label: 'Grand Total', read_only: true }),
			lineItems(),
		],
	}),
	mod({
		api_name: 'Campaigns',
		singular_label: 'Campaign',
		plural_label: 'Campaigns',
		display_field: 'Campaign_Name',
		owner_label: 'Campaign Owner',
		duplicate_check_fields: ['Campaign_Name'],
		related_lists: [
			rl('Leads', 'Leads'),
			rl('Contacts', 'Contacts'),
			rl('Deals', 'Deals', 'Campaign_Source'),
			...notesAndAttachments,
		],
		fields: [
			text('Campaign_Name', req({ label: 'Campaign Name', length: 120 })),
			pick('Type', [
				'-None-',
				'Telemarketing',
				'Advertisement',
				'Conference',
				'Webinar',
				'Public Relations',
				'Partners',
				'Referral Program',
				'Trade Show',
				'Banner Ads',
				'Direct mail',
				'Email',
				'Others',
			]),
			pick('Status', ['-None-', 'Planning', 'Active', 'Inactive', 'Complete']),
			date('Start_Date', { label: 'Start Date' }),
			date('End_Date', { label: 'End Date' }),
			money('Expected_Revenue', { label: 'Expected Revenue' }),
			money('Budgeted_Cost', { label: 'Budgeted Cost' }),
			money('Actual_Cost', { label: 'Actual Cost' }),
			int('Expected_Response', { label: 'Expected Response' }),
			int('Num_sent', { label: 'Numbers sent' }),
		],
	}),
	mod({
		api_name: 'Cases',
		singular_label: 'Case',
		plural_label: 'Cases',
		display_field: 'Subject',
		owner_label: 'Case Owner',
		duplicate_check_fields: ['Subject'],
		related_lists: [rl('Solutions', 'Solutions'), ...notesAndAttachments],
		fields: [
			autonum('Case_Number', { label: 'Case Number' }),
			text('Subject', req()),
			pick('Status', ['New', 'On Hold', 'Escalated', 'Closed'], req()),
			pick('Priority', ['-None-', 'High', 'Medium', 'Low']),
			pick('Case_Origin', ['Email', 'Phone', 'Web'], req({ label: 'Case Origin' })),
			pick('Type', ['-None-', 'Problem', 'Feature Request', 'Question']),
			lookup('Account_Name', 'Accounts', { label: 'Account Name' }),
			lookup('Related_To', 'Contacts', { label: 'Related To' }),
			lookup('Product_Name', 'Products', { label: 'Product Name' }),
			email('Email'),
			phone('Phone'),
		],
	}),
	mod({
		api_name: 'Solutions',
		singular_label: 'Solution',
		plural_label: 'Solutions',
		display_field: 'Solution_Title',
		owner_label: 'Solution Owner',
		duplicate_check_fields: ['Solution_Title'],
		related_lists: [rl('Cases', 'Cases'), ...notesAndAttachments],
		fields: [
			text('Solution_Title', req({ label: 'Solution Title' })),
			pick('Status', ['-None-', 'Draft', 'Reviewed', 'Published', 'Duplicate']),
			area('Question'),
			area('Answer'),
			lookup('Product_Name', 'Products', { label: 'Product Name' }),
			bool('Published'),
		],
	}),
	mod({
		api_name: 'Notes',
		singular_label: 'Note',
		plural_label: 'Notes',
		display_field: 'Note_Title',
		owner_label: 'Note Owner',
		watchable: false,
		related_lists: [],
		fields: [
			text('Note_Title', { label: 'Note Title' }),
			area('Note_Content', req({ label: 'Note Content' })),
			// Parent record of any module; `$se_module` names the module at runtime (not a field).
			lookup('Parent_Id', undefined, req({ label: 'Parent ID' })),
		],
	}),
	mod({
		api_name: 'Projects',
		singular_label: 'Project',
		plural_label: 'Projects',
		display_field: 'Name',
		owner_label: 'Project Owner',
		custom: true,
		related_lists: [...notesAndAttachments],
		fields: [
			text('Name', { label: 'Project Name', mandatory: true, length: 120 }),
			text('Project_Code', { label: 'Project Code', unique: true, external: true, length: 40 }),
			money('Budget'),
			date('Start_Date', { label: 'Start Date' }),
			pick('Status', ['Planned', 'Active', 'Done']),
			lookup('Account', 'Accounts'),
			dt('Deadline_Time', { label: 'Deadline Time' }),
			bool('Is_Billable', { label: 'Is Billable' }),
			area('Summary'),
		].map(cf),
	}),
];

const MODULE_INDEX = new Map<string, ModuleDef>(MODULES.map((m) => [m.api_name.toLowerCase(), m]));

/** Module by API name, case-insensitive (`leads` = `Leads`). */
export function findModule(apiName: string): ModuleDef | undefined {
	if (typeof apiName !== 'string') return undefined;
	return MODULE_INDEX.get(apiName.toLowerCase());
}
