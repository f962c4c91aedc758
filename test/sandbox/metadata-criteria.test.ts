// Unit tests of the pure JSON-criteria matcher and checker (docs/protocol.md §3.12), sandbox/criteria.ts.
import {
	COMPARATORS,
	checkJsonCriteria,
	criteriaFields,
	criteriaLeaves,
	matchJsonCriteria,
} from '../../sandbox/criteria.ts';

const deal = {
	id: '4876876000000611001',
	Deal_Name: 'Acme Renewal',
	Amount: 125000,
	Probability: '40',
	Stage: 'Needs Analysis',
	Closing_Date: '2025-02-14',
	Created_Time: '2025-01-10T09:30:00+05:30',
	Email_Opt_Out: false,
	Interests: ['CRM', 'Analytics'],
	Owner: { id: '4876876000000225013', name: 'Sandbox Admin', email: 'admin@sandbox.example' },
	Account_Name: { id: '4876876000000611500', name: 'Acme Corp' },
	Description: null,
	Next_Step: '',
};

const leaf = (field: string, comparator: string, value: unknown) => ({ field, comparator, value });
const match = (criteria: unknown, options = {}) => matchJsonCriteria(deal, criteria, options);

describe('matchJsonCriteria: comparators', () => {
	it.each([
		['equal text, case-insensitive', leaf('Stage', 'equal', 'needs analysis'), true],
		['equal text, other value', leaf('Stage', 'equal', 'Qualification'), false],
		['not_equal', leaf('Stage', 'not_equal', 'Qualification'), true],
		['in', leaf('Stage', 'in', ['Qualification', 'Needs Analysis']), true],
		['not_in', leaf('Stage', 'not_in', ['Qualification', 'Needs Analysis']), false],
		['contains', leaf('Deal_Name', 'contains', 'renew'), true],
		['not_contains', leaf('Deal_Name', 'not_contains', 'renew'), false],
		['starts_with', leaf('Deal_Name', 'starts_with', 'ACME'), true],
		['ends_with', leaf('Deal_Name', 'ends_with', 'renewal'), true],
		['ends_with, no', leaf('Deal_Name', 'ends_with', 'acme'), false],
		['greater_than number', leaf('Amount', 'greater_than', 100000), true],
		['greater_than numeric string', leaf('Amount', 'greater_than', '200000'), false],
		['less_than on a numeric-text field', leaf('Probability', 'less_than', 50), true],
		['less_equal boundary', leaf('Amount', 'less_equal', 125000), true],
		['greater_equal boundary', leaf('Amount', 'greater_equal', 125000), true],
		['between inclusive', leaf('Amount', 'between', [125000, 200000]), true],
		['between outside', leaf('Amount', 'between', [1, 10]), false],
		['not_between', leaf('Amount', 'not_between', [1, 10]), true],
		['date less_than', leaf('Closing_Date', 'less_than', '2025-03-01'), true],
		['date between', leaf('Closing_Date', 'between', ['2025-01-01', '2025-03-31']), true],
		[
			'datetime with offset compares chronologically',
			leaf('Created_Time', 'less_than', '2025-01-10T04:00:01Z'),
			true,
		],
		[
			'datetime with offset, later bound',
			leaf('Created_Time', 'greater_than', '2025-01-10T04:00:01Z'),
			false,
		],
		['boolean false equals false', leaf('Email_Opt_Out', 'equal', false), true],
		['boolean equals "false" text', leaf('Email_Opt_Out', 'equal', 'false'), true],
		['boolean not true', leaf('Email_Opt_Out', 'equal', true), false],
	])('%s', (_name, criterion, expected) => {
		expect(match(criterion)).toBe(expected);
	});

	it('knows exactly the 14 comparators of §3.12', () => {
		expect([...COMPARATORS].sort()).toEqual(
			[
				'equal',
				'not_equal',
				'in',
				'not_in',
				'less_than',
				'less_equal',
				'greater_than',
				'greater_equal',
				'contains',
				'not_contains',
				'starts_with',
				'ends_with',
				'between',
				'not_between',
			].sort(),
		);
	});
});

