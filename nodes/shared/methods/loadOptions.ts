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

/** Fields of the chosen module, from GetFields (read-only system fields left out). */
export async function getFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const module = this.getCurrentNodeParameter('module') as string | undefined;
	if (!module) return [];
	const { fields = [] } = (await crmApiRequest.call(this, {
		method: 'GET',
		path: '/settings/fields',
		qs: { module },
	})) as { fields?: IDataObject[] };
	return fields
		.filter((f) => f.read_only !== true)
		.map((f) => ({
			name: `${f.field_label as string}${f.mandatory ? ' *' : ''}`,
			value: f.api_name as string,
			description: `${f.api_name as string} (${f.data_type as string})`,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}
