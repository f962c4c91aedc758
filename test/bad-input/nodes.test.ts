// Bad input for every node of the package, through n8n's engine against the sandbox: malformed ids,
// wrong types, over-limit lists, empty required fields, invalid JSON in raw modes, unknown modules
// and fields. Each must end in a NodeOperationError (caught before sending) or a NodeApiError (the
// CRM's answer) whose message or description names the parameter, never in a crash (a plain
// TypeError) or a silent success.
import type { INode, INodeExecutionData } from 'n8n-workflow';

import type { CrmTrigger } from '../../nodes/CrmTrigger/CrmTrigger.node';
import { crmFixture } from '../harness/crm';
import type { CrmFixture } from '../harness/crm';
import { errorOf } from '../harness/n8n';
import { triggerHarness } from '../harness/trigger';

interface Case {
	/** node name without the package prefix */
	node: string;
	what: string;
	/** `{lead}`, `{account}`, `{deal}`, `{contact}`, `{user}` are replaced by ids of the sandbox's demo data */
	params: INode['parameters'];
	input?: INodeExecutionData[];
	/** what the error's message + description must contain: the parameter, and the rule broken */
	names: RegExp;
	/** refused before anything was sent (custom operations; declarative ones wrap it in a NodeApiError) */
	local?: boolean;
}

/** The error classes a refusal may have: the node's own, or n8n's check of required parameters before a run. */
const REFUSALS = ['NodeOperationError', 'NodeApiError', 'WorkflowHasIssuesError'];

const ids = (n: number) =>
	Array.from({ length: n }, (_, i) => String(4876876000000700000n + BigInt(i))).join(',');
const json = (value: unknown) => JSON.stringify(value);
/** a required parameter left empty by an expression (n8n's own pre-run check only sees literal '') */
const EMPTY = '={{ "" }}';

const record = (operation: string, params: INode['parameters']) => ({
	resource: 'record',
	operation,
	...params,
});

