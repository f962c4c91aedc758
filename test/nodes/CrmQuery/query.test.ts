// CRM Query › Query › Run through the n8n engine against the sandbox's COQL evaluator.
import { CrmQuery } from '../../../nodes/CrmQuery/CrmQuery.node';
import { pageStatement, planStatement } from '../../../nodes/CrmQuery/resources/query/shared';
import { createRecord } from '../../../sandbox/records.ts';
import { crmFixture, useCrmFixture } from '../../harness/crm';
import type { CrmFixture } from '../../harness/crm';
import { errorOf, outputOf } from '../../harness/n8n';

const PAGING_COMPANY = 'COQL Paging Co';
const PAGING_COUNT = 1050;

describe('CRM Query › Query › Run (engine → sandbox over HTTP)', () => {
	let crm: CrmFixture;
	let pagingIds: string[];

	beforeAll(async () => {
		crm = await crmFixture();
		// 1,050 matching leads (plus a few that must not match), written in-process in one transaction
		const sandbox = crm.running.sandbox;
		const leads = sandbox.module('Leads')!;
		const user = sandbox.user();
		pagingIds = sandbox.store.transaction(() => {
			const ids: string[] = [];
			for (let i = 0; i < PAGING_COUNT; i++) {
				const result = createRecord(
					sandbox,
					leads,
					{
						Last_Name: `Pager ${String(i).padStart(4, '0')}`,
						Company: PAGING_COMPANY,
						No_of_Employees: i,
					},
					{ v: 'v2.1', user, index: 0 },
				);
				if (!result.ok) throw new Error(JSON.stringify(result.body));
				ids.push(result.record.id);
			}
			for (let i = 0; i < 5; i++) {
				createRecord(
					sandbox,
					leads,
					{ Last_Name: `Other ${i}`, Company: 'COQL Paging Co Ltd' },
					{ v: 'v2.1', user, index: 0 },
				);
			}
			return ids;
		});
	});
	afterAll(async () => await crm.close());

	const queryNode = (selectQuery: string, extra: Record<string, unknown> = {}, nodeExtra = {}) =>
		crm.node(
			'crmQuery',
			{ resource: 'query', operation: 'run', selectQuery, returnAll: true, ...extra },
			nodeExtra,
		);

	const coqlCalls = async () =>
		(await crm.requests()).filter((r) => r.url.startsWith('/crm/v2.1/coql'));

	test('returns one item per record with the selected columns, relations included', async () => {
		const node = queryNode(
			"SELECT Last_Name, Email, Account_Name.Account_Name, Owner.email FROM Contacts WHERE (Account_Name is not null and Last_Name like '%') ORDER BY Last_Name LIMIT 5",
		);
		const out = outputOf(await crm.run(node), node.name);
		expect(out).toHaveLength(5);
		const direct = await crm.api('POST', '/crm/v2.1/coql', {
			select_query:
				"SELECT Last_Name, Email, Account_Name.Account_Name, Owner.email FROM Contacts WHERE (Account_Name is not null and Last_Name like '%') ORDER BY Last_Name LIMIT 5",
		});
		// the service answers lookup columns as dotted keys; the node nests them under their lookup
		expect(Object.keys(direct.body.data[0]).sort()).toEqual([
			'Account_Name.Account_Name',
			'Email',
			'Last_Name',
			'Owner.email',
			'id',
		]);
		expect(out.map((i) => i.json)).toEqual(
			direct.body.data.map((row: any) => ({
				id: row.id,
				Last_Name: row.Last_Name,
				Email: row.Email,
				Account_Name: { Account_Name: row['Account_Name.Account_Name'] },
				Owner: { email: row['Owner.email'] },
			})),
		);
		expect(Object.keys(out[0].json).sort()).toEqual([
			'Account_Name',
			'Email',
			'Last_Name',
			'Owner',
			'id',
		]);
		expect(typeof (out[0].json.Account_Name as any).Account_Name).toBe('string');
		expect((out[0].json.Owner as any).email).toMatch(/@sandbox\.example$/);
		const names = out.map((i) => String(i.json.Last_Name).toLowerCase());
		expect([...names].sort()).toEqual(names);
	});

	test('a lookup selected whole and by its columns comes out as one nested object', async () => {
		const statement =
			'SELECT Last_Name, Account_Name, Account_Name.Account_Name, Account_Name.id FROM Contacts WHERE Account_Name is not null LIMIT 3';
		const node = queryNode(statement);
		const out = outputOf(await crm.run(node), node.name);
		const direct = (await crm.api('POST', '/crm/v2.1/coql', { select_query: statement })).body.data;
		expect(out).toHaveLength(direct.length);
		expect(direct.length).toBeGreaterThan(0);
		out.forEach((item, i) => {
			expect(Object.keys(item.json).filter((k) => k.includes('.'))).toEqual([]);
			expect(item.json.Account_Name).toEqual({
				...direct[i].Account_Name,
				Account_Name: direct[i]['Account_Name.Account_Name'],
				id: direct[i]['Account_Name.id'],
			});
			expect((item.json.Account_Name as any).id).toMatch(/^\d+$/);
		});
	});

	test('the form states the COQL rules in a notice above the query, not only in its tooltip', () => {
		const properties = new CrmQuery().description.properties;
		const notice = properties.find((p) => p.type === 'notice' && p.name === 'coqlRulesNotice');
		expect(notice).toBeDefined();
		expect(properties.indexOf(notice!)).toBe(
			properties.findIndex((p) => p.name === 'selectQuery') - 1,
		);
		for (const rule of [
			'<code>SELECT *</code> is not allowed',
			'a <code>WHERE</code> clause is required',
			'at most 200 per call: the node pages for more',
			'brackets in pairs',
			'at most 25 conditions',
			'2 lookups',
		]) {
			expect(notice!.displayName).toContain(rule);
		}
	});

	test('Return All over 1,050 matching records returns exactly those records, 200 per call', async () => {
		await crm.clearRequests();
		const node = queryNode(
			`SELECT Last_Name, Company FROM Leads WHERE Company = '${PAGING_COMPANY}'`,
		);
		const out = outputOf(await crm.run(node), node.name);
		expect(out).toHaveLength(PAGING_COUNT);
		expect(out.map((i) => i.json.id)).toEqual(pagingIds);
		expect(new Set(out.map((i) => i.json.id)).size).toBe(PAGING_COUNT);
		expect(out.every((i) => i.json.Company === PAGING_COMPANY)).toBe(true);
		expect(await coqlCalls()).toHaveLength(Math.ceil(PAGING_COUNT / 200));
	});

	test('Return All pages an ordered query consistently', async () => {
		const node = queryNode(
			`SELECT Last_Name, No_of_Employees FROM Leads WHERE Company = '${PAGING_COMPANY}' ORDER BY No_of_Employees DESC`,
		);
		const out = outputOf(await crm.run(node), node.name);
		expect(out).toHaveLength(PAGING_COUNT);
		expect(out.map((i) => i.json.No_of_Employees)).toEqual(
			Array.from({ length: PAGING_COUNT }, (_, i) => PAGING_COUNT - 1 - i),
		);
	});

	test("the statement's LIMIT caps the read (also beyond 200), with its offset; the Limit parameter caps without Return All", async () => {
		await crm.clearRequests();
		const capped = queryNode(
			`SELECT Last_Name FROM Leads WHERE Company = '${PAGING_COMPANY}' LIMIT 450`,
		);
		const cappedOut = outputOf(await crm.run(capped), capped.name);
		expect(cappedOut.map((i) => i.json.id)).toEqual(pagingIds.slice(0, 450));
		expect(await coqlCalls()).toHaveLength(3);

		const offset = queryNode(
			`SELECT Last_Name FROM Leads WHERE Company = '${PAGING_COMPANY}' LIMIT 10, 300`,
		);
		expect(outputOf(await crm.run(offset), offset.name).map((i) => i.json.id)).toEqual(
			pagingIds.slice(10, 310),
		);

		const offsetKeyword = queryNode(
			`SELECT Last_Name FROM Leads WHERE Company = '${PAGING_COMPANY}' limit 3 offset 1040;`,
		);
		expect(
			outputOf(await crm.run(offsetKeyword), offsetKeyword.name).map((i) => i.json.id),
		).toEqual(pagingIds.slice(1040, 1043));

		const limited = queryNode(`SELECT Last_Name FROM Leads WHERE Company = '${PAGING_COMPANY}'`, {
			returnAll: false,
			limit: 7,
		});
		expect(outputOf(await crm.run(limited), limited.name).map((i) => i.json.id)).toEqual(
			pagingIds.slice(0, 7),
		);

		const tail = queryNode(
			`SELECT Last_Name FROM Leads WHERE Company = '${PAGING_COMPANY}' LIMIT 1045, 200`,
		);
		expect(outputOf(await crm.run(tail), tail.name).map((i) => i.json.id)).toEqual(
			pagingIds.slice(1045),
		);
	});

	test('a query with no rows gives no items', async () => {
		const node = queryNode(
			"SELECT Last_Name FROM Leads WHERE Company = 'No Such Company Anywhere'",
		);
		expect(outputOf(await crm.run(node), node.name)).toEqual([]);
	});

	test('a malformed query reports the error position in the statement', async () => {
		const node = queryNode('SELECT Last_Name, Email\nform Leads WHERE Last_Name is not null');
		const error = errorOf(await crm.run(node), node.name);
		expect(error?.message).toBe(
			'SYNTAX_ERROR: error while parsing the query near "form" at line 2, column 1 (FROM clause)',
		);
		// the position in words: n8n's error view collapses a caret line (proportional font, HTML)
		expect(error?.description).toBe(
			'The CRM stopped reading at the token "form", line 2, column 1, right after "SELECT Last_Name, Email".',
		);
		expect(error?.context?.crm).toEqual({
			code: 'SYNTAX_ERROR',
			message: 'error while parsing the query',
			details: { near: 'form', line: 2, column: 1, clause: 'from' },
		});

		const brackets = queryNode(
			"SELECT Last_Name FROM Leads WHERE Last_Name = 'a' and Email = 'b' or Company = 'c'",
		);
		const bracketError = errorOf(await crm.run(brackets), brackets.name);
		expect(bracketError?.message).toContain('near "or" at line 1, column 67 (WHERE clause)');
		expect(bracketError?.message).toContain('brackets are mandatory');

		// the node appends its LIMIT: an error there is reported as the end of the user's statement
		const noWhere = queryNode('SELECT Last_Name FROM Leads');
		const noWhereError = errorOf(await crm.run(noWhere), noWhere.name);
		expect(noWhereError?.message).toBe(
			'SYNTAX_ERROR: missing clause at the end of the statement (WHERE clause)',
		);
		expect(noWhereError?.description).toBe(
			'The statement ended too early: its WHERE clause is missing or incomplete (WHERE is required).',
		);

		const unclosed = queryNode(
			"SELECT Last_Name FROM Leads WHERE (Last_Name = 'x' ORDER BY Last_Name",
		);
		const unclosedError = errorOf(await crm.run(unclosed), unclosed.name);
		expect(unclosedError?.message).toBe(
			'SYNTAX_ERROR: error while parsing the query near "ORDER" at line 1, column 52 (WHERE clause)',
		);
		// the text before the token, at most 40 characters of it, says which "ORDER" is meant
		expect(unclosedError?.description).toBe(
			`The CRM stopped reading at the token "ORDER", line 1, column 52, right after "…FROM Leads WHERE (Last_Name = 'x'".`,
		);
		expect(unclosedError?.description).not.toMatch(/<code|\^/);

		// characters the HTML would swallow are escaped
		const lt = queryNode('SELECT Last_Name FROM Leads WHERE No_of_Employees < 5 and and');
		const ltError = errorOf(await crm.run(lt), lt.name);
		expect(ltError?.message).toContain('near "and" at line 1, column 59');
		expect(ltError?.description).toBe(
			'The CRM stopped reading at the token "and", line 1, column 59, right after "…FROM Leads WHERE No_of_Employees &lt; 5 and".',
		);

		const truncated = queryNode("SELECT Last_Name FROM Leads WHERE Last_Name = 'x' ORDER BY");
		const truncatedError = errorOf(await crm.run(truncated), truncated.name);
		expect(truncatedError?.message).toBe(
			'SYNTAX_ERROR: error while parsing the query at the end of the statement (ORDER BY clause)',
		);
		expect(truncatedError?.description).toBe(
			'The statement ended too early, in its ORDER BY clause.',
		);
	});

	test('limit, column and module errors are shown clearly', async () => {
		const joins = queryNode(
			'SELECT Subject, What_Id.Account_Name, Who_Id.Last_Name, Owner.email FROM Tasks WHERE Subject is not null',
		);
		expect(errorOf(await crm.run(joins), joins.name)?.message).toBe(
			"LIMIT_EXCEEDED: the query exceeds the CRM's limit of 2 relations (lookup joins) per query",
		);

		const textarea = queryNode("SELECT Last_Name FROM Leads WHERE Description = 'x'");
		const textareaError = errorOf(await crm.run(textarea), textarea.name);
		expect(textareaError?.message).toBe(
			'INVALID_QUERY: invalid query formed (column "Description")',
		);
		expect(textareaError?.description).toContain(
			'multi-line fields are not allowed in the where clause',
		);

		const inList = Array.from({ length: 51 }, (_, i) => `'v${i}'`).join(', ');
		const tooManyIn = queryNode(`SELECT Last_Name FROM Leads WHERE Last_Name in (${inList})`);
		expect(errorOf(await crm.run(tooManyIn), tooManyIn.name)?.message).toBe(
			"LIMIT_EXCEEDED: the query exceeds the CRM's limit of 50 values in one IN list",
		);

		const module = queryNode("SELECT Name FROM Widgets WHERE Name = 'x'");
		expect(errorOf(await crm.run(module), module.name)?.message).toBe(
			'INVALID_MODULE: the module "Widgets" does not exist',
		);

		// more than 50 SELECT columns is refused before anything is sent
		await crm.clearRequests();
		const columns = Array.from({ length: 51 }, () => 'Last_Name').join(', ');
		const wide = queryNode(`SELECT ${columns} FROM Leads WHERE Last_Name is not null`);
		const wideError = errorOf(await crm.run(wide), wide.name);
		expect(wideError?.message).toBe(
			'The parameter "Query" selects 51 columns; the CRM allows at most 50',
		);
		const star = queryNode('SELECT * FROM Leads WHERE Last_Name is not null');
		expect(errorOf(await crm.run(star), star.name)?.message).toBe(
			'The parameter "Query" selects *: COQL needs the column names',
		);
		const zero = queryNode('SELECT Last_Name FROM Leads WHERE Last_Name is not null LIMIT 5, 0');
		expect(errorOf(await crm.run(zero), zero.name)?.message).toBe(
			'The LIMIT in the parameter "Query" must be at least 1',
		);
		expect(await coqlCalls()).toHaveLength(0);
	});

	test('each input item runs its own query; with continueOnFail a bad query fails only its item', async () => {
		const node = queryNode(
			'={{ $json.q }}',
			{ returnAll: false, limit: 2 },
			{ onError: 'continueRegularOutput' },
		);
		const out = outputOf(
			await crm.run(node, [
				{ json: { q: "SELECT Account_Name FROM Accounts WHERE Account_Name like 'A%'" } },
				{ json: { q: 'SELECT Account_Name FROM Accounts WHERE' } },
				{ json: { q: `SELECT Last_Name FROM Leads WHERE Company = '${PAGING_COMPANY}'` } },
			]),
			node.name,
		);
		expect(out).toHaveLength(5);
		expect(out.slice(0, 2).every((i) => String(i.json.Account_Name).startsWith('A'))).toBe(true);
		expect(out[2].json.error).toContain('SYNTAX_ERROR');
		expect(out.slice(3).map((i) => i.json.id)).toEqual(pagingIds.slice(0, 2));
		expect(out.slice(3).map((i) => i.pairedItem)).toEqual([{ item: 2 }, { item: 2 }]);
	});
});

