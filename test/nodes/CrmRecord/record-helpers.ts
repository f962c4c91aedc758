// Parameter builders shared by the record engine tests.

/** A resourceMapper value ("Map Each Field"): values defined below, optional schema types and matching columns. */
export const mapper = (
	value: Record<string, unknown>,
	schema: Array<Record<string, unknown>> = [],
	matchingColumns: string[] = [],
): any => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns,
	schema: schema.map((s) => ({
		display: true,
		required: false,
		defaultMatch: false,
		canBeUsedToMatch: true,
		...s,
	})),
	attemptToConvertTypes: false,
	convertFieldsToString: false,
});

/** Field/value pairs of the "Field/Value Pairs" mode. */
export const pairs = (values: Record<string, unknown>): any => ({
	field: Object.entries(values).map(([name, value]) => ({ name, value })),
});

// 1×1 transparent PNG
export const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
	'base64',
);