describe('matchJsonCriteria: value kinds', () => {
	it('lookups and owners match by id, by name, or by an {id} value', () => {
		expect(match(leaf('Owner', 'equal', '4876876000000225013'))).toBe(true);
		expect(match(leaf('Owner', 'equal', { id: '4876876000000225013' }))).toBe(true);
		expect(match(leaf('Account_Name', 'equal', 'acme corp'))).toBe(true);
		expect(match(leaf('Account_Name', 'in', [{ id: '1' }, { id: '4876876000000611500' }]))).toBe(
			true,
		);
		expect(match(leaf('Owner', 'not_equal', '4876876000000225013'))).toBe(false);
		// 19-digit ids differ beyond 2^53: compared exactly, never as rounded numbers
		expect(match(leaf('Owner', 'equal', '4876876000000225021'))).toBe(false);
		expect(match(leaf('id', 'greater_than', '4876876000000611000'))).toBe(true);
		expect(match(leaf('id', 'less_than', '4876876000000611002'))).toBe(true);
	});

	it('multi-select lists match when any element matches; negations when none does', () => {
		expect(match(leaf('Interests', 'equal', 'CRM'))).toBe(true);
		expect(match(leaf('Interests', 'in', ['ERP', 'Analytics']))).toBe(true);
		expect(match(leaf('Interests', 'not_in', ['ERP', 'Support']))).toBe(true);
		expect(match(leaf('Interests', 'not_equal', 'CRM'))).toBe(false);
		expect(match(leaf('Interests', 'contains', 'lyt'))).toBe(true);
	});

	it('empty values: equal null / "" / ${EMPTY}; negations hold; ordering never matches', () => {
		for (const empty of [null, '', '${EMPTY}']) {
			expect(match(leaf('Description', 'equal', empty))).toBe(true);
			expect(match(leaf('Next_Step', 'equal', empty))).toBe(true);
			expect(match(leaf('Missing_Field', 'equal', empty))).toBe(true);
			expect(match(leaf('Deal_Name', 'equal', empty))).toBe(false);
			expect(match(leaf('Deal_Name', 'not_equal', empty))).toBe(true);
		}
		expect(match(leaf('Description', 'not_equal', 'x'))).toBe(true);
		expect(match(leaf('Description', 'not_contains', 'x'))).toBe(true);
		expect(match(leaf('Description', 'greater_than', 0))).toBe(false);
		expect(match(leaf('Description', 'less_than', 'zzz'))).toBe(false);
		expect(match(leaf('Description', 'between', [0, 10]))).toBe(false);
		expect(match(leaf('Description', 'in', ['a', null]))).toBe(true);
	});

	it('${CURRENTUSER} stands for the given user id', () => {
		const mine = leaf('Owner', 'equal', '${CURRENTUSER}');
		expect(match(mine, { currentUserId: '4876876000000225013' })).toBe(true);
		expect(match(mine, { currentUserId: '4876876000000225021' })).toBe(false);
		expect(match(mine)).toBe(false);
	});

	it('field given as {api_name, id} (custom views) or api_name (bulk read)', () => {
		expect(
			match({
				field: { api_name: 'Stage', id: '4876876000218750004' },
				comparator: 'equal',
				value: 'Needs Analysis',
			}),
		).toBe(true);
		expect(match({ api_name: 'Amount', comparator: 'greater_than', value: 5 })).toBe(true);
	});
});

