import type {
	IDataObject,
	IExecuteSingleFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { returnAllLimit } from '../../../shared/description/properties';
import type { PagerFactory } from '../../../shared/transport';
import {
	COQL_MAX_COLUMNS,
	COQL_MAX_PER_CALL,
	offsetOf,
	pageStatement,
	planStatement,
	positionInWords,
	selectsStar,
} from './shared';
import type { StatementPlan } from './shared';
import { getParameter } from '../../../shared/parameters';
import { crmRouting } from '../../../shared/transport';

/** The wrapper key of COQL rows (§3.13). */
const rootProperty = 'data';

/** Checks the statement against what the node can know before sending (parameter "Query"). */
function validate(this: IExecuteSingleFunctions, statement: string, plan: StatementPlan): void {
	if (statement.trim() === '') {
		throw new NodeOperationError(this.getNode(), 'The parameter "Query" is empty', {
			description:
				"Enter a COQL statement, e.g. SELECT Last_Name, Email FROM Leads WHERE Lead_Source = 'Web'",
		});
	}
	if (selectsStar(statement)) {
		throw new NodeOperationError(
			this.getNode(),
			'The parameter "Query" selects *: COQL needs the column names',
			{
				description:
					'Name the columns to return (at most 50), e.g. SELECT Last_Name, Email, Owner FROM Leads WHERE …',
			},
		);
	}
	if (plan.count === 0) {
		throw new NodeOperationError(
			this.getNode(),
			'The LIMIT in the parameter "Query" must be at least 1',
		);
	}
	if (plan.columns !== undefined && plan.columns > COQL_MAX_COLUMNS) {
		throw new NodeOperationError(
			this.getNode(),
			`The parameter "Query" selects ${plan.columns} columns; the CRM allows at most ${COQL_MAX_COLUMNS}`,
			{ description: 'Split the query into several queries with fewer SELECT columns each.' },
		);
	}
}

const CLAUSE_LABEL: Record<string, string> = {
	select: 'SELECT',
	from: 'FROM',
	where: 'WHERE',
	'order by': 'ORDER BY',
	limit: 'LIMIT',
};

const LIMIT_BY: Record<string, string> = {
	select: 'columns in SELECT',
	where: 'conditions in WHERE',
	in: 'values in one IN list',
	join: 'relations (lookup joins) per query',
	limit: 'records per call (LIMIT)',
};

/**
 * Makes the query error codes of §3.13 readable: SYNTAX_ERROR names the position in the user's
 * statement (token, line and column in words), LIMIT_EXCEEDED names the limit, INVALID_QUERY the column.
 */
function describeQueryError(error: NodeApiError, sent: string, userLength: number): NodeApiError {
	const crm = error.context.crm as
		| { code?: string; message?: string; details?: IDataObject }
		| undefined;
	if (!crm?.code) return error;
	const d = crm.details ?? {};
	const parts: string[] = [];
	if (crm.code === 'SYNTAX_ERROR') {
		const line = Number(d.line);
		const column = Number(d.column);
		const clause = CLAUSE_LABEL[String(d.clause ?? '').toLowerCase()] ?? String(d.clause ?? '');
		const inUserText =
			Number.isFinite(line) && Number.isFinite(column) && offsetOf(sent, line, column) < userLength;
		const where = inUserText
			? `near "${String(d.near)}" at line ${line}, column ${column}`
			: 'at the end of the statement';
		error.message = `SYNTAX_ERROR: ${crm.message} ${where}${clause ? ` (${clause} clause)` : ''}`;
		if (inUserText)
			parts.push(positionInWords(sent.slice(0, userLength), line, column, String(d.near)));
		if (!inUserText) {
			parts.push(
				String(d.clause) === 'where'
					? 'The statement ended too early: its WHERE clause is missing or incomplete (WHERE is required).'
					: `The statement ended too early, in its ${clause || 'last'} clause.`,
			);
		}
	} else if (crm.code === 'LIMIT_EXCEEDED') {
		const by = LIMIT_BY[String(d.by)] ?? String(d.by ?? 'items');
		error.message = `LIMIT_EXCEEDED: the query exceeds the CRM's limit of ${String(d.limit)} ${by}`;
		if (d.by === 'where') parts.push('Split the conditions over several queries.');
	} else if (crm.code === 'INVALID_QUERY') {
		const column = d.column_name ? ` (column "${String(d.column_name)}")` : '';
		error.message = `INVALID_QUERY: ${crm.message}${column}`;
		if (d.reason) parts.push(`Reason: ${String(d.reason)}.`);
		if (d.operator) parts.push(`Operator: ${String(d.operator)}.`);
		if (d.expected_data_type)
			parts.push(`Expected a ${String(d.expected_data_type)} value, got ${String(d.data_type)}.`);
		else if (d.data_type) parts.push(`Field type: ${String(d.data_type)}.`);
	} else if (crm.code === 'INVALID_MODULE') {
		error.message = `INVALID_MODULE: the module "${String(d.module ?? '')}" does not exist`;
		parts.push('Use the module API name (e.g. Leads, Sales_Orders) after FROM.');
	} else {
		return error;
	}
	error.description = parts.filter(Boolean).join('\n') || error.description;
	return error;
}

/**
 * The service answers a lookup's columns as dotted keys (`"Account_Name.id"`, §3.13): each comes out
 * nested under its lookup (`Account_Name: { id }`), merged with the lookup's own object when that is
 * selected too, as record reads give lookups. A key whose head is already a plain value stays dotted.
 */
function nestLookupColumns(row: IDataObject): IDataObject {
	const nested: IDataObject = {};
	for (const [key, value] of Object.entries(row)) {
		if (!key.includes('.')) nested[key] = value;
	}
	for (const [key, value] of Object.entries(row)) {
		if (!key.includes('.')) continue;
		const path = key.split('.');
		let target = nested;
		let i = 0;
		for (; i < path.length - 1; i++) {
			const head = target[path[i]];
			if (head === undefined || head === null) target[path[i]] = {};
			else if (typeof head !== 'object' || Array.isArray(head)) break;
			target = target[path[i]] as IDataObject;
		}
		if (i === path.length - 1) target[path[i]] = value;
		else nested[key] = value;
	}
	return nested;
}

async function nestRows(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return items.map((item) => {
		const rows = item.json[rootProperty];
		if (!Array.isArray(rows)) return item;
		return {
			...item,
			json: {
				...item.json,
				[rootProperty]: rows.map((row) => nestLookupColumns(row as IDataObject)),
			},
		};
	});
}

/**
 * Query — POST /crm/{v}/coql with {"select_query": …} (docs/protocol.md §3.13, §5.12).
 *
 * Runs through the shared request runner like every routed operation, with its own paging: COQL
 * pages with LIMIT/OFFSET inside the statement, not with page/per_page. The statement's own LIMIT
 * is the overall cap, and each call sends the statement with `LIMIT <offset>, <≤200>` until
 * `info.more_records` is false. A LIMIT the node cannot read is sent once, as written.
 */
export const paging: PagerFactory = function (requestData) {
	const itemIndex = this.getItemIndex();
	const returnAll = getParameter(this, 'returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? 0 : Number(getParameter(this, 'limit', itemIndex, 0));
	// the form's minimum of 1 is not enforced for expressions: refuse before anything is sent
	if (!returnAll && !(Number.isInteger(limit) && limit >= 1)) {
		throw new NodeOperationError(
			this.getNode(),
			`The parameter "Limit" must be a whole number of at least 1, got ${String(limit)}`,
			{
				description: 'Set "Limit" to how many records to return, or turn on "Return All".',
			},
		);
	}
	const body = (requestData.options.body ?? {}) as IDataObject;
	const statement = String(body.select_query ?? '');
	const plan = planStatement(statement);
	validate.call(this, statement, plan);

	const cap = Math.min(plan.count ?? Infinity, limit > 0 ? limit : Infinity);
	let sent = statement;
	return {
		limit: Number.isFinite(cap) ? cap : 0,
		prepare(call, read) {
			if (plan.opaque) {
				if (call > 0) return false;
			} else {
				sent = pageStatement(plan, plan.offset + read, Math.min(COQL_MAX_PER_CALL, cap - read));
			}
			requestData.options.body = { ...body, select_query: sent };
			return true;
		},
		describeError: (error) =>
			describeQueryError(error, sent, plan.opaque ? statement.length : plan.base.length),
	};
};

/** Query — POST /crm/{v}/coql */
export const operation: INodePropertyOptions = {
	name: 'Run',
	value: 'run',
	action: 'Run a query',
	description: 'Run a COQL select statement over the records of a module',
	routing: crmRouting(
		{
			request: { method: 'POST', url: '/coql' },
			output: { postReceive: [nestRows] },
		},
		{ rootProperty: 'data', paging },
	),
};

export const returns = 'one item per row of the query result, with the selected columns';

const properties: INodeProperties[] = [
	{
		displayName:
			'COQL rules: name the columns, <code>SELECT *</code> is not allowed (at most 50 columns) · a <code>WHERE</code> clause is required (to read every record: <code>WHERE Created_Time is not null</code>) · more than two conditions need brackets in pairs: <code>(A and (B and C))</code> · at most 25 conditions, 50 values in one <code>in (…)</code> and 2 lookups (e.g. <code>Owner.email</code>) · multi-line fields cannot be in <code>WHERE</code> · text in single quotes · <code>LIMIT</code> is at most 200 per call: the node pages for more (Return All, or a larger LIMIT in the statement) · lookup columns come out nested: <code>Owner.email</code> as <code>Owner: { email }</code>',
		name: 'coqlRulesNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Query',
		name: 'selectQuery',
		type: 'string',
		typeOptions: { rows: 5 },
		default: '',
		required: true,
		placeholder:
			"SELECT Last_Name, Email, Account_Name.Account_Name FROM Contacts WHERE Lead_Source = 'Web' ORDER BY Last_Name",
		description:
			'COQL statement: SELECT columns FROM module WHERE conditions [ORDER BY …] [LIMIT …]. A LIMIT in the statement caps the number of records returned; the node pages through it 200 at a time.',
		routing: { send: { type: 'body', property: 'select_query' } },
	},
	...returnAllLimit(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['query'], operation: ['run'] } },
	properties,
);
