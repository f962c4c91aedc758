// The COQL parser and evaluator of the sandbox (docs/protocol.md §3.13), in-process: error positions,
// the grammar subset, limits, and results checked against the records themselves.
import { COQL_LIMITS, parseCoql, runCoql, tokenize } from '../../sandbox/coql.ts';
import { HttpError } from '../../sandbox/errors.ts';
import { createRecord } from '../../sandbox/records.ts';
import { Sandbox } from '../../sandbox/sandbox.ts';
import type { Json, StoredRecord } from '../../sandbox/store.ts';

let sandbox: Sandbox;

beforeAll(() => {
	sandbox = new Sandbox({ dbPath: ':memory:', demo: true });
});
afterAll(() => sandbox.close());

function errorOf(fn: () => unknown): HttpError {
	let caught: unknown;
	try {
		fn();
	} catch (error) {
		caught = error;
	}
	if (caught instanceof HttpError) return caught;
	throw new Error(`expected an HttpError, got ${String(caught)}`);
}

const all = (module: string): StoredRecord[] =>
	[...sandbox.store.iterateRecords(module)].filter((r) => r.$converted !== true);
const rows = (statement: string) => runCoql(sandbox, statement).rows;

describe('tokens and syntax errors', () => {
	test('positions are 1-based lines and columns; strings unescape doubled quotes', () => {
		const tokens = tokenize("SELECT a\n  FROM b WHERE c = 'It''s'");
		expect(tokens.map((t) => [t.text, t.line, t.column])).toEqual([
			['SELECT', 1, 1],
			['a', 1, 8],
			['FROM', 2, 3],
			['b', 2, 8],
			['WHERE', 2, 10],
			['c', 2, 16],
			['=', 2, 18],
			["'It''s'", 2, 20],
			["'It''s'", 2, 27],
		]);
		expect(tokens[7].value).toBe("It's");
	});

	test.each([
		['select Last_Name form Leads', { near: 'form', line: 1, column: 18, clause: 'from' }],
		['SELECT FROM Leads WHERE id = 1', { near: 'FROM', line: 1, column: 8, clause: 'select' }],
		['SELECT Last_Name FROM Leads', { near: 'Leads', line: 1, column: 28, clause: 'where' }],
		[
			'SELECT Last_Name FROM Leads ORDER BY Last_Name',
			{ near: 'ORDER', line: 1, column: 29, clause: 'where' },
		],
		[
			"SELECT a FROM Leads WHERE a = 'x' and b = 'y' and c = 'z'",
			{ near: 'and', line: 1, column: 47, clause: 'where' },
		],
		["SELECT a FROM Leads WHERE a <> 'x'", { near: '<>', line: 1, column: 29, clause: 'where' }],
		[
			'SELECT a FROM Leads WHERE a not between 1 and 2',
			{ near: 'between', line: 1, column: 33, clause: 'where' },
		],
		[
			"SELECT a FROM Leads\nWHERE a = 'x'\nORDER a",
			{ near: 'a', line: 3, column: 7, clause: 'order by' },
		],
		[
			"SELECT a FROM Leads WHERE a = 'x' LIMIT ten",
			{ near: 'ten', line: 1, column: 41, clause: 'limit' },
		],
		[
			"SELECT a FROM Leads WHERE a = 'x' LIMIT 5 OFFSET",
			{ near: 'OFFSET', line: 1, column: 49, clause: 'limit' },
		],
		["SELECT a FROM Leads WHERE a = 'x';", { near: ';', line: 1, column: 34, clause: 'where' }],
		["SELECT * FROM Leads WHERE a = 'x'", { near: '*', line: 1, column: 8, clause: 'select' }],
		[
			"SELECT a FROM Leads WHERE a = 'open",
			{ near: "'open", line: 1, column: 31, clause: 'where' },
		],
		[
			'SELECT a FROM Leads WHERE (a is null',
			{ near: 'null', line: 1, column: 37, clause: 'where' },
		],
	])('%s → SYNTAX_ERROR %o', (statement, details) => {
		const error = errorOf(() => parseCoql(statement));
		expect(error.code).toBe('SYNTAX_ERROR');
		expect(error.status).toBe(400);
		expect(error.details).toEqual(details);
	});

	test('pairwise brackets, all comparators and the three LIMIT forms parse', () => {
		const statement = parseCoql(
			"select a, b.c from Leads where ((a = 'x' or (b != 1 and c >= 2)) and ((d like 'x%' or e not like '%y') and (f in ('a', 'b') or (g not in (1, 2) and (h between '2024-01-01' and '2024-12-31' and (i is null or j is not null)))))) order by a asc, b.c desc limit 5 offset 10",
		);
		expect(statement.columns.map((c) => c.text)).toEqual(['a', 'b.c']);
		expect(statement.orderBy.map((o) => [o.column.text, o.desc])).toEqual([
			['a', false],
			['b.c', true],
		]);
		expect(statement.limit).toMatchObject({ count: 5, offset: 10 });
		expect(parseCoql("SELECT a FROM L WHERE a = 'x' LIMIT 10, 20").limit).toMatchObject({
			offset: 10,
			count: 20,
		});
		expect(parseCoql("SELECT a FROM L WHERE a = 'x' LIMIT 7").limit).toMatchObject({
			offset: 0,
			count: 7,
		});
	});
});

