import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { crmRouting } from '../../../shared/transport';

/** GetOrganization — GET /crm/{v}/org */
export const operation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get the organization',
	description: 'Retrieve the organization details, including the ID bulk write uploads need',
	routing: crmRouting({ request: { method: 'GET', url: '/org' } }, { rootProperty: 'org' }),
};

export const returns =
	'the organization with its id, company name, address, settings, license details and xgid';

export const description: INodeProperties[] = [];