describe('CRM Query under a v2 credential', () => {
	const crm = useCrmFixture({ variant: 'v2' });

	test('Query exists in v2 and pages the same way', async () => {
		const node = crm.node('crmQuery', {
			resource: 'query',
			operation: 'run',
			selectQuery: 'SELECT Deal_Name, Amount FROM Deals WHERE Amount > 0 ORDER BY Amount DESC',
			returnAll: true,
		});
		const out = outputOf(await crm.run(node), node.name);
		const count = (
			await crm.api('POST', '/crm/v2/coql', {
				select_query: 'SELECT Deal_Name FROM Deals WHERE Amount > 0 LIMIT 200',
			})
		).body.info.count;
		expect(out).toHaveLength(count);
		expect((await crm.requests()).some((r) => r.url === '/crm/v2/coql')).toBe(true);
		const amounts = out.map((i) => i.json.Amount as number);
		expect([...amounts].sort((a, b) => b - a)).toEqual(amounts);
	});
});

describe('CRM Query statement paging plan (node side)', () => {
	test('reads a trailing LIMIT in its three forms, outside string literals', () => {
		expect(planStatement("SELECT a FROM L WHERE b = 'x' LIMIT 20")).toEqual({
			base: "SELECT a FROM L WHERE b = 'x'",
			offset: 0,
			count: 20,
			opaque: false,
			columns: 1,
		});
		expect(planStatement("SELECT a, b FROM L WHERE b = 'x' limit 5, 20 ;")).toMatchObject({
			offset: 5,
			count: 20,
			columns: 2,
		});
		expect(planStatement("SELECT a FROM L WHERE b = 'x'\nLIMIT 20 OFFSET 40")).toMatchObject({
			offset: 40,
			count: 20,
		});
		// no LIMIT: the literal 'LIMIT 5' and a column named Credit_Limit are not clauses
		expect(planStatement("SELECT Credit_Limit FROM L WHERE b = 'LIMIT 5';")).toEqual({
			base: "SELECT Credit_Limit FROM L WHERE b = 'LIMIT 5'",
			offset: 0,
			opaque: false,
			columns: 1,
		});
		// a LIMIT the node cannot read is left for the service to judge
		expect(planStatement("SELECT a FROM L WHERE b = 'x' LIMIT 5 ORDER BY a")).toMatchObject({
			opaque: true,
		});
		expect(
			pageStatement(planStatement("SELECT a FROM L WHERE b = 'x' LIMIT 5, 300"), 205, 100),
		).toBe("SELECT a FROM L WHERE b = 'x' LIMIT 205, 100");
	});

	test('counts SELECT columns at the top level only', () => {
		expect(planStatement("SELECT a, b.c, d FROM L WHERE e in ('1', '2')").columns).toBe(3);
		expect(planStatement('garbage').columns).toBeUndefined();
	});
});