const CASES: Case[] = [
	// ---- CRM Record ------------------------------------------------------------------------------
	{
		node: 'crmRecord',
		what: 'Get: malformed record id',
		params: record('get', { module: 'Leads', recordId: '12ab' }),
		names: /Record ID must be digits, got "12ab"/,
	},
	{
		node: 'crmRecord',
		what: 'Get: required record id left empty',
		params: record('get', { module: 'Leads', recordId: '' }),
		names: /Parameter "Record ID" is required/,
	},
	{
		node: 'crmRecord',
		what: 'Get: unknown module',
		params: record('get', { module: 'No_Such_Module', recordId: '{lead}' }),
		names: /INVALID_MODULE.*module API name/s,
	},
	{
		node: 'crmRecord',
		what: 'Get Many: unknown module',
		params: record('getAll', { module: 'No_Such_Module', limit: 5 }),
		names: /INVALID_MODULE.*module API name/s,
	},
	{
		node: 'crmRecord',
		what: 'Create: invalid JSON in raw mode',
		params: record('create', { module: 'Leads', fieldsMode: 'json', recordJson: '{"Last_Name": ' }),
		names: /Record JSON is not valid JSON/,
		local: true,
	},
	{
		node: 'crmRecord',
		what: 'Create: JSON array in raw mode',
		params: record('create', {
			module: 'Leads',
			fieldsMode: 'json',
			recordJson: '[{"Last_Name": "x"}]',
		}),
		names: /Record JSON must be a JSON object/,
		local: true,
	},
	{
		node: 'crmRecord',
		what: 'Create: empty required field',
		params: record('create', {
			module: 'Leads',
			fieldsMode: 'json',
			recordJson: '{"Company": "No Name Co"}',
		}),
		names: /^Required field Last Name \(Last_Name\) is missing \[MANDATORY_NOT_FOUND\] /,
	},
	{
		node: 'crmRecord',
		what: 'Create: unknown field',
		params: record('create', {
			module: 'Leads',
			fieldsMode: 'pairs',
			fieldsUi: { field: [{ name: 'No_Such_Field', value: 'x' }] },
		}),
		names: /Unknown field "No_Such_Field"/,
		local: true,
	},
	{
		node: 'crmRecord',
		what: 'Create: wrong type for a number field',
		params: record('create', {
			module: 'Leads',
			fieldsMode: 'pairs',
			fieldsUi: {
				field: [
					{ name: 'Last_Name', value: 'x' },
					{ name: 'No_of_Employees', value: 'many' },
				],
			},
		}),
		names: /Field "No_of_Employees" expects a whole number, got "many"/,
		local: true,
	},
	{
		node: 'crmRecord',
		what: 'Create: wrong type sent as given in raw mode',
		params: record('create', {
			module: 'Leads',
			fieldsMode: 'json',
			recordJson: json({ Last_Name: 'x', No_of_Employees: 'many' }),
		}),
		names:
			/^Field No\. of Employees \(No_of_Employees\) has an invalid value \(expected integer\) \[INVALID_DATA\] /,
	},
	{
		node: 'crmRecord',
		what: 'Create: unknown module',
		params: record('create', {
			module: 'No_Such_Module',
			fieldsMode: 'json',
			recordJson: '{"Name": "x"}',
		}),
		names: /INVALID_MODULE.*module API name/s,
	},
	{
		node: 'crmRecord',
		what: 'Update: malformed record id',
		params: record('update', {
			module: 'Leads',
			updateBy: 'id',
			recordId: 'abc',
			fieldsMode: 'json',
			recordJson: '{"Company": "x"}',
		}),
		names: /Record ID must be digits, got "abc"/,
		local: true,
	},
	{
		node: 'crmRecord',
		what: 'Update: invalid JSON in raw mode',
		params: record('update', {
			module: 'Leads',
			updateBy: 'id',
			recordId: '{lead}',
			fieldsMode: 'json',
			recordJson: '{Company: x}',
		}),
		names: /Record JSON is not valid JSON/,
		local: true,
	},
	{
		node: 'crmRecord',
		what: 'Update: unknown record',
		params: record('update', {
			module: 'Leads',
			updateBy: 'id',
			recordId: '1234567890123456789',
			fieldsMode: 'json',
			recordJson: '{"Company": "x"}',
		}),
		names: /INVALID_DATA.*1234567890123456789/s,
	},
	{
		node: 'crmRecord',
		what: 'Delete: record id of blanks',
		params: record('delete', { module: 'Leads', deleteBy: 'id', recordId: '  ' }),
		names: /^Record ID is empty \(item 0\) /,
		local: true,
	},
	{
		node: 'crmRecord',
		what: 'Delete Many: malformed ids',
		params: record('deleteMany', { module: 'Leads', recordIds: '{lead},not-an-id' }),
		names: /Record IDs must hold numeric IDs, got "not-an-id"/,
		local: true,
	},
	{
		node: 'crmRecord',
		what: 'Search: invalid criteria',
		params: record('search', {
			module: 'Leads',
			searchBy: 'rawCriteria',
			criteria: '((Last_Name:equals',
		}),
		names: /^Criteria must be of the form \(Field:operator:value\) Example: /,
	},
	{
		node: 'crmRecord',
		what: 'Mass Update: invalid criteria JSON',
		params: record('massUpdate', {
			module: 'Leads',
			massUpdateBy: 'cvid',
			cvid: '{lead}',
			criteriaJson: '{"api_name": ',
			fieldsMode: 'json',
			recordJson: '{"Lead_Source": "Web"}',
		}),
		names: /^Criteria \(JSON\) is not valid JSON $/,
	},
	{
		node: 'crmRecord',
		what: 'Mass Update: over-limit ids (501)',
		params: record('massUpdate', {
			module: 'Leads',
			massUpdateBy: 'ids',
			recordIds: ids(501),
			fieldsMode: 'json',
			recordJson: '{"Lead_Source": "Web"}',
		}),
		names: /Record IDs holds 501 IDs; at most 500/,
	},
	{
		node: 'crmRecord',
		what: 'Assign Territories: malformed territory ids',
		params: record('assignTerritories', {
			module: 'Leads',
			recordId: '{lead}',
			territoryIds: 'north,south',
		}),
		names: /Territory IDs must hold numeric IDs, got "north"/,
		local: true,
	},
	{
		node: 'crmRecord',
		what: 'Convert Lead: malformed lead id',
		params: record('convertLead', { recordId: 'lead-1', createDeal: false }),
		names: /Record ID must be digits, got "lead-1"/,
	},
	{
		node: 'crmRecord',
		what: 'Note › Create: content empty by expression',
		params: {
			resource: 'note',
			operation: 'create',
			inputMode: 'oneNote',
			module: 'Leads',
			recordId: '{lead}',
			noteContent: EMPTY,
		},
		names: /^Note Content is empty $/,
	},
	{
		node: 'crmRecord',
		what: 'Note › Create: invalid JSON list',
		params: {
			resource: 'note',
			operation: 'create',
			inputMode: 'list',
			module: 'Leads',
			recordId: '{lead}',
			notes: '[{"Note_Content": ',
		},
		names: /Notes is not valid JSON/,
		local: true,
	},
	{
		node: 'crmRecord',
		what: 'Tag › Create: name over 25 characters',
		params: { resource: 'tag', operation: 'create', module: 'Leads', tagName: 'x'.repeat(26) },
		names: /has 26 characters; tag names may have at most 25/,
	},
	{
		node: 'crmRecord',
		what: 'Tag › Add to Records: a list where one id is expected',
		params: {
			resource: 'tag',
			operation: 'addToRecords',
			module: 'Leads',
			recordId: ids(101),
			tagNames: 'vip',
		},
		names: /^Record ID must be digits, got "4876876000000700000,4876876000000700001,/,
	},
	{
		node: 'crmRecord',
		what: 'Tag › Add to Record: empty tag names',
		params: {
			resource: 'tag',
			operation: 'addToRecord',
			module: 'Leads',
			recordId: '{lead}',
			tagNames: ' , ',
		},
		names: /Tag Names is empty/,
	},
	{
		node: 'crmRecord',
		what: 'Attachment › Upload Link: not a URL',
		params: {
			resource: 'attachment',
			operation: 'uploadLink',
			module: 'Leads',
			recordId: '{lead}',
			attachmentUrl: 'not a url',
		},
		names: /^Field attachmentUrl has an invalid value \[INVALID_DATA\]/,
	},
	{
		node: 'crmRecord',
		what: 'Attachment › Upload File: missing binary property',
		params: {
			resource: 'attachment',
			operation: 'uploadFile',
			module: 'Leads',
			recordId: '{lead}',
			binaryPropertyName: 'nope',
		},
		names: /binary file 'nope'/,
	},
	{
		node: 'crmRecord',
		what: 'Related Record › Get: malformed related id',
		params: {
			resource: 'relatedRecord',
			operation: 'get',
			module: 'Accounts',
			recordId: '{account}',
			relatedList: 'Contacts',
			relatedRecordId: 'x1',
		},
		names: /Related Record ID must be digits, got "x1"/,
	},
	{
		node: 'crmRecord',
		what: 'Related Record › Get Many: unknown related list',
		params: {
			resource: 'relatedRecord',
			operation: 'getAll',
			module: 'Accounts',
			recordId: '{account}',
			relatedList: 'No_Such_List',
			limit: 5,
		},
		names: /related list.*related_list/s,
	},
	{
		node: 'crmRecord',
		what: 'Share › Share: no users',
		params: {
			resource: 'share',
			operation: 'share',
			module: 'Leads',
			recordId: '{lead}',
			users: {},
		},
		names: /^Add at least one user to share with $/,
	},
	{
		node: 'crmRecord',
		what: 'Contact Role › Create: name empty by expression',
		params: { resource: 'contactRole', operation: 'create', name: EMPTY },
		names: /^Name is empty $/,
	},

	// ---- CRM Query -------------------------------------------------------------------------------
	{
		node: 'crmQuery',
		what: 'Run: query of blanks',
		params: { resource: 'query', operation: 'run', selectQuery: '   ' },
		names: /The parameter "Query" is empty/,
	},
	{
		node: 'crmQuery',
		what: 'Run: not a SELECT',
		params: { resource: 'query', operation: 'run', selectQuery: 'DELETE FROM Leads' },
		names: /SYNTAX_ERROR.*SELECT/s,
	},
	{
		node: 'crmQuery',
		what: 'Run: unknown module',
		params: {
			resource: 'query',
			operation: 'run',
			selectQuery: 'select Last_Name from No_Such_Module where id is not null',
		},
		names: /INVALID_MODULE.*No_Such_Module/,
	},
	{
		node: 'crmQuery',
		what: 'Run: unknown field',
		params: {
			resource: 'query',
			operation: 'run',
			selectQuery: 'select No_Such_Field from Leads where id is not null',
		},
		names: /INVALID_QUERY.*No_Such_Field/,
	},

	// ---- CRM Notification ------------------------------------------------------------------------
	{
		node: 'crmNotification',
		what: 'Enable: notify URL not a URL',
		params: {
			resource: 'channel',
			operation: 'enable',
			eventsUi: { event: [{ module: 'Leads', eventType: 'all' }] },
			notifyUrl: 'example dot com',
		},
		names: /Notify URL must be an absolute http\(s\) URL/,
		local: true,
	},
	{
		node: 'crmNotification',
		what: 'Enable: no events',
		params: {
			resource: 'channel',
			operation: 'enable',
			eventsUi: {},
			notifyUrl: 'https://example.com/hook',
		},
		names: /Events: add at least one module/,
		local: true,
	},
	{
		node: 'crmNotification',
		what: 'Enable: malformed channel id',
		params: {
			resource: 'channel',
			operation: 'enable',
			channelId: 'chan-1',
			eventsUi: { event: [{ module: 'Leads', eventType: 'all' }] },
			notifyUrl: 'https://example.com/hook',
		},
		names: /Channel ID must be a number/,
		local: true,
	},
	{
		node: 'crmNotification',
		what: 'Enable: unknown module',
		params: {
			resource: 'channel',
			operation: 'enable',
			eventsUi: { event: [{ module: 'No_Such_Module', eventType: 'all' }] },
			notifyUrl: 'https://example.com/hook',
		},
		names: /INVALID_MODULE.*events/s,
	},
	{
		node: 'crmNotification',
		what: 'Enable: token over 50 characters',
		params: {
			resource: 'channel',
			operation: 'enable',
			eventsUi: { event: [{ module: 'Leads', eventType: 'all' }] },
			notifyUrl: 'https://example.com/hook',
			options: { token: 't'.repeat(51) },
		},
		names: /Token is 51 characters long; the CRM accepts at most 50/,
		local: true,
	},
	{
		node: 'crmNotification',
		what: 'Disable: malformed channel ids',
		params: { resource: 'channel', operation: 'disable', channelIds: '12,abc' },
		names: /Channel IDs must be a number/,
	},
	{
		node: 'crmNotification',
		what: 'Disable: over-limit list (101 ids)',
		params: { resource: 'channel', operation: 'disable', channelIds: ids(101) },
		names: /Channel IDs: at most 100 per item, got 101/,
	},

	// ---- CRM Mail --------------------------------------------------------------------------------
	{
		node: 'crmMail',
		what: 'Send: malformed record id',
		params: {
			resource: 'mail',
			operation: 'send',
			module: 'Leads',
			recordId: 'abc',
			from: 'admin@example.com',
			to: 'a@example.com',
			subject: 's',
			content: 'c',
		},
		names: /Record ID must be digits, got "abc"/,
		local: true,
	},
	{
		node: 'crmMail',
		what: 'Send: To empty by expression',
		params: {
			resource: 'mail',
			operation: 'send',
			module: 'Leads',
			recordId: '{lead}',
			from: 'admin@example.com',
			to: EMPTY,
			subject: 's',
			content: 'c',
		},
		names: /^The parameter "To" needs at least one recipient $/,
	},
	{
		node: 'crmMail',
		what: 'Send: To not an email address',
		params: {
			resource: 'mail',
			operation: 'send',
			module: 'Leads',
			recordId: '{lead}',
			from: 'admin@example.com',
			to: 'not-an-address',
			subject: 's',
			content: 'c',
		},
		names: /"To" holds an invalid email address: "not-an-address"/,
		local: true,
	},
	{
		node: 'crmMail',
		what: 'Send: From left empty',
		params: {
			resource: 'mail',
			operation: 'send',
			module: 'Leads',
			recordId: '{lead}',
			from: '',
			to: 'a@example.com',
			subject: 's',
			content: 'c',
		},
		names: /Parameter "From Name or ID" is required/,
	},
	{
		node: 'crmMail',
		what: 'Send: unknown module',
		params: {
			resource: 'mail',
			operation: 'send',
			module: 'No_Such_Module',
			recordId: '{lead}',
			from: 'admin@example.com',
			to: 'a@example.com',
			subject: 's',
			content: 'c',
		},
		names: /INVALID_MODULE.*module API name/s,
	},

	// ---- CRM Admin -------------------------------------------------------------------------------
	{
		node: 'crmAdmin',
		what: 'User › Get: malformed user id',
		params: { resource: 'user', operation: 'get', userId: 'me' },
		names: /User ID must be digits, got "me"/,
	},
	{
		node: 'crmAdmin',
		what: 'User › Create: email not an address',
		params: {
			resource: 'user',
			operation: 'create',
			email: 'nobody',
			lastName: 'X',
			role: '{role}',
			profile: '{profile}',
		},
		names: /PATTERN_NOT_MATCHED.*email/s,
	},
	{
		node: 'crmAdmin',
		what: 'User › Create: last name left empty',
		params: {
			resource: 'user',
			operation: 'create',
			email: 'new.user@example.com',
			lastName: '',
			role: '{role}',
			profile: '{profile}',
		},
		names: /Parameter "Last Name" is required/,
	},
	{
		node: 'crmAdmin',
		what: 'User › Create: last name empty by expression',
		params: {
			resource: 'user',
			operation: 'create',
			email: 'new.user@example.com',
			lastName: EMPTY,
			role: '{role}',
			profile: '{profile}',
		},
		names: /^"Last Name" is required $/,
	},
	{
		node: 'crmAdmin',
		what: 'Tax › Create: name empty by expression',
		params: { resource: 'tax', operation: 'create', taxName: EMPTY, taxValue: 5 },
		names: /^Required field name is missing \[MANDATORY_NOT_FOUND\] Provide a value for name\./,
	},
	{
		node: 'crmAdmin',
		what: 'Tax › Create: value of the wrong type',
		params: { resource: 'tax', operation: 'create', taxName: 'VAT X', taxValue: 'five' },
		names: /Value must be a number, got "five"/,
		local: true,
	},
	{
		node: 'crmAdmin',
		what: 'Currency › Create: exchange rate not a number',
		params: {
			resource: 'currency',
			operation: 'create',
			isoCode: 'CHF',
			currencyName: 'Swiss Franc',
			symbol: 'Fr',
			exchangeRate: 'lots',
		},
		names: /Exchange Rate must be a positive number, got "lots"/,
		local: true,
	},
	{
		node: 'crmAdmin',
		what: 'Variable › Get: malformed variable id',
		params: {
			resource: 'variable',
			operation: 'get',
			group: '{group}',
			getBy: 'id',
			variableId: 'var-1',
		},
		names: /Variable ID must be digits, got "var-1"/,
	},
	{
		node: 'crmAdmin',
		what: 'Variable › Create: value of the wrong type',
		params: {
			resource: 'variable',
			operation: 'create',
			variableName: 'Count',
			variableType: 'integer',
			group: '{group}',
			value: 'twelve',
		},
		names: /Value "twelve" is not a whole number/,
		local: true,
	},
	{
		node: 'crmAdmin',
		what: 'Organization › Upload Photo: missing binary property',
		params: { resource: 'organization', operation: 'uploadPhoto', binaryPropertyName: 'nope' },
		names: /binary file 'nope'/,
	},

	// ---- CRM Bulk --------------------------------------------------------------------------------
	{
		node: 'crmBulk',
		what: 'Bulk Read › Create: invalid criteria JSON',
		params: {
			resource: 'bulkRead',
			operation: 'create',
			module: 'Leads',
			filterType: 'json',
			criteriaJson: '{"api_name": ',
			waitForCompletion: false,
		},
		names: /Criteria \(JSON\) is not valid JSON/,
		local: true,
	},
	{
		node: 'crmBulk',
		what: 'Bulk Read › Create: over-limit conditions (26)',
		params: {
			resource: 'bulkRead',
			operation: 'create',
			module: 'Leads',
			filterType: 'conditions',
			conditions: {
				condition: Array.from({ length: 26 }, () => ({
					field: 'Last_Name',
					comparator: 'equal',
					value: 'x',
				})),
			},
			waitForCompletion: false,
		},
		names: /Conditions has 26 entries; bulk read allows at most 25/,
		local: true,
	},
	{
		node: 'crmBulk',
		what: 'Bulk Read › Create: over-limit values (51)',
		params: {
			resource: 'bulkRead',
			operation: 'create',
			module: 'Leads',
			filterType: 'conditions',
			conditions: {
				condition: [
					{
						field: 'Last_Name',
						comparator: 'in',
						value: Array.from({ length: 51 }, (_, i) => `v${i}`).join(','),
					},
				],
			},
			waitForCompletion: false,
		},
		names: /\(Last_Name in\) has 51 values; at most 50/,
		local: true,
	},
	{
		node: 'crmBulk',
		what: 'Bulk Read › Create: wrong type in a condition',
		params: {
			resource: 'bulkRead',
			operation: 'create',
			module: 'Leads',
			filterType: 'conditions',
			conditions: {
				condition: [{ field: 'No_of_Employees', comparator: 'greater_than', value: 'many' }],
			},
			waitForCompletion: false,
		},
		names: /Condition on "No_of_Employees" expects a number, got "many"/,
		local: true,
	},
	{
		node: 'crmBulk',
		what: 'Bulk Read › Create: unknown module',
		params: {
			resource: 'bulkRead',
			operation: 'create',
			module: 'No_Such_Module',
			waitForCompletion: false,
		},
		names: /MODULE_NOT_AVAILABLE.*api_name: module, value: No_Such_Module/s,
	},
	{
		node: 'crmBulk',
		what: 'Bulk Read › Create: callback not a URL',
		params: {
			resource: 'bulkRead',
			operation: 'create',
			module: 'Leads',
			waitForCompletion: false,
			options: { callbackUrl: 'ftp://example.com/x' },
		},
		names: /Callback URL must be an absolute http\(s\) URL/,
		local: true,
	},
	{
		node: 'crmBulk',
		what: 'Bulk Write › Create: missing binary property',
		params: {
			resource: 'bulkWrite',
			operation: 'create',
			writeOperation: 'insert',
			module: 'Leads',
			source: 'binary',
			binaryPropertyName: 'nope',
			waitForCompletion: false,
		},
		names: /binary file 'nope'/,
		local: true,
	},
	{
		node: 'crmBulk',
		what: 'Bulk Write › Create: file id empty by expression',
		params: {
			resource: 'bulkWrite',
			operation: 'create',
			writeOperation: 'insert',
			module: 'Leads',
			source: 'fileId',
			fileId: EMPTY,
			waitForCompletion: false,
		},
		names: /^File ID is required Upload the file with Bulk Write → Upload File first\.$/,
	},
	{
		node: 'crmBulk',
		what: 'File › Get: file id left empty',
		params: { resource: 'file', operation: 'get', fileId: '' },
		names: /Parameter "File ID" is required/,
	},

	// ---- CRM Metadata ----------------------------------------------------------------------------
	{
		node: 'crmMetadata',
		what: 'Field › Get Many: unknown module',
		params: { resource: 'field', operation: 'getAll', module: 'No_Such_Module' },
		names: /INVALID_MODULE.*param: module/s,
	},
	{
		node: 'crmMetadata',
		what: 'Module › Get: unknown module',
		params: { resource: 'module', operation: 'get', module: 'No_Such_Module' },
		names: /INVALID_MODULE.*module API name/s,
	},
	{
		node: 'crmMetadata',
		what: 'Module › Update: unknown module',
		params: {
			resource: 'module',
			operation: 'update',
			identifyBy: 'apiName',
			module: 'No_Such_Module',
			updateFields: { plural_label: 'People' },
		},
		names: /INVALID_MODULE.*module API name/s,
	},
	{
		node: 'crmMetadata',
		what: 'Pipeline › Create: name left empty',
		params: {
			resource: 'pipeline',
			operation: 'create',
			layoutId: '{layout}',
			name: '',
			stageIds: ['{lead}'],
		},
		names: /Parameter "Name" is required/,
	},
	{
		node: 'crmMetadata',
		what: 'Pipeline › Create: no stages',
		params: {
			resource: 'pipeline',
			operation: 'create',
			layoutId: '{layout}',
			name: 'P',
			stageIds: [],
		},
		names: /Parameter "Stage Names or IDs" is required/,
	},
	// path ids are checked before sending (shared requireDigits guard)
	{
		node: 'crmRecord',
		what: 'Note › Get: malformed note id',
		params: { resource: 'note', operation: 'get', noteId: 'note/../1' },
		names: /^Note ID must be digits, got "note\/\.\.\/1"/,
	},
	{
		node: 'crmRecord',
		what: 'Attachment › Get Many: malformed record id',
		params: {
			resource: 'attachment',
			operation: 'getAll',
			module: 'Leads',
			recordId: '1 OR 1=1',
			limit: 5,
		},
		names: /^Record ID must be digits, got "1 OR 1=1"/,
	},
	{
		node: 'crmRecord',
		what: 'Contact Role › Add to Deal: malformed deal id',
		params: {
			resource: 'contactRole',
			operation: 'addToDeal',
			dealId: 'deal',
			contactId: '{contact}',
			contactRoleId: '{lead}',
		},
		names: /^Deal ID must be digits, got "deal"/,
	},
	{
		node: 'crmBulk',
		what: 'Bulk Read › Get: malformed job id',
		params: { resource: 'bulkRead', operation: 'get', jobId: 'job/../1' },
		names: /^Job ID must be digits, got "job\/\.\.\/1"/,
	},
	{
		node: 'crmMetadata',
		what: 'Field › Get: malformed field id',
		params: { resource: 'field', operation: 'get', module: 'Leads', fieldId: 'Last Name' },
		names: /^Field ID must be digits, got "Last Name"/,
	},
	{
		node: 'crmMetadata',
		what: 'Layout › Get: malformed layout id',
		params: { resource: 'layout', operation: 'get', module: 'Leads', layoutId: 'standard' },
		names: /^Layout ID must be digits, got "standard"/,
	},
	{
		node: 'crmMetadata',
		what: 'Blueprint › Get: malformed record id',
		params: { resource: 'blueprint', operation: 'get', module: 'Deals', recordId: 'deal-7' },
		names: /^Record ID must be digits, got "deal-7"/,
	},
	{
		node: 'crmMetadata',
		what: 'Custom View › Get: malformed view id',
		params: {
			resource: 'customView',
			operation: 'get',
			module: 'Leads',
			customViewId: 'all leads',
		},
		names: /^Custom View ID must be digits, got "all leads"/,
	},
	// empty by expression, wrongly labelled JSON, a limit under the form's minimum
	{
		node: 'crmRecord',
		what: 'Get: record id empty by expression',
		params: record('get', { module: 'Leads', recordId: EMPTY }),
		names: /^Record ID is empty \(item 0\)\s/,
	},
	{
		node: 'crmRecord',
		what: 'Mass Update: invalid JSON values',
		params: record('massUpdate', {
			module: 'Leads',
			massUpdateBy: 'ids',
			recordIds: '{lead}',
			fieldsMode: 'json',
			recordJson: '{"Lead_Source": ',
		}),
		names: /^Values JSON is not valid JSON /,
	},
	{
		node: 'crmQuery',
		what: 'Run: negative limit',
		params: {
			resource: 'query',
			operation: 'run',
			selectQuery: 'select Last_Name from Leads where id is not null',
			returnAll: false,
			limit: -5,
		},
		names: /"Limit" must be a whole number of at least 1, got -5/,
	},
];