describe('checks against metadata and limits', () => {
	const code = (statement: string) => {
		const e = errorOf(() => runCoql(sandbox, statement));
		return { code: e.code, details: e.details, status: e.status };
	};

	test('unknown module, columns and relations', () => {
		expect(code("SELECT a FROM Widgets WHERE a = 'x'")).toEqual({
			code: 'INVALID_MODULE',
			details: { module: 'Widgets' },
			status: 400,
		});
		expect(code("SELECT Nope FROM Leads WHERE Last_Name = 'x'")).toMatchObject({
			code: 'INVALID_QUERY',
			details: { column_name: 'Nope', reason: 'invalid column name' },
		});
		expect(code("SELECT Last_Name.Foo FROM Leads WHERE Last_Name = 'x'")).toMatchObject({
			code: 'INVALID_QUERY',
			details: { column_name: 'Last_Name.Foo', data_type: 'text' },
		});
		expect(code("SELECT Account_Name.Nope FROM Contacts WHERE Last_Name = 'x'")).toMatchObject({
			code: 'INVALID_QUERY',
		});
		expect(
			code("SELECT Account_Name.Parent_Account.Account_Name FROM Contacts WHERE Last_Name = 'x'"),
		).toMatchObject({
			code: 'INVALID_QUERY',
			details: { reason: 'only one level of relation is supported' },
		});
	});

	test('textarea fields are refused in WHERE, allowed in SELECT', () => {
		expect(code("SELECT Last_Name FROM Leads WHERE Description like '%x%'")).toMatchObject({
			code: 'INVALID_QUERY',
			details: { column_name: 'Description', data_type: 'textarea' },
		});
		expect(code('SELECT Name FROM Projects WHERE Summary is null')).toMatchObject({
			code: 'INVALID_QUERY',
		});
		expect(() =>
			runCoql(sandbox, 'SELECT Description FROM Leads WHERE Last_Name is not null LIMIT 1'),
		).not.toThrow();
	});

	test('operators and values must fit the field type', () => {
		expect(code("SELECT Last_Name FROM Leads WHERE Last_Name > 'x'")).toMatchObject({
			code: 'INVALID_QUERY',
			details: { column_name: 'Last_Name', operator: '>', data_type: 'text' },
		});
		expect(code("SELECT Last_Name FROM Leads WHERE No_of_Employees = 'many'")).toMatchObject({
			code: 'INVALID_QUERY',
			details: { column_name: 'No_of_Employees', expected_data_type: 'number' },
		});
		expect(
			code("SELECT Last_Name FROM Leads WHERE Last_Contacted_Date = '2024-13-01'"),
		).toMatchObject({
			details: { expected_data_type: 'date' },
		});
		expect(code("SELECT Last_Name FROM Leads WHERE Created_Time > '2024-01-01'")).toMatchObject({
			details: { expected_data_type: 'datetime' },
		});
		expect(code("SELECT Last_Name FROM Leads WHERE Email_Opt_Out = 'maybe'")).toMatchObject({
			details: { expected_data_type: 'boolean' },
		});
		expect(code("SELECT Last_Name FROM Contacts WHERE Account_Name = 'Acme'")).toMatchObject({
			details: { expected_data_type: 'bigint' },
		});
	});

	test('the limits of §3.13: select 50, where 25, in 50, joins 2, LIMIT 200', () => {
		const columns = (n: number) => Array.from({ length: n }, () => 'Last_Name').join(', ');
		expect(code(`SELECT ${columns(51)} FROM Leads WHERE Last_Name = 'x'`)).toEqual({
			code: 'LIMIT_EXCEEDED',
			details: { by: 'select', limit: 50 },
			status: 400,
		});
		expect(() =>
			runCoql(sandbox, `SELECT ${columns(50)} FROM Leads WHERE Last_Name = 'x'`),
		).not.toThrow();

		const nest = (n: number): string =>
			n === 1 ? "Last_Name = 'x'" : `(Last_Name = 'x' or ${nest(n - 1)})`;
		expect(code(`SELECT Last_Name FROM Leads WHERE ${nest(26)}`)).toMatchObject({
			details: { by: 'where', limit: 25 },
		});
		expect(() => runCoql(sandbox, `SELECT Last_Name FROM Leads WHERE ${nest(25)}`)).not.toThrow();

		const values = (n: number) => Array.from({ length: n }, (_, i) => `'v${i}'`).join(',');
		expect(code(`SELECT Last_Name FROM Leads WHERE Last_Name in (${values(51)})`)).toMatchObject({
			details: { by: 'in', limit: 50 },
		});
		expect(() =>
			runCoql(sandbox, `SELECT Last_Name FROM Leads WHERE Last_Name not in (${values(50)})`),
		).not.toThrow();

		expect(
			code(
				'SELECT Subject, What_Id.Account_Name, Who_Id.Last_Name, Owner.email FROM Tasks WHERE Subject is not null',
			),
		).toMatchObject({
			details: { by: 'join', limit: 2 },
		});
		// the same relation used twice is one join
		expect(() =>
			runCoql(
				sandbox,
				"SELECT What_Id.Account_Name, Owner.email FROM Tasks WHERE (What_Id.Industry is not null and Owner.email like '%') ORDER BY What_Id.Account_Name",
			),
		).not.toThrow();

		expect(code("SELECT Last_Name FROM Leads WHERE Last_Name = 'x' LIMIT 201")).toMatchObject({
			details: { by: 'limit', limit: 200 },
		});
		expect(code("SELECT Last_Name FROM Leads WHERE Last_Name = 'x' LIMIT 0")).toMatchObject({
			code: 'INVALID_QUERY',
		});
		expect(COQL_LIMITS).toEqual({ perCall: 200, select: 50, where: 25, inValues: 50, joins: 2 });
	});
});

