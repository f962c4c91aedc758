// The fixed organisation of the sandbox CRM and its users (seeded on every first start, demo or
// not): the ids, roles and profiles other data and groups refer to.

interface DemoUser {
	id: string;
	first_name: string;
	last_name: string;
	full_name: string;
	email: string;
	role: { name: string; id: string };
	profile: { name: string; id: string };
	status: 'active' | 'disabled';
	confirm: boolean;
	time_zone: string;
}

interface DemoOrg {
	id: string;
	company_name: string;
	xgid: string;
	time_zone: string;
	currency: string;
	iso_code: string;
	primary_email: string;
	country: string;
	city: string;
	phone: string;
	website: string;
	domain_name: string;
	license_details: { paid: boolean; paid_type: string; users_license_purchased: number };
}

export const DEMO_ORG: DemoOrg = {
	id: '4876876000000000001',
	company_name: 'Sandbox Industries',
	xgid: '4876876000000000002',
	time_zone: 'UTC',
	currency: 'USD',
	iso_code: 'USD',
	primary_email: 'admin@sandbox.example',
	country: 'United States',
	city: 'Austin',
	phone: '+1 512 555 0100',
	website: 'https://www.sandbox.example',
	domain_name: 'org4876876',
	license_details: { paid: true, paid_type: 'enterprise', users_license_purchased: 10 },
};

const ROLE_CEO = { name: 'CEO', id: '4876876000000026005' };
const ROLE_MANAGER = { name: 'Manager', id: '4876876000000026008' };
const ROLE_SALES_REP = { name: 'Sales Rep', id: '4876876000000026011' };
const PROFILE_ADMIN = { name: 'Administrator', id: '4876876000000026014' };
const PROFILE_STANDARD = { name: 'Standard', id: '4876876000000026017' };

function user(
	id: string,
	first_name: string,
	last_name: string,
	email: string,
	role: { name: string; id: string },
	profile: { name: string; id: string },
	status: 'active' | 'disabled' = 'active',
): DemoUser {
	return {
		id,
		first_name,
		last_name,
		full_name: `${first_name} ${last_name}`,
		email,
		role: { ...role },
		profile: { ...profile },
		status,
		confirm: status === 'active',
		time_zone: 'UTC',
	};
}

export const DEMO_USERS: DemoUser[] = [
	user('4876876000000225013', 'Sandbox', 'Admin', 'admin@sandbox.example', ROLE_CEO, PROFILE_ADMIN),
	user(
		'4876876000000225021',
		'Maria',
		'Lopez',
		'maria.lopez@sandbox.example',
		ROLE_MANAGER,
		PROFILE_ADMIN,
	),
	user(
		'4876876000000225029',
		'James',
		'Carter',
		'james.carter@sandbox.example',
		ROLE_SALES_REP,
		PROFILE_STANDARD,
	),
	user(
		'4876876000000225037',
		'Priya',
		'Natarajan',
		'priya.natarajan@sandbox.example',
		ROLE_SALES_REP,
		PROFILE_STANDARD,
	),
	user(
		'4876876000000225045',
		'Tom',
		'Becker',
		'tom.becker@sandbox.example',
		ROLE_SALES_REP,
		PROFILE_STANDARD,
		'disabled',
	),
];
