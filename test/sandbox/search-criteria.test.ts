// Search criteria strings (docs/protocol.md §3.11) over HTTP: what SearchRecords and RecordCount
// match for each operator and field type, and the exact error of every malformed string. Both
// endpoints read the same criteria, so every case runs through both. The strings parse into the
// JSON criteria of §3.12 (sandbox/search-criteria.ts), checked and matched by sandbox/criteria.ts.
import { checkJsonCriteria } from '../../sandbox/criteria.ts';
import { parseSearchCriteria } from '../../sandbox/search-criteria.ts';
import type { SearchCondition } from '../../sandbox/search-criteria.ts';
import { useContractFixture } from '../harness/contract.ts';

const sb = useContractFixture({ scope: 'CRM.modules.ALL', sandbox: { demo: false } });

const ids: Record<string, string> = {};
let owner: { id: string; name: string };

/** The letters of the seeded leads a criteria string matches, through SearchRecords and RecordCount (they must agree). */
async function matching(criteria: string): Promise<string[]> {
	const search = await sb.call('GET', '/crm/v2.1/Leads/search', {
		query: { criteria, per_page: 200 },
	});
	const count = await sb.call('GET', '/crm/v2.1/Leads/actions/count', { query: { criteria } });
	expect(count.status).toBe(200);
	const found = search.status === 204 ? [] : (search.body.data as any[]).map((r) => r.id as string);
	expect(search.status).toBe(found.length === 0 ? 204 : 200);
	expect(count.body.count).toBe(found.length);
	return Object.keys(ids)
		.filter((letter) => found.includes(ids[letter]))
		.sort();
}

/** The 400 body both endpoints answer for a criteria string. */
async function rejected(criteria: string): Promise<any> {
	const search = await sb.call('GET', '/crm/v2.1/Leads/search', { query: { criteria } });
	const count = await sb.call('GET', '/crm/v2.1/Leads/actions/count', { query: { criteria } });
	expect(search.status).toBe(400);
	expect(count.status).toBe(400);
	expect(count.body).toEqual(search.body);
	return search.body;
}

beforeAll(async () => {
	const leads: Record<string, Record<string, unknown>> = {
		A: {
			Last_Name: 'Smith',
			First_Name: 'Bob',
			City: 'Berlin',
			Phone: '007',
			Annual_Revenue: 5000,
			No_of_Employees: 10,
			Last_Contacted_Date: '2024-01-05',
			Follow_Up_Time: '2024-03-01T10:00:00+01:00',
			Lead_Source: 'Advertisement',
			Interests: ['CRM', 'ERP'],
			Email_Opt_Out: true,
		},
		B: {
			Last_Name: 'smithers',
			First_Name: '',
			City: 'Bonn',
			Phone: '7',
			Annual_Revenue: 12000,
			No_of_Employees: 250,
			Last_Contacted_Date: '2023-12-31',
			Follow_Up_Time: '2024-03-01T09:00:00Z',
			Lead_Source: 'Partner',
			Interests: ['Analytics'],
			Email_Opt_Out: false,
		},
		C: { Last_Name: 'Jones, Jr. (II)', Designation: 'Cafe\u0301', Phone: '1e3' },
		D: { Last_Name: 'Nul', Annual_Revenue: 0, Designation: '${EMPTY}' },
	};
	for (const [letter, lead] of Object.entries(leads)) {
		const created = await sb.call('POST', '/crm/v2.1/Leads', { body: { data: [lead] } });
		expect(created.status).toBe(201);
		ids[letter] = created.body.data[0].details.id;
	}
	const read = await sb.call('GET', `/crm/v2.1/Leads/${ids.A}`, { query: { fields: 'Owner' } });
	owner = read.body.data[0].Owner;
});