describe('evaluation over the store', () => {
	const ids = (records: Json[]) => records.map((r) => r.id);

	test('default LIMIT is 200 in insertion order; more_records tells whether more match', () => {
		const leads = all('Leads');
		const result = runCoql(sandbox, 'SELECT Last_Name FROM Leads WHERE Last_Name is not null');
		expect(result.rows.map((r) => r.id)).toEqual(ids(leads.slice(0, 200)));
		expect(result.more).toBe(leads.length > 200);
		const tail = runCoql(
			sandbox,
			`SELECT Last_Name FROM Leads WHERE Last_Name is not null LIMIT ${leads.length - 2}, 200`,
		);
		expect(tail.rows.map((r) => r.id)).toEqual(ids(leads.slice(-2)));
		expect(tail.more).toBe(false);
	});

	test('selected columns only, plus id; lookups as stored; relations as dotted keys', () => {
		const [row] = rows(
			'SELECT Last_Name, Account_Name, Account_Name.Account_Name, Owner.full_name FROM Contacts WHERE Account_Name is not null LIMIT 1',
		);
		const contact = sandbox.store.getRecord('Contacts', String(row.id))!;
		const account = sandbox.store.getRecord('Accounts', String((contact.Account_Name as Json).id))!;
		expect(row).toEqual({
			Last_Name: contact.Last_Name,
			Account_Name: contact.Account_Name,
			'Account_Name.Account_Name': account.Account_Name,
			'Owner.full_name': (
				sandbox.store.doc<Json>('users', String((contact.Owner as Json).id)) as Json
			).full_name,
			id: contact.id,
		});
		// keywords and field names are case-insensitive; output keys are canonical
		expect(
			Object.keys(rows('select last_name from leads where LAST_NAME is not null limit 1')[0]),
		).toEqual(['Last_Name', 'id']);
	});

	test('comparators match what the records hold', () => {
		const deals = all('Deals');
		const amounts = (statement: string) => rows(statement).map((r) => r.id);
		const expectIds = (statement: string, pred: (r: StoredRecord) => boolean) =>
			expect(amounts(statement).sort()).toEqual(ids(deals.filter(pred)).sort());
		expectIds(
			'SELECT Deal_Name FROM Deals WHERE Amount >= 20000',
			(r) => typeof r.Amount === 'number' && r.Amount >= 20000,
		);
		expectIds(
			'SELECT Deal_Name FROM Deals WHERE Amount between 5000 and 20000',
			(r) => typeof r.Amount === 'number' && r.Amount >= 5000 && r.Amount <= 20000,
		);
		expectIds(
			"SELECT Deal_Name FROM Deals WHERE Stage in ('Closed Won', 'Closed Lost')",
			(r) => r.Stage === 'Closed Won' || r.Stage === 'Closed Lost',
		);
		expectIds(
			"SELECT Deal_Name FROM Deals WHERE Stage not in ('Closed Won', 'Closed Lost')",
			(r) => r.Stage !== 'Closed Won' && r.Stage !== 'Closed Lost',
		);
		expectIds(
			"SELECT Deal_Name FROM Deals WHERE Stage != 'Qualification'",
			(r) => r.Stage !== 'Qualification',
		);
		expectIds("SELECT Deal_Name FROM Deals WHERE Deal_Name like '%expansion%'", (r) =>
			/expansion/i.test(String(r.Deal_Name)),
		);
		expectIds(
			"SELECT Deal_Name FROM Deals WHERE Deal_Name not like 'A%'",
			(r) => !/^a/i.test(String(r.Deal_Name)),
		);
		expectIds("SELECT Deal_Name FROM Deals WHERE Closing_Date < '2000-01-01'", () => false);
		expectIds('SELECT Deal_Name FROM Deals WHERE Contact_Name is null', (r) => !r.Contact_Name);
		expectIds(
			"SELECT Deal_Name FROM Deals WHERE ((Stage = 'Closed Won' or Stage = 'Closed Lost') and Amount > 10000)",
			(r) => (r.Stage === 'Closed Won' || r.Stage === 'Closed Lost') && Number(r.Amount) > 10000,
		);
		const account = deals.find((d) => d.Account_Name)!.Account_Name as Json;
		expectIds(
			`SELECT Deal_Name FROM Deals WHERE Account_Name = ${String(account.id)}`,
			(r) => (r.Account_Name as Json | undefined)?.id === account.id,
		);
		expectIds(
			`SELECT Deal_Name FROM Deals WHERE id = '${deals[3].id}'`,
			(r) => r.id === deals[3].id,
		);
	});

	test('text comparison is case-insensitive; dates, datetimes and booleans compare by value', () => {
		const user = sandbox.user();
		const leads = sandbox.module('Leads')!;
		const created = ['Alpha', 'beta', 'Gamma'].map((name, i) => {
			const r = createRecord(
				sandbox,
				leads,
				{
					Last_Name: `Zz-${name}`,
					Company: 'Case Test',
					Last_Contacted_Date: `2030-0${i + 1}-15`,
					Follow_Up_Time: `2030-0${i + 1}-15T10:00:00+02:00`,
					Email_Opt_Out: i === 1,
				},
				{ v: 'v2.1', user, index: 0 },
			);
			if (!r.ok) throw new Error(JSON.stringify(r.body));
			return r.record.id;
		});
		expect(
			ids(rows("SELECT Last_Name FROM Leads WHERE Company = 'CASE TEST' ORDER BY Last_Name DESC")),
		).toEqual([...created].reverse());
		expect(
			ids(
				rows(
					"SELECT Last_Name FROM Leads WHERE (Company = 'Case Test' and Last_Contacted_Date > '2030-01-15')",
				),
			),
		).toEqual(created.slice(1));
		expect(
			ids(
				rows(
					"SELECT Last_Name FROM Leads WHERE Follow_Up_Time between '2030-02-15T08:00:00Z' and '2030-03-15T08:00:00Z'",
				),
			),
		).toEqual(created.slice(1));
		expect(
			ids(
				rows("SELECT Last_Name FROM Leads WHERE (Company = 'Case Test' and Email_Opt_Out = true)"),
			),
		).toEqual([created[1]]);
		expect(
			ids(
				rows(
					"SELECT Last_Name FROM Leads WHERE (Company = 'Case Test' and Email_Opt_Out = 'false')",
				),
			),
		).toEqual([created[0], created[2]]);
	});

	test('a lower bound on Modified_Time or Created_Time: the same rows, older rows never decoded', () => {
		const user = sandbox.user();
		const leads = sandbox.module('Leads')!;
		const make = (name: string) => {
			const r = createRecord(
				sandbox,
				leads,
				{ Last_Name: name, Company: 'Bound Test' },
				{ v: 'v2.1', user, index: 0 },
			);
			if (!r.ok) throw new Error(JSON.stringify(r.body));
			return r.record;
		};
		sandbox.clockOffsetMs += 3_600_000;
		const bound = sandbox.now();
		const later = [make('Bound 1'), make('Bound 2')];
		sandbox.clockOffsetMs += 60_000;
		const latest = make('Bound 3');
		// a row written with an earlier change time than its own Modified_Time: the store keeps the later
		const stamped = { ...all('Leads')[0], Modified_Time: sandbox.formatTime() };
		sandbox.store.replaceRecord('Leads', stamped, 0, {}, { silent: true });
		const at = sandbox.formatTime(bound);
		const expected = (pred: (r: StoredRecord) => boolean) => ids(all('Leads').filter(pred)).sort();
		const run = (statement: string) => {
			const before = sandbox.store.stats.recordRowsRead;
			const found = ids(rows(statement)).sort();
			return { found, decoded: sandbox.store.stats.recordRowsRead - before };
		};
		const time = (r: StoredRecord, field: string) => Date.parse(String(r[field]));
		const total = all('Leads').length;

		const since = run(`SELECT Last_Name FROM Leads WHERE Modified_Time >= '${at}'`);
		expect(since.found).toEqual(
			expected((r) => time(r, 'Modified_Time') >= bound - (bound % 1000)),
		);
		expect(since.found).toEqual(ids([...later, latest, stamped]).sort());
		expect(since.decoded).toBeLessThanOrEqual(4);

		// the polling trigger's keyset page: both branches of the `or` are bounded
		const keyset = run(
			`SELECT Last_Name FROM Leads WHERE (Modified_Time > '${at}' or (Modified_Time = '${at}' and id > '${later[0].id}')) ORDER BY Modified_Time ASC, id ASC`,
		);
		expect(keyset.found).toEqual(
			expected(
				(r) =>
					time(r, 'Modified_Time') > bound - (bound % 1000) ||
					(time(r, 'Modified_Time') === bound - (bound % 1000) &&
						BigInt(r.id) > BigInt(later[0].id)),
			),
		);
		expect(keyset.decoded).toBeLessThanOrEqual(4);

		const created = run(
			`SELECT Last_Name FROM Leads WHERE (Created_Time > '${at}' and Company = 'Bound Test')`,
		);
		expect(created.found).toEqual(
			expected(
				(r) => time(r, 'Created_Time') > bound - (bound % 1000) && r.Company === 'Bound Test',
			),
		);
		expect(created.found).toContain(latest.id);
		expect(created.decoded).toBeLessThanOrEqual(4);

		// one branch without a bound: every row is read, and the answer is the same
		const open = run(
			`SELECT Last_Name FROM Leads WHERE (Modified_Time >= '${at}' or Last_Name = 'No Such Lead')`,
		);
		expect(open.found).toEqual(since.found);
		expect(open.decoded).toBeGreaterThanOrEqual(total);
	});

	test('ORDER BY sorts by several keys, relations included; empty values first ascending', () => {
		const ordered = rows(
			'SELECT Account_Name.Account_Name, Last_Name FROM Contacts WHERE Last_Name is not null ORDER BY Account_Name.Account_Name, Last_Name DESC',
		);
		const keys = ordered.map((r) => [
			String(r['Account_Name.Account_Name'] ?? '').toLowerCase(),
			String(r.Last_Name).toLowerCase(),
		]);
		for (let i = 1; i < keys.length; i++) {
			const [a1, l1] = keys[i - 1];
			const [a2, l2] = keys[i];
			expect(a1 < a2 || (a1 === a2 && l1 >= l2)).toBe(true);
		}
	});
});
