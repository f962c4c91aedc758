// Contract tests of the sandbox taxes (docs/protocol.md §5.9, §2.3, §6, §11) over HTTP.
import { useContractFixture } from '../harness/contract.ts';
import type { ApiInit } from '../harness/sandbox.ts';
import { api, grantToken } from '../harness/sandbox.ts';

const SALES_TAX = '4876876000000381001';
const VAT = '4876876000000381003';
const SERVICE_TAX = '4876876000000381005';

const sb = useContractFixture({ scope: 'CRM.org.ALL' });

const call = async (
	method: string,
	path: string,
	init: Omit<ApiInit, 'method'> = {},
	bearer = sb.token,
) => await api(`${sb.url}/crm/v2.1${path}`, bearer, { ...init, method });
const names = async () =>
	(await call('GET', '/org/taxes')).body.taxes.map((t: any) => `${t.sequence_number}:${t.name}`);

describe('GetTaxes / GetTax', () => {
	it('answers the preference and the taxes in sequence order', async () => {
		const res = await call('GET', '/org/taxes');
		expect(res.status).toBe(200);
		expect(res.body.preference).toEqual({ modify_tax_rates: true, auto_populate_tax: false });
		expect(res.body.taxes).toEqual([
			{
				id: SALES_TAX,
				name: 'Sales Tax',
				display_label: 'Sales Tax - 8.25 %',
				value: 8.25,
				sequence_number: 1,
			},
			{ id: VAT, name: 'VAT', display_label: 'VAT - 20 %', value: 20, sequence_number: 2 },
			{
				id: SERVICE_TAX,
				name: 'Service Tax',
				display_label: 'Service Tax - 5 %',
				value: 5,
				sequence_number: 3,
			},
		]);
		const one = await call('GET', `/org/taxes/${VAT}`);
		expect(one.body).toEqual({ preference: res.body.preference, taxes: [res.body.taxes[1]] });
		expect((await call('GET', '/org/taxes/4876876000000999999')).status).toBe(204);
	});

	it('takes CRM.org.ALL or CRM.settings.ALL only', async () => {
		const settings = (await grantToken(sb.url, { scope: 'CRM.settings.ALL' })).access_token;
		expect((await call('GET', '/org/taxes', {}, settings)).status).toBe(200);
		const orgRead = (await grantToken(sb.url, { scope: 'CRM.org.READ' })).access_token;
		expect((await call('GET', '/org/taxes', {}, orgRead)).body.code).toBe('OAUTH_SCOPE_MISMATCH');
	});
});

describe('CreateTaxes', () => {
	it('adds taxes (201 tax added), at a given position or at the end', async () => {
		const res = await call('POST', '/org/taxes', {
			body: {
				taxes: [
					{ name: 'Luxury Tax', value: 12.5, sequence_number: 1 },
					{ name: 'Eco Fee', value: 1 },
				],
			},
		});
		expect(res.status).toBe(201);
		expect(res.body.taxes).toEqual([
			{
				code: 'SUCCESS',
				details: { id: expect.stringMatching(/^\d{19}$/) },
				message: 'tax added',
				status: 'success',
			},
			{
				code: 'SUCCESS',
				details: { id: expect.stringMatching(/^\d{19}$/) },
				message: 'tax added',
				status: 'success',
			},
		]);
		expect(await names()).toEqual([
			'1:Luxury Tax',
			'2:Sales Tax',
			'3:VAT',
			'4:Service Tax',
			'5:Eco Fee',
		]);
	});

	it('refuses per item with the tax group codes; all failed is 400', async () => {
		const res = await call('POST', '/org/taxes', {
			body: {
				taxes: [
					{ value: 3 },
					{ name: 'No Value' },
					{ name: 'Text', value: '3' },
					{ name: 'vat', value: 7 },
					{ name: 'Far', value: 1, sequence_number: 9 },
					{ name: 'Twice A', value: 1, sequence_number: 2 },
					{ name: 'Twice B', value: 1, sequence_number: 2 },
					{ name: 'Huge', value: 150 },
				],
			},
		});
		expect(res.status).toBe(400);
		expect(res.body.taxes.map((t: any) => [t.code, t.details.api_name, t.message])).toEqual([
			['MANDATORY_NOT_FOUND', 'name', 'required field not found'],
			['MANDATORY_NOT_FOUND', 'value', 'required field not found'],
			['INVALID_DATA', 'value', 'invalid data'],
			['INVALID_DATA', 'name', 'a tax with the same name already exists'],
			['INVALID_DATA', 'sequence_number', 'sequence number out of range'],
			['INVALID_DATA', 'sequence_number', 'sequence number cannot be repeated in the same request'],
			['INVALID_DATA', 'sequence_number', 'sequence number cannot be repeated in the same request'],
			['INVALID_DATA', 'value', 'the tax value must be between 0 and 100'],
		]);
		expect(res.body.taxes[0].details.json_path).toBe('$.taxes[0].name');
		const v2 = await api(`${sb.url}/crm/v2/org/taxes`, sb.token, {
			method: 'POST',
			body: { taxes: [{ value: 3 }] },
		});
		expect(v2.body.taxes[0].details).toEqual({ api_name: 'name' });
	});

	it('bounds: 1..100 items', async () => {
		const many = await call('POST', '/org/taxes', {
			body: { taxes: Array.from({ length: 101 }, (_, i) => ({ name: `T${i}`, value: 1 })) },
		});
		expect(many.body).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { limit: 100 } });
		const none = await call('POST', '/org/taxes', { body: { taxes: [] } });
		expect(none.body).toMatchObject({
			code: 'MANDATORY_NOT_FOUND',
			details: { api_name: 'taxes' },
		});
	});
});

