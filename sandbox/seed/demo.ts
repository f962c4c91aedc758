// Deterministic demo records for the sandbox (a few hundred; the organisation and its users are
// catalogue/org.ts).
// Records carry no id or audit fields (the store assigns them). A lookup to another demo record is
// written `{ "$ref": "<Module>:<index>" }` (index into that module's records in returned order);
// Owner is `{ id: '<user id>' }`. Referenced modules come first in the returned list.

import { findModule } from '../catalogue/modules.ts';
import { DEMO_USERS } from '../catalogue/org.ts';
import { prng } from '../prng.ts';

// ---------------------------------------------------------------------------
// Deterministic helpers

interface Gen {
	int(min: number, max: number): number;
	pick<T>(list: readonly T[]): T;
	chance(p: number): boolean;
}

function gen(seed: number): Gen {
	const next = prng(seed);
	return {
		int: (min, max) => min + Math.floor(next() * (max - min + 1)),
		pick: (list) => list[Math.floor(next() * list.length)],
		chance: (p) => next() < p,
	};
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const DAY = 86_400_000;
/** Reference instant for all demo dates: 2025-01-15T00:00:00Z. */
const BASE = Date.UTC(2025, 0, 15);

function dateStr(dayOffset: number): string {
	const d = new Date(BASE + dayOffset * DAY);
	return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

function dateTimeStr(dayOffset: number, hour: number, minute = 0): string {
	const d = new Date(BASE + dayOffset * DAY + (hour * 60 + minute) * 60_000);
	return (
		`${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
		`T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}+00:00`
	);
}

const ref = (module: string, index: number) => ({ $ref: `${module}:${index}` });

/** Owners are chosen among active users only. */
const ACTIVE_USERS = DEMO_USERS.filter((u) => u.status === 'active');

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');

// ---------------------------------------------------------------------------
// Name pools

const FIRST_NAMES = [
	'Olivia',
	'Liam',
	'Emma',
	'Noah',
	'Ava',
	'Elijah',
	'Sophia',
	'Lucas',
	'Isabella',
	'Mason',
	'Mia',
	'Ethan',
	'Amelia',
	'Logan',
	'Harper',
	'Aiden',
	'Evelyn',
	'Jackson',
	'Abigail',
	'Sebastian',
	'Emily',
	'Mateo',
	'Ella',
	'Henry',
	'Chloe',
	'Owen',
	'Grace',
	'Samuel',
	'Zoe',
	'Daniel',
	'Hannah',
	'Leo',
	'Aria',
	'Wyatt',
	'Nora',
	'Julian',
	'Lily',
	'Ravi',
	'Yuki',
	'Fatima',
];

const LAST_NAMES = [
	'Smith',
	'Johnson',
	'Williams',
	'Brown',
	'Jones',
	'Garcia',
	'Miller',
	'Davis',
	'Rodriguez',
	'Martinez',
	'Hernandez',
	'Lopez',
	'Gonzalez',
	'Wilson',
	'Anderson',
	'Thomas',
	'Taylor',
	'Moore',
	'Jackson',
	'Martin',
	'Lee',
	'Perez',
	'Thompson',
	'White',
	'Harris',
	'Sanchez',
	'Clark',
	'Ramirez',
	'Lewis',
	'Robinson',
	'Walker',
	'Young',
	'Allen',
	'King',
	'Wright',
	'Scott',
	'Nguyen',
	'Patel',
	'Kim',
	'Schmidt',
];

const ACCOUNT_NAMES = [
	'Acme Robotics',
	'Blue Harbor Logistics',
	'Cobalt Analytics',
	'Driftwood Media',
	'Evergreen Foods',
	'Falcon Aerospace',
	'Granite Construction Co',
	'Helix Biotech',
	'Ironclad Security',
	'Juniper Health',
	'Keystone Financial',
	'Lumen Energy',
	'Maple Leaf Retail',
	'Northwind Traders',
	'Orion Software',
	'Pinnacle Consulting',
	'Quantum Devices',
	'Redwood Manufacturing',
	'Summit Outdoor Gear',
	'Tidewater Shipping',
	'Umbra Design Studio',
	'Vertex Telecom',
	'Willow Education',
	'Xenon Labs',
	'Yellowstone Travel',
	'Zephyr Wind Power',
	'Atlas Insurance',
	'Beacon Hospitality',
	'Crescent Pharmaceuticals',
	'Delta Freight',
];

const LEAD_COMPANIES = [
	'Brightpath Solutions',
	'Coastal Dental Group',
	'Silverline Fitness',
	'Oakridge Legal',
	'Nimbus Cloud Services',
	'Harborview Realty',
	'Sparrow Marketing',
	'Trident Engineering',
	'Golden Gate Bakery',
	'Aurora Clinics',
	'Pioneer Agritech',
	'Metro Print House',
	'Riverbend Hotels',
	'Sterling Auto Parts',
	'Clearwater Utilities',
	'Foxglove Cosmetics',
	'Kestrel Drones',
	'Lighthouse Nonprofit',
	'Mosaic Architects',
	'Starlight Events',
];

const CITIES: Array<{ city: string; state: string; zip: string; country: string; street: string }> =
	[
		{
			city: 'Austin',
			state: 'TX',
			zip: '78701',
			country: 'United States',
			street: '500 Congress Ave',
		},
		{
			city: 'Seattle',
			state: 'WA',
			zip: '98101',
			country: 'United States',
			street: '1200 3rd Ave',
		},
		{ city: 'Boston', state: 'MA', zip: '02110', country: 'United States', street: '75 State St' },
		{
			city: 'Chicago',
			state: 'IL',
			zip: '60601',
			country: 'United States',
			street: '233 S Wacker Dr',
		},
		{
			city: 'Denver',
			state: 'CO',
			zip: '80202',
			country: 'United States',
			street: '1600 Glenarm Pl',
		},
		{ city: 'Toronto', state: 'ON', zip: 'M5H 2N2', country: 'Canada', street: '100 King St W' },
		{
			city: 'London',
			state: 'Greater London',
			zip: 'EC2V 7HH',
			country: 'United Kingdom',
			street: '1 Poultry',
		},
		{
			city: 'Berlin',
			state: 'Berlin',
			zip: '10117',
			country: 'Germany',
			street: 'Friedrichstrasse 68',
		},
		{
			city: 'Chennai',
			state: 'Tamil Nadu',
			zip: '600002',
			country: 'India',
			street: '12 Anna Salai',
		},
		{ city: 'Sydney', state: 'NSW', zip: '2000', country: 'Australia', street: '200 George St' },
	];

const TITLES = [
	'CEO',
	'CTO',
	'VP Sales',
	'Head of Marketing',
	'Procurement Manager',
	'IT Director',
	'Operations Manager',
	'Finance Controller',
	'Sales Manager',
	'Product Owner',
];
const DEPARTMENTS = [
	'Sales',
	'Marketing',
	'IT',
	'Finance',
	'Operations',
	'Procurement',
	'Executive',
];
const EMAIL_DOMAINS = ['example.com', 'example.org', 'example.net'];

/** Picklist values of a module field, without `-None-` (demo data always chooses a real value). */
function values(module: string, field: string): string[] {
	const def = findModule(module)?.fields.find((f) => f.api_name === field);
	return (def?.pick_list_values ?? []).filter((v) => v !== '-None-');
}

const phoneNo = (g: Gen) => `+1 ${g.int(201, 989)} 555 ${pad(g.int(0, 9999), 4)}`;

// ---------------------------------------------------------------------------
// Records

export function demoRecords(): Array<{ module: string; data: Record<string, unknown> }> {
	const g = gen(0x5eed1234);
	const out: Array<{ module: string; data: Record<string, unknown> }> = [];
	const counts: Record<string, number> = {};
	const push = (module: string, data: Record<string, unknown>) => {
		out.push({ module, data });
		counts[module] = (counts[module] ?? 0) + 1;
	};
	const owner = () => ({ id: g.pick(ACTIVE_USERS).id });

	// Unique person names shared by Contacts and Leads (emails unique across both).
	const usedNames = new Set<string>();
	const person = () => {
		for (;;) {
			const first = g.pick(FIRST_NAMES);
			const last = g.pick(LAST_NAMES);
			const key = `${first} ${last}`;
			if (!usedNames.has(key)) {
				usedNames.add(key);
				return { first, last };
			}
		}
	};

	// Accounts (30); the last five have a parent among the first five.
	const industries = values('Accounts', 'Industry');
	const accountTypes = values('Accounts', 'Account_Type');
	const ratings = values('Accounts', 'Rating');
	ACCOUNT_NAMES.forEach((name, i) => {
		const c = CITIES[i % CITIES.length];
		const data: Record<string, unknown> = {
			Owner: owner(),
			Account_Name: name,
			Account_Number: `AN-${10000 + i * 37}`,
			Phone: phoneNo(g),
			Website: `https://www.${slug(name)}.example`,
			Industry: g.pick(industries),
			Annual_Revenue: g.int(5, 500) * 100_000,
			Employees: g.int(10, 5000),
			Account_Type: i < 20 ? 'Customer' : g.pick(accountTypes),
			Rating: g.pick(ratings),
			Billing_Street: c.street,
			Billing_City: c.city,
			Billing_State: c.state,
			Billing_Code: c.zip,
			Billing_Country: c.country,
			External_Account_ID: `ACC-${pad(i + 1, 4)}`,
			Description: `${name} is a demo account headquartered in ${c.city}.`,
		};
		if (i >= 25) data.Parent_Account = ref('Accounts', i - 25);
		push('Accounts', data);
	});

	// Vendors (5)
	const vendorNames = [
		'Pacific Components',
		'Nordic Supply AB',
		'Sunrise Electronics',
		'Cedar Office Supply',
		'Vantage Cloud Hosting',
	];
	vendorNames.forEach((name, i) => {
		const c = CITIES[(i * 3) % CITIES.length];
		push('Vendors', {
			Owner: owner(),
			Vendor_Name: name,
			Email: `orders@${slug(name)}.example`,
			Phone: phoneNo(g),
			Website: `https://www.${slug(name)}.example`,
			Category: ['Hardware', 'Logistics', 'Electronics', 'Office', 'Hosting'][i],
			Street: c.street,
			City: c.city,
			State: c.state,
			Zip_Code: c.zip,
			Country: c.country,
		});
	});

	// Campaigns (10)
	const campaignTypes = values('Campaigns', 'Type');
	const campaignStatus = values('Campaigns', 'Status');
	const campaignNames = [
		'Spring Product Launch',
		'Summer Webinar Series',
		'Trade Show Expo 2025',
		'Partner Referral Push',
		'Customer Win-Back',
		'Year-End Promotion',
		'Analytics Roadshow',
		'Newsletter Q2',
		'Healthcare Vertical Drive',
		'Free Trial Nurture',
	];
	campaignNames.forEach((name, i) => {
		const start = -120 + i * 30;
		const budget = g.int(5, 60) * 1000;
		push('Campaigns', {
			Owner: owner(),
			Campaign_Name: name,
			Type: g.pick(campaignTypes),
			Status: start + 45 < 0 ? 'Complete' : start <= 0 ? 'Active' : g.pick(campaignStatus),
			Start_Date: dateStr(start),
			End_Date: dateStr(start + 45),
			Expected_Revenue: budget * g.int(3, 8),
			Budgeted_Cost: budget,
			Actual_Cost: start + 45 < 0 ? Math.round(budget * (0.8 + g.int(0, 40) / 100)) : 0,
			Expected_Response: g.int(5, 40),
			Num_sent: g.int(500, 20000),
			Description: `${name} campaign.`,
		});
	});

	// Contacts (60): two per account.
	const leadSources = values('Contacts', 'Lead_Source');
	for (let i = 0; i < 60; i++) {
		const { first, last } = person();
		const acc = i % ACCOUNT_NAMES.length;
		const c = CITIES[acc % CITIES.length];
		push('Contacts', {
			Owner: owner(),
			First_Name: first,
			Last_Name: last,
			Email: `${first.toLowerCase()}.${last.toLowerCase()}@${slug(ACCOUNT_NAMES[acc])}.example`,
			Phone: phoneNo(g),
			Mobile: phoneNo(g),
			Account_Name: ref('Accounts', acc),
			Title: g.pick(TITLES),
			Department: g.pick(DEPARTMENTS),
			Lead_Source: g.pick(leadSources),
			Date_of_Birth: dateStr(-365 * g.int(25, 60) - g.int(0, 364)),
			Email_Opt_Out: g.chance(0.1),
			Mailing_Street: c.street,
			Mailing_City: c.city,
			Mailing_State: c.state,
			Mailing_Zip: c.zip,
			Mailing_Country: c.country,
			External_Contact_ID: `CON-${pad(i + 1, 4)}`,
		});
	}

	// Leads (120)
	const leadStatus = values('Leads', 'Lead_Status');
	const leadIndustries = values('Leads', 'Industry');
	const leadRatings = values('Leads', 'Rating');
	const interests = values('Leads', 'Interests');
	for (let i = 0; i < 120; i++) {
		const { first, last } = person();
		const company = LEAD_COMPANIES[i % LEAD_COMPANIES.length];
		const c = CITIES[g.int(0, CITIES.length - 1)];
		const data: Record<string, unknown> = {
			Owner: owner(),
			First_Name: first,
			Last_Name: last,
			Company: company,
			Designation: g.pick(TITLES),
			Email: `${first.toLowerCase()}.${last.toLowerCase()}@${EMAIL_DOMAINS[i % EMAIL_DOMAINS.length]}`,
			Phone: phoneNo(g),
			Lead_Source: g.pick(leadSources),
			Lead_Status: g.pick(leadStatus),
			Industry: g.pick(leadIndustries),
			Annual_Revenue: g.int(1, 200) * 50_000,
			No_of_Employees: g.int(1, 2000),
			Rating: g.pick(leadRatings),
			Website: `https://www.${slug(company)}.example`,
			Email_Opt_Out: g.chance(0.08),
			Street: c.street,
			City: c.city,
			State: c.state,
			Zip_Code: c.zip,
			Country: c.country,
			External_Lead_ID: `LEAD-${pad(i + 1, 4)}`,
		};
		if (g.chance(0.6)) data.Mobile = phoneNo(g);
		if (g.chance(0.7)) data.Interests = interests.filter(() => g.chance(0.45));
		if (Array.isArray(data.Interests) && data.Interests.length === 0)
			data.Interests = [g.pick(interests)];
		if (g.chance(0.8)) data.Last_Contacted_Date = dateStr(-g.int(0, 180));
		if (g.chance(0.5))
			data.Follow_Up_Time = dateTimeStr(g.int(1, 60), g.int(8, 17), g.pick([0, 15, 30, 45]));
		if (i % 10 === 0) data.Description = `Met ${first} at a regional event; interested in a pilot.`;
		push('Leads', data);
	}

	// Products (20)
	const productCategories = values('Products', 'Product_Category');
	const manufacturers = values('Products', 'Manufacturer');
	const productNames = [
		'CRM Professional License',
		'CRM Enterprise License',
		'Analytics Add-on',
		'Support Plan Gold',
		'Support Plan Silver',
		'Onboarding Package',
		'Data Migration Service',
		'API Pack 100k',
		'Barcode Scanner X2',
		'Thermal Receipt Printer',
		'Point of Sale Terminal',
		'Rugged Tablet T10',
		'Wireless Headset H5',
		'Conference Camera C4',
		'Network Switch 24P',
		'Edge Router R2',
		'Cloud Backup 1TB',
		'Email Archiving',
		'Security Audit',
		'Training Day On-site',
	];
	productNames.forEach((name, i) => {
		push('Products', {
			Owner: owner(),
			Product_Name: name,
			Product_Code: `PRD-${pad(i + 1, 3)}`,
			Unit_Price: g.int(10, 500) * 10,
			Qty_in_Stock: i < 8 ? 0 : g.int(0, 4000) / 4,
			Product_Active: i !== 19,
			Product_Category:
				i < 8
					? i < 3
						? 'CRM Applications'
						: 'Software'
					: i < 16
						? 'Hardware'
						: g.pick(productCategories),
			Manufacturer: g.pick(manufacturers),
			Vendor_Name: ref('Vendors', i % vendorNames.length),
			Taxable: i >= 8,
			Sales_Start_Date: dateStr(-700 + i * 20),
			Description: `${name}.`,
		});
	});

	// Price books (3)
	[
		{ name: 'Standard Price Book', model: 'Flat', active: true },
		{ name: 'Partner Discount', model: 'Flat', active: true },
		{ name: 'Enterprise Volume', model: 'Differential', active: false },
	].forEach((p) => {
		push('Price_Books', {
			Owner: owner(),
			Price_Book_Name: p.name,
			Active: p.active,
			Pricing_Model: p.model,
			Description: `${p.name} (${p.model.toLowerCase()} pricing).`,
		});
	});

	// Deals (60): two per account, each linked to a contact of that account.
	const PROBABILITY: Record<string, number> = {
		Qualification: 10,
		'Needs Analysis': 20,
		'Value Proposition': 40,
		'Identify Decision Makers': 60,
		'Proposal/Price Quote': 75,
		'Negotiation/Review': 90,
		'Closed Won': 100,
		'Closed Lost': 0,
		'Closed-Lost to Competition': 0,
	};
	const stages = values('Deals', 'Stage');
	const dealTypes = values('Deals', 'Type');
	const dealOffers = ['Platform Rollout', 'Expansion'];
	for (let i = 0; i < 60; i++) {
		const acc = i % ACCOUNT_NAMES.length;
		const stage = g.pick(stages);
		const closed = stage.startsWith('Closed');
		const data: Record<string, unknown> = {
			Owner: owner(),
			Deal_Name: `${ACCOUNT_NAMES[acc]} - ${dealOffers[Math.floor(i / ACCOUNT_NAMES.length)]}`,
			Amount: g.int(5, 250) * 1000,
			Stage: stage,
			Closing_Date: dateStr(closed ? -g.int(1, 200) : g.int(1, 200)),
			Account_Name: ref('Accounts', acc),
			Contact_Name: ref('Contacts', acc + (g.chance(0.5) ? ACCOUNT_NAMES.length : 0)),
			Probability: PROBABILITY[stage] ?? 50,
			Type: g.pick(dealTypes),
			Lead_Source: g.pick(leadSources),
			Pipeline: i % 4 === 0 ? 'Enterprise' : 'Standard',
		};
		if (g.chance(0.4)) data.Campaign_Source = ref('Campaigns', g.int(0, campaignNames.length - 1));
		if (!closed)
			data.Next_Step = g.pick([
				'Send proposal',
				'Schedule demo',
				'Call decision maker',
				'Legal review',
			]);
		push('Deals', data);
	}

	// Quotes (5), Sales orders (4), Purchase orders (3), Invoices (4)
	const quoteStages = values('Quotes', 'Quote_Stage');
	const carriers = values('Quotes', 'Carrier');
	for (let i = 0; i < 5; i++) {
		const deal = i * 6;
		const acc = deal % ACCOUNT_NAMES.length;
		push('Quotes', {
			Owner: owner(),
			Subject: `Quote for ${ACCOUNT_NAMES[acc]}`,
			Quote_Stage: g.pick(quoteStages),
			Valid_Till: dateStr(30 + i * 7),
			Deal_Name: ref('Deals', deal),
			Account_Name: ref('Accounts', acc),
			Contact_Name: ref('Contacts', acc),
			Carrier: g.pick(carriers),
			Product_Details: [{ product: ref('Products', i), quantity: i + 1 }],
			Terms_and_Conditions: 'Net 30. Prices exclude taxes.\nValid for 30 days.',
		});
	}
	const orderStatus = values('Sales_Orders', 'Status');
	for (let i = 0; i < 4; i++) {
		const deal = i * 6;
		const acc = deal % ACCOUNT_NAMES.length;
		push('Sales_Orders', {
			Owner: owner(),
			Subject: `Order ${ACCOUNT_NAMES[acc]} 2025-${pad(i + 1, 3)}`,
			Status: g.pick(orderStatus),
			Due_Date: dateStr(14 + i * 10),
			Account_Name: ref('Accounts', acc),
			Quote_Name: ref('Quotes', i),
			Deal_Name: ref('Deals', deal),
			Customer_No: `CUST-${pad(acc + 1, 4)}`,
			Carrier: g.pick(carriers),
			Product_Details: [{ product: ref('Products', i), quantity: i + 1 }],
		});
	}
	for (let i = 0; i < 3; i++) {
		push('Purchase_Orders', {
			Owner: owner(),
			Subject: `Restock from ${vendorNames[i]}`,
			Vendor_Name: ref('Vendors', i),
			PO_Date: dateStr(-30 + i * 9),
			PO_Number: `PO-2025-${pad(i + 1, 3)}`,
			Status: g.pick(orderStatus),
			Due_Date: dateStr(i * 9),
			Tracking_Number: `1Z${pad(g.int(0, 99_999_999), 8)}`,
		});
	}
	for (let i = 0; i < 4; i++) {
		const acc = (i * 6) % ACCOUNT_NAMES.length;
		push('Invoices', {
			Owner: owner(),
			Subject: `Invoice ${ACCOUNT_NAMES[acc]} ${pad(i + 1, 3)}`,
			Invoice_Date: dateStr(-20 + i * 5),
			Due_Date: dateStr(10 + i * 5),
			Status: g.pick(orderStatus),
			Account_Name: ref('Accounts', acc),
			Sales_Order: ref('Sales_Orders', i),
			Product_Details: [{ product: ref('Products', i), quantity: i + 1 }],
		});
	}

	// Tasks (20)
	const taskStatus = values('Tasks', 'Status');
	const priorities = values('Tasks', 'Priority');
	const taskSubjects = [
		'Follow up call',
		'Send pricing sheet',
		'Prepare demo',
		'Renewal reminder',
		'Collect requirements',
	];
	for (let i = 0; i < 20; i++) {
		const contact = g.int(0, 59);
		push('Tasks', {
			Owner: owner(),
			Subject: `${taskSubjects[i % taskSubjects.length]} #${i + 1}`,
			Due_Date: dateStr(g.int(-10, 30)),
			Status: g.pick(taskStatus),
			Priority: g.pick(priorities),
			What_Id: ref('Accounts', contact % ACCOUNT_NAMES.length),
			Who_Id: ref('Contacts', contact),
			Send_Notification_Email: false,
		});
	}

	// Events (10)
	const venues = [
		'Head office',
		'Customer site',
		'Video call',
		'Conference room B',
		'Trade show booth',
	];
	for (let i = 0; i < 10; i++) {
		const contact = g.int(0, 59);
		const day = g.int(-15, 30);
		const hour = g.int(8, 16);
		push('Events', {
			Owner: owner(),
			Event_Title: `${['Kick-off', 'Quarterly review', 'Product demo', 'Contract signing', 'Workshop'][i % 5]} ${i + 1}`,
			Start_DateTime: dateTimeStr(day, hour),
			End_DateTime: dateTimeStr(day, hour + 1, 30),
			Venue: g.pick(venues),
			Participants: ACTIVE_USERS[i % ACTIVE_USERS.length].full_name,
			All_day: false,
			What_Id: ref('Accounts', contact % ACCOUNT_NAMES.length),
			Who_Id: ref('Contacts', contact),
		});
	}

	// Calls (10)
	const callTypes = values('Calls', 'Call_Type');
	const callPurposes = values('Calls', 'Call_Purpose');
	const callResults = values('Calls', 'Call_Result');
	for (let i = 0; i < 10; i++) {
		const contact = g.int(0, 59);
		const type = g.pick(callTypes);
		push('Calls', {
			Owner: owner(),
			Subject: `${type} call ${i + 1}`,
			Call_Type: type,
			Call_Start_Time: dateTimeStr(g.int(-30, 0), g.int(8, 17), g.pick([0, 10, 20, 30, 40, 50])),
			Call_Duration: type === 'Missed' ? '00:00' : `${pad(g.int(1, 45))}:${pad(g.int(0, 59))}`,
			Call_Purpose: g.pick(callPurposes),
			Call_Result: type === 'Missed' ? 'No response' : g.pick(callResults),
			What_Id: ref('Accounts', contact % ACCOUNT_NAMES.length),
			Who_Id: ref('Contacts', contact),
		});
	}

	// Cases (10)
	const caseStatus = values('Cases', 'Status');
	const casePriority = values('Cases', 'Priority');
	const caseOrigin = values('Cases', 'Case_Origin');
	const caseTypes = values('Cases', 'Type');
	const caseSubjects = [
		'Cannot log in after password reset',
		'Invoice shows wrong tax rate',
		'Printer not detected',
		'Request for bulk export feature',
		'Sync with mail client fails',
		'Slow dashboard loading',
		'How to add a new user?',
		'Scanner firmware update failed',
		'Duplicate records after import',
		'Question about license renewal',
	];
	caseSubjects.forEach((subject, i) => {
		const contact = g.int(0, 59);
		push('Cases', {
			Owner: owner(),
			Subject: subject,
			Status: g.pick(caseStatus),
			Priority: g.pick(casePriority),
			Case_Origin: g.pick(caseOrigin),
			Type: g.pick(caseTypes),
			Account_Name: ref('Accounts', contact % ACCOUNT_NAMES.length),
			Related_To: ref('Contacts', contact),
			Product_Name: ref('Products', i * 2),
			Email: `support.requester${i + 1}@example.com`,
			Description: `Customer reported: ${subject.toLowerCase()}.`,
		});
	});

	// Solutions (5)
	const solutions = [
		[
			'Resetting a locked account',
			'User is locked out after a password reset.',
			'Clear the session cache and reset the password again from the admin console.',
		],
		[
			'Correcting invoice tax rates',
			'Invoices show an outdated tax rate.',
			'Update the tax in Settings > Taxes and regenerate the invoice.',
		],
		[
			'Installing printer drivers',
			'The receipt printer is not detected.',
			'Install driver 4.2 and reconnect the USB cable.',
		],
		[
			'Fixing mail sync',
			'Mail client sync fails with an auth error.',
			'Re-authorise the mail integration and retry the sync.',
		],
		[
			'Merging duplicate records',
			'Import created duplicate records.',
			'Use the deduplication tool with Email as the match field.',
		],
	];
	solutions.forEach(([title, question, answer], i) => {
		push('Solutions', {
			Owner: owner(),
			Solution_Title: title,
			Status: i < 3 ? 'Published' : 'Draft',
			Question: question,
			Answer: answer,
			Product_Name: ref('Products', [0, 18, 9, 17, 1][i]),
			Published: i < 3,
		});
	});

	// Projects (5, custom module)
	const projectStatus = values('Projects', 'Status');
	[
		'Website Relaunch',
		'CRM Migration',
		'Warehouse Automation',
		'Security Hardening',
		'Data Warehouse',
	].forEach((name, i) => {
		push('Projects', {
			Owner: owner(),
			Name: name,
			Project_Code: `PRJ-${pad(i + 1, 3)}`,
			Budget: g.int(20, 300) * 1000,
			Start_Date: dateStr(-60 + i * 20),
			Status: projectStatus[i % projectStatus.length],
			Account: ref('Accounts', i * 5),
			Deadline_Time: dateTimeStr(90 + i * 30, 17),
			Is_Billable: i !== 3,
			Summary: `${name} for ${ACCOUNT_NAMES[i * 5]}.\nPhase 1 scoped.`,
		});
	});

	return out;
}