let crm: CrmFixture;
let demo: Record<string, string>;
const tried: string[] = [];

/** The case's parameters with the `{…}` placeholders replaced by demo ids. */
function paramsOf(c: Case): INode['parameters'] {
	return JSON.parse(
		JSON.stringify(c.params).replace(/\{(\w+)\}/g, (m, key: string) => demo[key] ?? m),
	) as INode['parameters'];
}

/** Runs the case; answers the refusal (the node's error, or n8n's pre-run parameter check). */
async function refusalOf(c: Case): Promise<(Error & { description?: string }) | undefined> {
	const node = crm.node(c.node, paramsOf(c));
	try {
		return errorOf(await crm.run(node, c.input), node.name);
	} catch (error) {
		// WorkflowHasIssuesError: n8n refuses to start with a required parameter left empty
		return error as Error;
	}
}

beforeAll(async () => {
	crm = await crmFixture();
	// the id of the first item a list call of the service answers
	const first = async (pathAndQuery: string, key: string): Promise<string> => {
		const res = await crm.api('GET', pathAndQuery);
		const id = res.body?.[key]?.[0]?.id;
		if (!id) throw new Error(`GET ${pathAndQuery} answered ${res.status} without ${key}`);
		return String(id);
	};
	const record = async (module: string) =>
		await first(`/crm/v2.1/${module}?fields=Created_Time&per_page=1`, 'data');
	demo = {
		lead: await record('Leads'),
		account: await record('Accounts'),
		contact: await record('Contacts'),
		deal: await record('Deals'),
		user: await first('/crm/v2.1/users?type=AllUsers', 'users'),
		role: await first('/crm/v2.1/settings/roles', 'roles'),
		profile: await first('/crm/v2.1/settings/profiles', 'profiles'),
		group: await first('/crm/v2.1/settings/variable_groups', 'variable_groups'),
		layout: await first('/crm/v2.1/settings/layouts?module=Deals', 'layouts'),
	};
});
afterAll(async () => {
	const nodes = new Set(CASES.map((c) => c.node)).size + 1;
	console.log(
		`node bad input: inputs tried: ${tried.length} across ${nodes} nodes, each refused with an error naming the parameter`,
	);
	await crm.close();
});