describe('SearchRecords / RecordCount criteria: matching (§3.11)', () => {
	test('text: equals is case-insensitive and exact; starts_with is a case-insensitive prefix', async () => {
		expect(await matching('(Last_Name:equals:SMITH)')).toEqual(['A']);
		expect(await matching('(Last_Name:starts_with:smi)')).toEqual(['A', 'B']);
		// numeric-looking text is text: 007, 7 and 1e3 are three different phones
		expect(await matching('(Phone:equals:7)')).toEqual(['B']);
		expect(await matching('(Phone:equals:1000)')).toEqual([]);
		// no Unicode folding: a precomposed é does not equal e + combining accent
		expect(await matching('(Designation:equals:Café)')).toEqual([]);
		expect(await matching('(Designation:equals:Cafe\u0301)')).toEqual(['C']);
	});

	test('an empty value is a value: equals matches an empty text, not an absent one; starts_with matches any present text', async () => {
		expect(await matching('(First_Name:equals:)')).toEqual(['B']);
		expect(await matching('(First_Name:starts_with:)')).toEqual(['A', 'B']);
		// placeholders of JSON criteria are literal text here
		expect(await matching('(First_Name:equals:${EMPTY})')).toEqual([]);
		expect(await matching('(Designation:equals:${EMPTY})')).toEqual(['D']);
	});

	test('and / or (case-insensitive), groups evaluated left to right, whitespace around parts ignored', async () => {
		expect(await matching('((Last_Name:starts_with:Smi)and(City:starts_with:B))')).toEqual([
			'A',
			'B',
		]);
		expect(await matching('((Last_Name:starts_with:Smi)AND(City:equals:Bonn))')).toEqual(['B']);
		expect(await matching('((City:equals:Berlin)Or(Last_Name:equals:Nul))')).toEqual(['A', 'D']);
		// ((X or Y) and Z), not (X or (Y and Z))
		expect(
			await matching('((City:equals:Berlin)or(Last_Name:equals:smithers)and(City:equals:Bonn))'),
		).toEqual(['B']);
		expect(
			await matching(
				'(((City:equals:Berlin)or(City:equals:Bonn))and((Phone:equals:7)or(Phone:equals:1e3)))',
			),
		).toEqual(['B']);
		expect(await matching('  ( Last_Name : EQUALS :  Smith )  ')).toEqual(['A']);
		expect(await matching('((Last_Name:equals:Smith))')).toEqual(['A']);
	});

	test('comma-separated values: any of them; not_equal: none of them; backslash escapes', async () => {
		expect(await matching('(City:equals:Berlin,Bonn)')).toEqual(['A', 'B']);
		expect(await matching('(Last_Name:starts_with:jon,smithe)')).toEqual(['B', 'C']);
		expect(await matching('(Annual_Revenue:greater_than:100000,6000)')).toEqual(['B']);
		expect(await matching('(Annual_Revenue:not_equal:5000,12000)')).toEqual(['C', 'D']);
		expect(await matching('(Last_Name:equals:Jones\\, Jr. \\(II\\))')).toEqual(['C']);
		expect(await matching('(Last_Name:equals:Jones, Jr. \\(II\\))')).toEqual([]);
	});

	test('numbers compare numerically; an absent number matches only not_equal', async () => {
		expect(await matching('(Annual_Revenue:greater_equal:5000)')).toEqual(['A', 'B']);
		expect(await matching('(Annual_Revenue:less_than:12000)')).toEqual(['A', 'D']);
		expect(await matching('(Annual_Revenue:less_equal:12000.0)')).toEqual(['A', 'B', 'D']);
		expect(await matching('(Annual_Revenue:equals:5e3)')).toEqual(['A']);
		expect(await matching('(Annual_Revenue:not_equal:5000)')).toEqual(['B', 'C', 'D']);
		expect(await matching('(No_of_Employees:greater_than:9)')).toEqual(['A', 'B']);
		expect(await matching('(No_of_Employees:less_than:100)')).toEqual(['A']);
		// starts_with reads the number's digits
		expect(await matching('(Annual_Revenue:starts_with:50)')).toEqual(['A']);
		// an empty number is 0
		expect(await matching('(Annual_Revenue:equals:)')).toEqual(['D']);
	});

	test('dates and date-times compare chronologically (offsets honoured)', async () => {
		expect(await matching('(Last_Contacted_Date:greater_than:2023-12-31)')).toEqual(['A']);
		expect(await matching('(Last_Contacted_Date:less_equal:2023-12-31)')).toEqual(['B']);
		expect(await matching('(Last_Contacted_Date:equals:2024-01-05)')).toEqual(['A']);
		expect(await matching('(Follow_Up_Time:equals:2024-03-01T09:00:00Z)')).toEqual(['A', 'B']);
		expect(await matching('(Follow_Up_Time:equals:2024-03-01T11:00:00+02:00)')).toEqual(['A', 'B']);
		expect(await matching('(Follow_Up_Time:less_than:2024-03-01T10:00:00+01:00)')).toEqual([]);
		expect(await matching('(Follow_Up_Time:greater_equal:2024-03-01T08:59:59.500Z)')).toEqual([
			'A',
			'B',
		]);
	});

	test('lookups match by id or name, multi-selects by any entry, booleans by true / false', async () => {
		expect(await matching(`(Owner:equals:${owner.id})`)).toEqual(['A', 'B', 'C', 'D']);
		expect(await matching(`(Owner:equals:${owner.name.toUpperCase()})`)).toEqual([
			'A',
			'B',
			'C',
			'D',
		]);
		expect(await matching(`(Owner:starts_with:${owner.name.slice(0, 2)})`)).toEqual([
			'A',
			'B',
			'C',
			'D',
		]);
		expect(await matching('(Interests:equals:erp)')).toEqual(['A']);
		expect(await matching('(Interests:starts_with:ana)')).toEqual(['B']);
		expect(await matching('(Email_Opt_Out:equals:TRUE)')).toEqual(['A']);
		expect(await matching('(Email_Opt_Out:equals:false)')).toEqual(['B']);
		expect(await matching('(Lead_Source:equals:partner)')).toEqual(['B']);
	});
});

