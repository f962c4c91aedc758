import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { crmApiRequest } from '../transport';

/** Modules that hold records (standard and custom), from GetModules. */
export async function getModules(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const { modules = [] } = (await crmApiRequest.call(this, { method: 'GET', path: '/settings/modules' })) as {
		modules?: IDataObject[];
	};
	return modules
		.filter((m) => m.api_supported !== false && m.generated_type !== 'linking')
		.map((m) => ({
			name: `${m.plural_label as string}${m.generated_type === 'custom' ? ' (Custom)' : ''}`,
			value: m.api_name as string,
			description: m.api_name as string,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** The chosen module's fields from GetFields, as options, keeping those `keep` accepts. */
async function fieldOptions(this: ILoadOptionsFunctions, keep: (field: IDataObject) => boolean): Promise<INodePropertyOptions[]> {
	const module = this.getCurrentNodeParameter('module') as string | undefined;
	if (!module) return [];
	const { fields = [] } = (await crmApiRequest.call(this, {
		method: 'GET',
		path: '/settings/fields',
		qs: { module },
	})) as { fields?: IDataObject[] };
	return fields
		.filter(keep)
		.map((f) => ({
			name: `${f.field_label as string}${f.mandatory ? ' *' : ''}`,
			value: f.api_name as string,
			description: `${f.api_name as string} (${f.data_type as string})`,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** Fields that can be written (read-only system fields left out). */
export async function getFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await fieldOptions.call(this, (f) => f.read_only !== true);
}

/** Every field, system fields included: for choosing what a read returns. */
export async function getReadableFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await fieldOptions.call(this, () => true);
}

/** Fields a list can be sorted by (`sortable` in the metadata: Modified_Time, Created_Time, id …). */
export async function getSortableFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await fieldOptions.call(this, (f) => f.sortable !== false);
}
