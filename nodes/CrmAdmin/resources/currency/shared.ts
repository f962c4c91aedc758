import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { optionsField } from '../../../shared/description/collections';
import { collectionValues, requireSome } from '../shared';
import { getParameter } from '../../../shared/parameters';
import { bodyPreSend } from '../../../shared/transport';

/** Currencies per request (docs/protocol.md §6). */
export const CURRENCY_BATCH_SIZE = 10;

export const isoCodeField: INodeProperties = {
	displayName: 'ISO Code',
	name: 'isoCode',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'EUR',
	description: 'Three-letter ISO 4217 code of the currency',
};

export const currencyNameField: INodeProperties = {
	displayName: 'Name',
	name: 'currencyName',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'Euro',
	description: 'Display name of the currency',
};

export const symbolField: INodeProperties = {
	displayName: 'Symbol',
	name: 'symbol',
	type: 'string',
	default: '',
	required: true,
	placeholder: '€',
	description: 'Currency symbol, e.g. € or CHF',
};

/** Format and display options shared by add, update, enable and base-currency update. */
export const currencyFormatFields: INodeProperties[] = [
	optionsField('Decimal Places', 'decimal_places', { '0': '0', '2': '2', '3': '3' }, '2'),
	optionsField(
		'Decimal Separator',
		'decimal_separator',
		{ Comma: 'Comma', Period: 'Period' },
		'Period',
	),
	{
		displayName: 'Prefix Symbol',
		name: 'prefix_symbol',
		type: 'boolean',
		default: true,
		description: 'Whether the symbol is written before the amount',
	},
	optionsField(
		'Thousand Separator',
		'thousand_separator',
		{ Comma: 'Comma', Period: 'Period', Space: 'Space' },
		'Comma',
	),
];

/** Update Fields of update and base-currency update: `key`, the field only that operation has, among the common ones in display-name order. */
export function currencyUpdateFields(key: INodeProperties): INodeProperties[] {
	return [
		...currencyFormatFields.slice(0, 2),
		key,
		{ displayName: 'Name', name: 'name', type: 'string', default: '' },
		currencyFormatFields[2],
		{ displayName: 'Symbol', name: 'symbol', type: 'string', default: '' },
		currencyFormatFields[3],
	];
}

export const isActiveField: INodeProperties = {
	displayName: 'Active',
	name: 'is_active',
	type: 'boolean',
	default: true,
	description: 'Whether the currency can be used in records (the base currency is always active)',
};

type Ctx = IExecuteFunctions | IExecuteSingleFunctions;

function currencyInputError(
	ctx: Ctx,
	message: string,
	itemIndex: number,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}

/** An ISO code in upper case; NodeOperationError unless three letters. */
function isoCodeOf(ctx: Ctx, value: unknown, itemIndex: number): string {
	const code = String(value ?? '')
		.trim()
		.toUpperCase();
	if (!/^[A-Z]{3}$/.test(code))
		throw currencyInputError(
			ctx,
			`ISO Code must be three letters, got "${String(value ?? '')}"`,
			itemIndex,
			'Use an ISO 4217 code such as EUR or GBP.',
		);
	return code;
}

/** An exchange rate as the text the wire carries; NodeOperationError unless a positive number. */
function exchangeRateOf(ctx: Ctx, value: unknown, itemIndex: number): string {
	const text = String(value ?? '').trim();
	const n = Number(text);
	if (text === '' || !Number.isFinite(n) || n <= 0) {
		throw currencyInputError(
			ctx,
			`Exchange Rate must be a positive number, got "${text}"`,
			itemIndex,
			'Units of this currency per one unit of the base currency, e.g. 0.92.',
		);
	}
	return text;
}

/**
 * A Currency item from collection values: display keys at the top, separators and decimal places
 * under `format`. `fullFormat` fills the format's missing keys (AddCurrencies needs all three).
 */
function currencyBody(
	ctx: Ctx,
	values: IDataObject,
	itemIndex: number,
	fullFormat: boolean,
): IDataObject {
	const v = collectionValues(values);
	const body: IDataObject = {};
	for (const key of ['name', 'symbol', 'is_active', 'prefix_symbol', 'iso_code'])
		if (v[key] !== undefined) body[key] = v[key];
	if (v.exchange_rate !== undefined)
		body.exchange_rate = exchangeRateOf(ctx, v.exchange_rate, itemIndex);
	if (typeof body.iso_code === 'string') body.iso_code = isoCodeOf(ctx, body.iso_code, itemIndex);
	const format: IDataObject = {};
	for (const key of ['thousand_separator', 'decimal_separator', 'decimal_places'])
		if (v[key] !== undefined) format[key] = String(v[key]);
	if (fullFormat) {
		if (format.decimal_separator === undefined)
			format.decimal_separator = format.thousand_separator === 'Period' ? 'Comma' : 'Period';
		if (format.thousand_separator === undefined)
			format.thousand_separator = format.decimal_separator === 'Period' ? 'Comma' : 'Period';
		format.decimal_places ??= '2';
	}
	if (
		format.thousand_separator !== undefined &&
		format.thousand_separator === format.decimal_separator
	) {
		throw currencyInputError(
			ctx,
			'Thousand Separator and Decimal Separator must differ',
			itemIndex,
		);
	}
	if (Object.keys(format).length) body.format = format;
	if (typeof body.symbol === 'string' && body.symbol.trim() === '')
		throw currencyInputError(ctx, 'Symbol is empty', itemIndex);
	return body;
}

/**
 * A new currency from the item (Add, Enable Multi-Currency): its ISO code, name and symbol with the
 * Additional Fields and `extra`, the whole format filled in.
 */
export function newCurrencyBody(ctx: Ctx, itemIndex: number, extra: IDataObject = {}): IDataObject {
	const additional = getParameter(ctx, 'additionalFields', itemIndex, {}) as IDataObject;
	return currencyBody(
		ctx,
		{
			...additional,
			iso_code: getParameter(ctx, 'isoCode', itemIndex),
			name: String(getParameter(ctx, 'currencyName', itemIndex) ?? '').trim(),
			symbol: String(getParameter(ctx, 'symbol', itemIndex) ?? '').trim(),
			...extra,
		},
		itemIndex,
		true,
	);
}

/** The changes of an update (Update, Update Base Currency) from its Update Fields, at least one. */
export function currencyChanges(ctx: Ctx, itemIndex: number): IDataObject {
	const changes = currencyBody(
		ctx,
		getParameter(ctx, 'updateFields', itemIndex, {}) as IDataObject,
		itemIndex,
		false,
	);
	requireSome.call(ctx, changes, 'Update Fields', itemIndex);
	return changes;
}

/** preSend of the `base_currency` actions (enable, update base): the body built from the item's parameters. */
export function baseCurrencyPreSend(
	build: (this: IExecuteSingleFunctions, itemIndex: number) => IDataObject,
) {
	return bodyPreSend(function (itemIndex) {
		return { base_currency: build.call(this, itemIndex) };
	});
}
