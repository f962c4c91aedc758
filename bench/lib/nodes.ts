// Baseline node types defined in the bench only (never shipped), run through the same n8n engine as
// the package's nodes:
// - benchPerItem: a minimal declarative node, one request per input item (what a node without
//   batching does): the per-item baseline of P1.
// - benchFloor: a minimal programmatic node that reads the same record parameter per item through
//   getNodeParameter (so n8n evaluates the same expression per item) and sends the same 100-record
//   batches through n8n's authenticated HTTP request function: the least any n8n node pays for P2's job; and
//   (mode getAll) pages through all Vendors, 200 per request, through the same function (P3).
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

const CREDENTIAL = 'crmOAuth2Api';
const BASE_URL = '={{ $credentials.oauthTokenData.api_domain }}/crm/v2.1';

export const perItemNode: INodeType = {
	description: {
		displayName: 'Bench Per Item',
		name: 'benchPerItem',
		group: ['transform'],
		version: 1,
		description: 'One request per item',
		defaults: { name: 'Bench Per Item' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL, required: true }],
		requestDefaults: {
			baseURL: BASE_URL,
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			json: true,
		},
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				default: 'create',
				options: [
					{
						name: 'Create',
						value: 'create',
						routing: {
							request: { method: 'POST', url: '/Leads', body: { data: '={{ [$json] }}' } },
						},
					},
					{
						name: 'Update',
						value: 'update',
						routing: {
							request: {
								method: 'PUT',
								url: '=/Leads/{{ $json.id }}',
								body: { data: '={{ [{ Company: $json.company }] }}' },
							},
						},
					},
					{
						name: 'Upsert',
						value: 'upsert',
						routing: {
							request: {
								method: 'POST',
								url: '/Leads/upsert',
								body: { data: '={{ [$json] }}', duplicate_check_fields: ['Email'] },
							},
						},
					},
					{
						name: 'Delete',
						value: 'delete',
						routing: { request: { method: 'DELETE', url: '=/Leads/{{ $json.id }}' } },
					},
				],
			},
		],
	},
};

export class FloorNode implements INodeType {
	description: INodeType['description'] = {
		displayName: 'Bench Floor',
		name: 'benchFloor',
		group: ['transform'],
		version: 1,
		description: 'Same batches, least node work',
		defaults: { name: 'Bench Floor' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL, required: true }],
		properties: [
			{
				displayName: 'Mode',
				name: 'mode',
				type: 'options',
				default: 'json',
				options: [
					{ name: 'JSON', value: 'json' },
					{ name: 'Input', value: 'input' },
					{ name: 'Get All Vendors', value: 'getAll' },
				],
			},
			{ displayName: 'Record JSON', name: 'recordJson', type: 'json', default: '{}' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const mode = this.getNodeParameter('mode', 0) as string;
		const credentials = (await this.getCredentials(CREDENTIAL)) as any;
		const api = `${String(credentials.oauthTokenData.api_domain)}/crm/v2.1`;
		if (mode === 'getAll') {
			const all: INodeExecutionData[] = [];
			for (let page = 1; ; page++) {
				const body = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL, {
					method: 'GET',
					url: `${api}/Vendors`,
					qs: { page, per_page: 200 },
					json: true,
				})) as { data: IDataObject[]; info: { more_records: boolean } };
				for (const json of body.data) all.push({ json, pairedItem: { item: 0 } });
				if (!body.info.more_records) return [all];
			}
		}
		const records = items.map((item, i) => {
			if (mode === 'input') return { ...item.json };
			const raw = this.getNodeParameter('recordJson', i) as string | IDataObject;
			return typeof raw === 'string' ? (JSON.parse(raw) as IDataObject) : raw;
		});
		const url = `${api}/Leads`;
		const out: INodeExecutionData[] = [];
		for (let start = 0; start < records.length; start += 100) {
			const body = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL, {
				method: 'POST',
				url,
				body: { data: records.slice(start, start + 100) },
				json: true,
			})) as { data: IDataObject[] };
			for (const result of body.data) out.push({ json: result, pairedItem: { item: out.length } });
		}
		return [out];
	}
}