describe('SearchRecords / RecordCount criteria: errors (§3.11)', () => {
	const invalid = (details: Record<string, unknown>) => ({
		code: 'INVALID_QUERY',
		details,
		message: 'invalid query formed',
		status: 'error',
	});

	test('syntax: INVALID_QUERY with the reason and the position', async () => {
		expect(await rejected('Last_Name:equals:x')).toEqual(
			invalid({ reason: 'expected "(" at position 0' }),
		);
		expect(await rejected('(Last_Name:equals:x')).toEqual(
			invalid({ reason: 'expected ")" at position 19' }),
		);
		expect(await rejected('(Last_Name:equals:x))')).toEqual(
			invalid({ reason: 'unexpected text at position 20' }),
		);
		expect(await rejected('((Last_Name:equals:x)xor(City:equals:y))')).toEqual(
			invalid({ reason: 'expected ")" at position 21' }),
		);
		expect(await rejected('((Last_Name:equals:x)and)')).toEqual(
			invalid({ reason: 'expected ")" at position 21' }),
		);
		expect(await rejected('(Last_Name)')).toEqual(
			invalid({ reason: 'condition must be field:operator:value' }),
		);
		expect(await rejected('(Last_Name:equals)')).toEqual(
			invalid({ reason: 'condition must be field:operator:value', api_name: 'Last_Name' }),
		);
		// an empty criteria is no criteria: SearchRecords needs one, RecordCount counts all
		const search = await sb.call('GET', '/crm/v2.1/Leads/search', { query: { criteria: ' ' } });
		expect(search.body).toMatchObject({
			code: 'REQUIRED_PARAM_MISSING',
			details: { param_name: 'criteria' },
		});
		expect(
			(await sb.call('GET', '/crm/v2.1/Leads/actions/count', { query: { criteria: ' ' } })).body,
		).toEqual({ count: 4 });
	});

	test('fields, operators and values: INVALID_QUERY naming the field', async () => {
		expect(await rejected('(Nope:equals:x)')).toEqual(
			invalid({ reason: 'invalid field', api_name: 'Nope' }),
		);
		expect(await rejected('(last_name:equals:x)')).toEqual(
			invalid({ reason: 'invalid field', api_name: 'last_name' }),
		);
		expect(await rejected('(Last_Name:contains:x)')).toEqual(
			invalid({
				reason: 'operator not supported for the field',
				api_name: 'Last_Name',
				operator: 'contains',
			}),
		);
		expect(await rejected('(Last_Name:Greater_Than:x)')).toEqual(
			invalid({
				reason: 'operator not supported for the field',
				api_name: 'Last_Name',
				operator: 'greater_than',
			}),
		);
		expect(await rejected('(Owner:not_equal:x)')).toEqual(
			invalid({
				reason: 'operator not supported for the field',
				api_name: 'Owner',
				operator: 'not_equal',
			}),
		);
		expect(await rejected('(Annual_Revenue:equal:1)')).toEqual(
			invalid({
				reason: 'operator not supported for the field',
				api_name: 'Annual_Revenue',
				operator: 'equal',
			}),
		);
		expect(await rejected('(Annual_Revenue:equals:abc)')).toEqual(
			invalid({ reason: 'invalid value', api_name: 'Annual_Revenue' }),
		);
		expect(await rejected('(Annual_Revenue:equals:1,x)')).toEqual(
			invalid({ reason: 'invalid value', api_name: 'Annual_Revenue' }),
		);
		expect(await rejected('(Last_Contacted_Date:equals:2024-02-30)')).toEqual(
			invalid({ reason: 'invalid date value', api_name: 'Last_Contacted_Date' }),
		);
		expect(await rejected('(Follow_Up_Time:equals:2024-03-01)')).toEqual(
			invalid({ reason: 'invalid datetime value', api_name: 'Follow_Up_Time' }),
		);
	});

	test('more than 10 conditions: LIMIT_EXCEEDED; errors are reported in the order of the text', async () => {
		const conditions = (n: number, last = '(Last_Name:equals:z)') => [
			...Array.from({ length: n - 1 }, (_, i) => `(Last_Name:equals:A${i})`),
			last,
		];
		const limit = {
			code: 'LIMIT_EXCEEDED',
			details: { limit: 10, api_name: 'criteria' },
			message: 'criteria limit exceeded',
			status: 'error',
		};
		expect(await matching(`(${conditions(10).join('or')})`)).toEqual([]);
		expect(await rejected(`(${conditions(11).join('or')})`)).toEqual(limit);
		// the 11th condition is counted before it is read
		expect(await rejected(`(${conditions(11, '(Nope)').join('or')})`)).toEqual(limit);
		expect(await rejected(`(${conditions(11, '(Nope:equals:x)').join('or')}`)).toEqual(limit);
		// an earlier bad condition wins over a later limit or syntax error
		expect(await rejected(`((Nope:equals:x)or${conditions(11).join('or')})`)).toEqual(
			invalid({ reason: 'invalid field', api_name: 'Nope' }),
		);
		expect(await rejected('((Last_Name:equals:a)and(Nope:equals:b)')).toEqual(
			invalid({ reason: 'invalid field', api_name: 'Nope' }),
		);
	});

	test('criteria with email, phone or word: INVALID_QUERY', async () => {
		const both = await sb.call('GET', '/crm/v2.1/Leads/search', {
			query: { criteria: '(Last_Name:equals:Smith)', email: 'a@b.c' },
		});
		expect(both.status).toBe(400);
		expect(both.body).toEqual(
			invalid({ reason: 'only one of criteria, email, phone, word is allowed' }),
		);
	});
});

