// Contract tests of the sandbox variables and variable groups (docs/protocol.md §5.9, §3.10, §13) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import type { ApiInit } from '../harness/sandbox.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const GENERAL = '4876876000000391001';
const INTEGRATIONS = '4876876000000391003';
const DISCOUNT = '4876876000000391103';

const sb = useContractFixture({
	scope: 'CRM.settings.variables.ALL,CRM.settings.variable_groups.READ',
});

const call = async (
	method: string,
	path: string,
	init: Omit<ApiInit, 'method'> = {},
	v = 'v2.1',
	bearer = sb.token,
) => await api(`${sb.url}/crm/${v}${path}`, bearer, { ...init, method });

describe('variable groups', () => {
	it('GetVariableGroups lists them; by id and by API name (case-insensitive) give one; unknown 204', async () => {
		const list = await call('GET', '/settings/variable_groups');
		expect(list.body.variable_groups).toEqual([
			{
				id: GENERAL,
				api_name: 'General',
				name: 'General',
				display_label: 'General',
				description: 'Organisation-wide values',
			},
			expect.objectContaining({ id: INTEGRATIONS, api_name: 'Integrations' }),
		]);
		expect(
			(await call('GET', `/settings/variable_groups/${INTEGRATIONS}`)).body.variable_groups[0]
				.api_name,
		).toBe('Integrations');
		expect(
			(await call('GET', '/settings/variable_groups/general')).body.variable_groups[0].id,
		).toBe(GENERAL);
		expect((await call('GET', '/settings/variable_groups/Nope')).status).toBe(204);
	});

	it('needs the variable_groups scope', async () => {
		const only = (await grantToken(sb.url, { scope: 'CRM.settings.variables.ALL' })).access_token;
		expect((await call('GET', '/settings/variable_groups', {}, 'v2.1', only)).body.code).toBe(
			'OAUTH_SCOPE_MISMATCH',
		);
	});
});

describe('GetVariables / GetVariableByID / GetVariableForAPIName', () => {
	it('lists a group (by id or API name); `group` is required; v2 has no `source`', async () => {
		const general = await call('GET', '/settings/variables', { query: { group: 'General' } });
		expect(general.body.variables.map((v: any) => v.api_name)).toEqual([
			'Company_Tagline',
			'Discount_Limit',
			'Fiscal_Year_Start',
		]);
		expect(general.body.variables[1]).toEqual({
			id: DISCOUNT,
			api_name: 'Discount_Limit',
			name: 'Discount Limit',
			description: 'Highest discount in percent a rep may grant',
			type: 'integer',
			value: 15,
			variable_group: { id: GENERAL, api_name: 'General' },
			source: 'crm',
		});
		const v2 = await call('GET', '/settings/variables', { query: { group: INTEGRATIONS } }, 'v2');
		expect(v2.body.variables.map((v: any) => v.api_name)).toEqual(['ERP_Endpoint', 'Sync_Enabled']);
		expect(v2.body.variables[0]).not.toHaveProperty('source');
		const missing = await call('GET', '/settings/variables');
		expect(missing.status).toBe(400);
		expect(missing.body).toMatchObject({
			code: 'REQUIRED_PARAM_MISSING',
			details: { param: 'group', param_name: 'group' },
		});
		const unknown = await call('GET', '/settings/variables', { query: { group: 'Nope' } });
		expect(unknown.body).toMatchObject({ code: 'INVALID_DATA', details: { param: 'group' } });
	});

	it('reads one by id or API name within the group; elsewhere 204', async () => {
		const byId = await call('GET', `/settings/variables/${DISCOUNT}`, {
			query: { group: GENERAL },
		});
		expect(byId.body.variables[0].api_name).toBe('Discount_Limit');
		const byName = await call('GET', '/settings/variables/sync_enabled', {
			query: { group: 'Integrations' },
		});
		expect(byName.body.variables[0]).toMatchObject({ type: 'checkbox', value: true });
		expect(
			(await call('GET', `/settings/variables/${DISCOUNT}`, { query: { group: 'Integrations' } }))
				.status,
		).toBe(204);
		expect((await call('GET', `/settings/variables/${DISCOUNT}`)).body.code).toBe(
			'REQUIRED_PARAM_MISSING',
		);
	});
});