describe('UpdateTaxes', () => {
	it('updates by id, moves within the sequence, keeps the label in step', async () => {
		const res = await call('PUT', '/org/taxes', {
			body: {
				taxes: [
					{ id: VAT, value: 19, sequence_number: 1 },
					{ id: SERVICE_TAX, name: 'Service Fee' },
				],
			},
		});
		expect(res.status).toBe(200);
		expect(res.body.taxes.map((t: any) => [t.code, t.message, t.details.id])).toEqual([
			['SUCCESS', 'record updated', VAT],
			['SUCCESS', 'record updated', SERVICE_TAX],
		]);
		expect(await names()).toEqual([
			'1:VAT',
			'2:Luxury Tax',
			'3:Sales Tax',
			'4:Service Fee',
			'5:Eco Fee',
		]);
		expect((await call('GET', `/org/taxes/${VAT}`)).body.taxes[0]).toMatchObject({
			value: 19,
			display_label: 'VAT - 19 %',
		});
	});

	it('refuses missing or unknown ids, name clashes and repeated positions', async () => {
		const res = await call('PUT', '/org/taxes', {
			body: {
				taxes: [
					{ value: 1 },
					{ id: '4876876000000999999', value: 1 },
					{ id: VAT, name: 'Sales Tax' },
					{ id: VAT, sequence_number: 2 },
					{ id: SALES_TAX, sequence_number: 2 },
					{ id: SALES_TAX, sequence_number: 6 },
				],
			},
		});
		expect(res.body.taxes.map((t: any) => [t.code, t.details.api_name, t.message])).toEqual([
			['MANDATORY_NOT_FOUND', 'id', 'required field not found'],
			['INVALID_DATA', 'id', 'given ID does not exist'],
			['INVALID_DATA', 'name', 'a tax with the same name already exists'],
			['INVALID_DATA', 'sequence_number', 'sequence number cannot be repeated in the same request'],
			['INVALID_DATA', 'sequence_number', 'sequence number cannot be repeated in the same request'],
			['INVALID_DATA', 'sequence_number', 'sequence number out of range'],
		]);
	});
});

describe('DeleteTaxes / DeleteTax', () => {
	it('deletes a list (tax deleted per id, unknown ids INVALID_DATA) and renumbers', async () => {
		const res = await call('DELETE', `/org/taxes?ids=${SALES_TAX},4876876000000999999`);
		expect(res.status).toBe(200);
		expect(res.body.taxes).toEqual([
			{ code: 'SUCCESS', details: { id: SALES_TAX }, message: 'tax deleted', status: 'success' },
			{
				code: 'INVALID_DATA',
				details: { id: '4876876000000999999' },
				message: 'given ID does not exist',
				status: 'error',
			},
		]);
		expect(await names()).toEqual(['1:VAT', '2:Luxury Tax', '3:Service Fee', '4:Eco Fee']);
		const missing = await call('DELETE', '/org/taxes');
		expect(missing.status).toBe(400);
		expect(missing.body).toMatchObject({
			code: 'REQUIRED_PARAM_MISSING',
			details: { param: 'ids' },
		});
	});

	it('deletes one by path; a second time all failed is 400', async () => {
		const res = await call('DELETE', `/org/taxes/${SERVICE_TAX}`);
		expect(res.body.taxes[0]).toMatchObject({ code: 'SUCCESS', message: 'tax deleted' });
		const again = await call('DELETE', `/org/taxes/${SERVICE_TAX}`);
		expect(again.status).toBe(400);
		expect(again.body.taxes[0].code).toBe('INVALID_DATA');
		expect(await names()).toEqual(['1:VAT', '2:Luxury Tax', '3:Eco Fee']);
	});
});
