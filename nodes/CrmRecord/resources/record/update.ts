import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { moduleSelect, pickedValue } from '../../../shared/description/properties';
import { getParameter } from '../../../shared/parameters';
import { loadFieldMeta, recordBody } from '../../../shared/records/fields';
import type { FieldMeta } from '../../../shared/records/fields';
import { runBatched } from '../../../shared/transport';
import { checkDigits } from '../../../shared/records/validation';
import {
	checkRecordLengths,
	fieldsProperties,
	modulePath,
	outputProperties,
	recordByProperties,
	recordIdOf,
	recordRefused,
	recordsRequest,
	withFullRecords,
	writeExtrasOf,
	writeOptionsProperty,
} from './shared';

/**
 * UpdateRecords — PUT /crm/{v}/{module} (2..100 records per request);
 * UpdateRecord — PUT /crm/{v}/{module}/{id}, UpdateRecordUsingExternalID — PUT /crm/{v}/{module}/{extValue} (a chunk of one)
 */
export const operation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a record',
	description: 'Update records by ID or external ID',
};

export const returns =
	'one item per updated record: the record with its id and field values (in version 1, its id and status)';

const updateByProperties: INodeProperties[] = recordByProperties(
	'updateBy',
	'Update',
	'Value of the external-ID field of the record to update',
	{ fieldsMode: ['mapper'] },
);

const properties: INodeProperties[] = [
	moduleSelect,
	...fieldsProperties('update'),
	...updateByProperties,
	...outputProperties(),
	writeOptionsProperty(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['record'], operation: ['update'] } },
	properties,
);

interface UpdateKey {
	module: string;
	/** external-ID field, or undefined for ids */
	field?: string;
	body: IDataObject;
	external: string[];
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const fieldCache = new Map<string, Map<string, FieldMeta>>();
	// external-ID fields per module, listed once rather than for every item
	const externalFieldsOf = new Map<string, string[]>();
	const output = await runBatched(this, {
		build: async (itemIndex) => {
			const module = pickedValue(this, 'module', itemIndex);
			const mode = getParameter(this, 'fieldsMode', itemIndex, 'mapper') as string;
			const { body, external } = writeExtrasOf.call(this, itemIndex);
			let field: string | undefined;
			let keyValue: string;
			let record: IDataObject;
			if (mode === 'mapper') {
				// the mapper's matching column names the record: `id` or an external-ID field
				let externalFields = externalFieldsOf.get(module);
				if (!externalFields) {
					const meta = await loadFieldMeta.call(this, fieldCache, module);
					externalFields = [...meta.values()].filter((f) => !!f.external).map((f) => f.api_name);
					externalFieldsOf.set(module, externalFields);
				}
				const built = await recordBody.call(this, itemIndex, module, fieldCache, {
					keep: ['id', ...externalFields],
				});
				const match = built.matchingColumns[0] ?? 'id';
				if (match !== 'id' && !externalFields.includes(match)) {
					throw new NodeOperationError(
						this.getNode(),
						`"${match}" cannot identify the record to update`,
						{
							itemIndex,
							description: 'Match on Record ID or on an external-ID field of the module.',
						},
					);
				}
				field = match === 'id' ? undefined : match;
				keyValue = String(built.record[match] ?? '').trim();
				record = built.record;
				delete record.id;
				if (field) delete record[field];
				if (!field) {
					checkDigits(this.getNode(), keyValue, 'Record ID', {
						itemIndex,
						description: 'Map the "Record ID" column to the numeric ID of the record to update.',
					});
				}
			} else {
				const by = getParameter(this, 'updateBy', itemIndex, 'id') as string;
				if (by === 'externalId') {
					field = getParameter(this, 'externalField', itemIndex) as string;
					keyValue = String(getParameter(this, 'externalValue', itemIndex) ?? '').trim();
				} else {
					keyValue = recordIdOf.call(this, 'recordId', itemIndex);
				}
				record = (await recordBody.call(this, itemIndex, module, fieldCache)).record;
			}
			if (!keyValue) {
				throw new NodeOperationError(
					this.getNode(),
					`The value of the external-ID field "${field}" is empty`,
					{ itemIndex },
				);
			}
			checkRecordLengths.call(this, fieldCache, module, record, itemIndex);
			const key: UpdateKey = { module, field, body, external };
			return { key, payload: { ...record, [field ?? 'id']: keyValue } };
		},
		request: ({ module, field, body, external }, data) => {
			const headers = field ? [`${module}.${field}`, ...external] : external;
			if (data.length === 1) {
				// one record: its own URL (UpdateRecord / UpdateRecordUsingExternalID)
				const { [field ?? 'id']: keyValue, ...rest } = data[0];
				return recordsRequest({
					method: 'PUT',
					path: `${modulePath(module)}/${encodeURIComponent(String(keyValue))}`,
					data: [rest],
					extras: body,
					external: headers,
				});
			}
			return recordsRequest({
				method: 'PUT',
				path: modulePath(module),
				data,
				extras: body,
				external: headers,
			});
		},
		refused: recordRefused.call(this, fieldCache),
	});
	return await withFullRecords.call(this, output);
}