describe('CreateVariables', () => {
	it('creates (201 variable added), deriving the API name and typing the value', async () => {
		const res = await call('POST', '/settings/variables', {
			body: {
				variables: [
					{
						name: 'Max Seats',
						type: 'integer',
						value: '25',
						variable_group: { api_name: 'General' },
						description: 'Seats per licence',
					},
					{
						name: 'Webhook URL',
						api_name: 'Webhook_Url',
						type: 'website',
						value: 'https://hooks.example.com/crm',
						variable_group: { id: INTEGRATIONS },
					},
				],
			},
		});
		expect(res.status).toBe(201);
		expect(res.body.variables.map((v: any) => [v.code, v.message])).toEqual([
			['SUCCESS', 'variable added'],
			['SUCCESS', 'variable added'],
		]);
		const seats = await call('GET', '/settings/variables/Max_Seats', {
			query: { group: 'General' },
		});
		expect(seats.body.variables[0]).toMatchObject({
			id: res.body.variables[0].details.id,
			value: 25,
			type: 'integer',
			description: 'Seats per licence',
		});
	});

	it('refuses with the variables codes: required keys, type, group, duplicates, unparseable values', async () => {
		const res = await call('POST', '/settings/variables', {
			body: {
				variables: [
					{ type: 'text', variable_group: { id: GENERAL } },
					{ name: 'A', type: 'blob', variable_group: { id: GENERAL } },
					{ name: 'B', type: 'text', variable_group: { id: '4876876000000999999' } },
					{ name: 'Discount Limit', type: 'integer', value: 1, variable_group: { id: GENERAL } },
					{ name: 'C', type: 'integer', value: 'ten', variable_group: { id: GENERAL } },
					{ name: 'D', type: 'date', value: '2025-13-01', variable_group: { id: GENERAL } },
					{ name: 'E', api_name: '1bad', type: 'text', variable_group: { id: GENERAL } },
					{ name: 'Twin', type: 'text', variable_group: { id: GENERAL } },
					{ name: 'twin', type: 'text', variable_group: { id: GENERAL } },
				],
			},
		});
		expect(res.status).toBe(201);
		expect(res.body.variables.map((v: any) => [v.code, v.details.api_name])).toEqual([
			['INVALID_DATA', 'name'],
			['INVALID_DATA', 'type'],
			['INVALID_DATA', 'variable_group'],
			['DUPLICATE_DATA', 'api_name'],
			['UNABLE_TO_PARSE_DATA_TYPE', 'value'],
			['UNABLE_TO_PARSE_DATA_TYPE', 'value'],
			['INVALID_DATA', 'api_name'],
			['SUCCESS', undefined],
			['DUPLICATE_DATA', 'api_name'],
		]);
	});
});

describe('UpdateVariables / UpdateVariableById / UpdateVariableByAPIName', () => {
	it('updates several by id or API name; values are checked against the type', async () => {
		const res = await call('PUT', '/settings/variables', {
			body: {
				variables: [
					{ id: DISCOUNT, value: 20 },
					{ api_name: 'Sync_Enabled', value: 'false' },
					{ id: DISCOUNT, value: 'lots' },
					{ value: 1 },
					{ id: '4876876000000999999', value: 1 },
				],
			},
		});
		expect(res.status).toBe(200);
		expect(res.body.variables.map((v: any) => [v.code, v.message])).toEqual([
			['SUCCESS', 'variable updated'],
			['SUCCESS', 'variable updated'],
			['UNABLE_TO_PARSE_DATA_TYPE', 'the value cannot be read as integer'],
			['INVALID_DATA', 'required field not found'],
			['INVALID_DATA', 'the id given seems to be invalid'],
		]);
		const sync = await call('GET', '/settings/variables/Sync_Enabled', {
			query: { group: 'Integrations' },
		});
		expect(sync.body.variables[0].value).toBe(false);
	});

	it('by path: id or API name; type change re-reads the value; moving to another group', async () => {
		const byId = await call('PUT', `/settings/variables/${DISCOUNT}`, {
			body: { variables: [{ type: 'decimal', value: '12.5', description: 'Now a decimal' }] },
		});
		expect(byId.body.variables[0]).toEqual({
			code: 'SUCCESS',
			details: { id: DISCOUNT },
			message: 'variable updated',
			status: 'success',
		});
		const byName = await call('PUT', '/settings/variables/Company_Tagline', {
			body: { variables: [{ variable_group: { api_name: 'Integrations' } }] },
		});
		expect(byName.body.variables[0].code).toBe('SUCCESS');
		const moved = await call('GET', '/settings/variables/Company_Tagline', {
			query: { group: 'Integrations' },
		});
		expect(moved.body.variables[0].variable_group).toEqual({
			id: INTEGRATIONS,
			api_name: 'Integrations',
		});
		const discount = await call('GET', `/settings/variables/${DISCOUNT}`, {
			query: { group: 'General' },
		});
		expect(discount.body.variables[0]).toMatchObject({
			type: 'decimal',
			value: 12.5,
			description: 'Now a decimal',
		});
		const bad = await call('PUT', `/settings/variables/${DISCOUNT}`, {
			body: { variables: [{ type: 'checkbox' }] },
		});
		expect(bad.status).toBe(400);
		expect(bad.body.variables[0].code).toBe('UNABLE_TO_PARSE_DATA_TYPE');
		const unknown = await call('PUT', '/settings/variables/No_Such', {
			body: { variables: [{ value: 1 }] },
		});
		expect(unknown.body.variables[0].code).toBe('INVALID_DATA');
	});
});

describe('DeleteVariables / DeleteVariable', () => {
	it('deletes by ids (variable deleted) and by path; unknown ids INVALID_DATA', async () => {
		const list = (await call('GET', '/settings/variables', { query: { group: 'General' } })).body
			.variables;
		const seats = list.find((v: any) => v.api_name === 'Max_Seats').id;
		const twin = list.find((v: any) => v.api_name === 'Twin').id;
		const res = await call('DELETE', `/settings/variables?ids=${seats},4876876000000999999`);
		expect(res.status).toBe(200);
		expect(res.body.variables).toEqual([
			{ code: 'SUCCESS', details: { id: seats }, message: 'variable deleted', status: 'success' },
			{
				code: 'INVALID_DATA',
				details: { id: '4876876000000999999' },
				message: 'the id given seems to be invalid',
				status: 'error',
			},
		]);
		const one = await call('DELETE', `/settings/variables/${twin}`);
		expect(one.body.variables[0]).toMatchObject({ code: 'SUCCESS', details: { id: twin } });
		const after = (
			await call('GET', '/settings/variables', { query: { group: 'General' } })
		).body.variables.map((v: any) => v.api_name);
		expect(after).toEqual(['Discount_Limit', 'Fiscal_Year_Start']);
		expect((await call('DELETE', '/settings/variables')).body.code).toBe('REQUIRED_PARAM_MISSING');
	});
});