describe('bad input › every node refuses malformed parameters with a clear error', () => {
	test.each(CASES.map((c) => [`${c.node} › ${c.what}`, c] as const))('%s', async (_title, c) => {
		const error = await refusalOf(c);
		// never a silent success
		expect(error).toBeDefined();
		// never a crash (TypeError…): the node's own error classes, or n8n's parameter check
		expect(REFUSALS).toContain(error!.name);
		if (c.local) expect(error!.name).toBe('NodeOperationError');
		expect(`${error!.message} ${error!.description ?? ''}`).toMatch(c.names);
		tried.push(c.what);
	});
});

describe('bad input › CRM Trigger', () => {
	const trigger = () => crm.nodeTypes['n8n-nodes-crm-service.crmTrigger'] as unknown as CrmTrigger;
	let counter = 0;
	const harness = (parameters: INode['parameters']) => {
		counter++;
		const node = crm.node('crmTrigger', parameters, {
			name: 'CRM Trigger',
			webhookId: `bad1npu7-0000-4000-8000-${String(counter).padStart(12, '0')}`,
		});
		const t = triggerHarness({ nodeTypes: crm.nodeTypes, credentialsHelper: crm.helper }, node);
		(t.additionalData as unknown as Record<string, string>).webhookBaseUrl =
			'http://127.0.0.1:9/webhook';
		return t;
	};

	test.each([
		['no module', { modules: [], events: ['create'] }, /^Choose at least one module to watch $/],
		['no event', { modules: ['Leads'], events: [] }, /^Choose at least one event to watch $/],
		[
			'unknown module',
			{ modules: ['No_Such_Module'], events: ['create'] },
			/^Could not subscribe the watch channel: The module does not exist or cannot be used through the API \[INVALID_MODULE\]/,
		],
	] as const)(
		'activation with %s is refused with a clear error',
		async (_what, parameters, names) => {
			const t = harness(parameters as unknown as INode['parameters']);
			const hooks = trigger().webhookMethods.default;
			let error: any;
			try {
				if (!(await hooks.checkExists.call(t.hookContext())))
					await hooks.create.call(t.hookContext());
			} catch (e) {
				error = e;
			}
			expect(error).toBeDefined();
			expect(['NodeOperationError', 'NodeApiError']).toContain(error.name);
			expect(`${error.message} ${error.description ?? ''}`).toMatch(names);
			tried.push(`trigger activation: ${_what}`);
		},
	);

	test('malformed deliveries never crash webhook() and never start an execution', async () => {
		const t = harness({ modules: ['Leads'], events: ['create'], output: 'ids' });
		const hooks = trigger().webhookMethods.default;
		if (!(await hooks.checkExists.call(t.hookContext()))) await hooks.create.call(t.hookContext());
		const { channelId, token } = t.staticData() as Record<string, string>;
		const genuine = {
			channel_id: channelId,
			token,
			module: 'Leads',
			operation: 'insert',
			server_time: Date.now(),
		};
		const bodies: unknown[] = [
			undefined,
			'not json',
			[],
			{},
			{ channel_id: channelId },
			{ ...genuine, token: 42 },
			{ ...genuine, ids: '4876876000000611001' },
			{ ...genuine, ids: [null, { id: 1 }] },
			{ ...genuine, ids: [] },
			{ ...genuine, ids: 'x'.repeat(10_000) },
		];
		for (const body of bodies) {
			const { ctx, sent, answer } = t.webhookContext({ body });
			const result = await trigger().webhook.call(ctx);
			answer(200);
			const status = result.noWebhookResponse ? sent.status : 200;
			expect([200, 400, 401]).toContain(status);
			if (result.workflowData) {
				// only a body with genuine credentials and listed ids may start an execution
				expect(Array.isArray((body as any).ids)).toBe(true);
			}
			tried.push(`trigger delivery: ${JSON.stringify(body)?.slice(0, 40)}`);
		}
		await hooks.delete.call(t.hookContext());
	});
});