describe('matchJsonCriteria: groups and lists', () => {
	const open = leaf('Stage', 'not_in', ['Closed Won', 'Closed Lost']);
	const big = leaf('Amount', 'greater_than', 500000);
	it('and / or groups nest; group_operator is case-insensitive', () => {
		expect(match({ group_operator: 'and', group: [open, big] })).toBe(false);
		expect(match({ group_operator: 'OR', group: [open, big] })).toBe(true);
		expect(
			match({
				group_operator: 'and',
				group: [
					open,
					{ group_operator: 'or', group: [big, leaf('Deal_Name', 'starts_with', 'Acme')] },
				],
			}),
		).toBe(true);
	});

	it('a list is an and of its items; null/undefined criteria match everything', () => {
		expect(match([open, leaf('Deal_Name', 'contains', 'Acme')])).toBe(true);
		expect(match([open, big])).toBe(false);
		expect(match(undefined)).toBe(true);
		expect(match(null)).toBe(true);
	});

	it('malformed parts never match', () => {
		expect(match(leaf('Stage', 'is', 'Needs Analysis'))).toBe(false);
		expect(match({ group_operator: 'xor', group: [open] })).toBe(false);
		expect(match({ comparator: 'equal', value: 'x' })).toBe(false);
		expect(match('Stage = x')).toBe(false);
	});

	it('is pure: the record and the criteria are left untouched', () => {
		const criteria = { group_operator: 'and', group: [open, leaf('Interests', 'in', ['CRM'])] };
		const before = JSON.stringify([deal, criteria]);
		match(criteria);
		expect(JSON.stringify([deal, criteria])).toBe(before);
	});
});

describe('checkJsonCriteria', () => {
	it('accepts well-formed criteria', () => {
		expect(checkJsonCriteria(leaf('Stage', 'equal', 'x'))).toBeUndefined();
		expect(
			checkJsonCriteria({
				group_operator: 'or',
				group: [leaf('A', 'in', [1]), leaf('B', 'between', [1, 2])],
			}),
		).toBeUndefined();
		expect(checkJsonCriteria([leaf('A', 'equal', null)])).toBeUndefined();
	});

	it('names the problem and where it is', () => {
		expect(checkJsonCriteria(leaf('Stage', 'is', 'x'))).toMatchObject({
			reason: 'comparator',
			path: '$.comparator',
			comparator: 'is',
			api_name: 'Stage',
		});
		expect(
			checkJsonCriteria({ group_operator: 'xor', group: [leaf('A', 'equal', 1)] }),
		).toMatchObject({ reason: 'group_operator', path: '$.group_operator' });
		expect(checkJsonCriteria({ group_operator: 'and', group: [] })).toMatchObject({
			reason: 'shape',
		});
		expect(
			checkJsonCriteria({
				group_operator: 'and',
				group: [leaf('A', 'equal', 1), { comparator: 'equal', value: 1 }],
			}),
		).toMatchObject({
			reason: 'field',
			path: '$.group[1].field',
		});
		expect(checkJsonCriteria(leaf('A', 'in', 'x'))).toMatchObject({
			reason: 'value',
			path: '$.value',
		});
		expect(checkJsonCriteria(leaf('A', 'between', [1]))).toMatchObject({ reason: 'value' });
		expect(checkJsonCriteria({ field: 'A', comparator: 'equal' })).toMatchObject({
			reason: 'value',
		});
		expect(checkJsonCriteria(42)).toMatchObject({ reason: 'shape', path: '$' });
	});

	it('checks field names and limits when asked', () => {
		expect(checkJsonCriteria(leaf('Nope', 'equal', 1), { fields: ['Stage'] })).toMatchObject({
			reason: 'field',
			api_name: 'Nope',
		});
		const three = {
			group_operator: 'and',
			group: [leaf('A', 'equal', 1), leaf('B', 'equal', 1), leaf('C', 'equal', 1)],
		};
		expect(checkJsonCriteria(three, { maxConditions: 2 })).toMatchObject({
			reason: 'conditions',
			limit: 2,
			path: '$.group[2]',
		});
		expect(checkJsonCriteria(three, { maxConditions: 3 })).toBeUndefined();
		expect(checkJsonCriteria(leaf('A', 'in', [1, 2, 3]), { maxValues: 2 })).toMatchObject({
			reason: 'values',
			limit: 2,
		});
	});

	it('lists leaves and fields', () => {
		const c = {
			group_operator: 'and',
			group: [
				leaf('A', 'equal', 1),
				{
					group_operator: 'or',
					group: [
						{ api_name: 'B', comparator: 'equal', value: 2 },
						{ field: { api_name: 'A' }, comparator: 'in', value: [1] },
					],
				},
			],
		};
		expect(criteriaLeaves(c)).toHaveLength(3);
		expect(criteriaFields(c)).toEqual(['A', 'B']);
	});
});