describe('search strings parse into JSON criteria (§3.11 → §3.12)', () => {
	const fail = (problem: { message: string }) => new Error(problem.message);
	const parse = (criteria: string) =>
		parseSearchCriteria(criteria, { typeCondition: (c) => c.values, fail });

	test('operators become comparators; several values in / not_in / an or of leaves; and/or chains one group', () => {
		const tree = parse(
			'((A:equals:x)and(B:Starts_With:y)AND((C:equals:1,2)or(D:not_equal:3,4)or(E:greater_than:5,6)))',
		);
		expect(tree).toEqual({
			group_operator: 'and',
			group: [
				{ field: 'A', comparator: 'equal', value: 'x' },
				{ field: 'B', comparator: 'starts_with', value: 'y' },
				{
					group_operator: 'or',
					group: [
						{ field: 'C', comparator: 'in', value: ['1', '2'] },
						{ field: 'D', comparator: 'not_in', value: ['3', '4'] },
						{
							group_operator: 'or',
							group: [
								{ field: 'E', comparator: 'greater_than', value: '5' },
								{ field: 'E', comparator: 'greater_than', value: '6' },
							],
						},
					],
				},
			],
		});
		expect(
			checkJsonCriteria(tree, { fields: ['A', 'B', 'C', 'D', 'E'], maxConditions: 7 }),
		).toBeUndefined();
	});

	test('mixed and / or nest to the left; the typer sees each condition in text order', () => {
		const seen: string[] = [];
		const typeCondition = (c: SearchCondition) => {
			seen.push(`${c.api_name}:${c.operator}:${c.values.join('|')}`);
			return c.values;
		};
		const tree = parseSearchCriteria('((A:equals:1)or(B:equals:2)and(C:equals: a\\\\b\\,c ,d))', {
			typeCondition,
			fail,
		});
		expect(seen).toEqual(['A:equals:1', 'B:equals:2', 'C:equals:a\\b,c|d']);
		expect(tree).toEqual({
			group_operator: 'and',
			group: [
				{
					group_operator: 'or',
					group: [
						{ field: 'A', comparator: 'equal', value: '1' },
						{ field: 'B', comparator: 'equal', value: '2' },
					],
				},
				{ field: 'C', comparator: 'in', value: ['a\\b,c', 'd'] },
			],
		});
	});
});
