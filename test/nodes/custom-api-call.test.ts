// "Custom API Call" is the same choice in every action node of the package: n8n 2.40.7 adds it by
// itself only to single-version nodes whose credential extends oAuth2Api
// (LoadNodesAndCredentials.injectCustomApiCallOptions), so the nodes list it themselves, last in the
// Resource list and in every Operation list; the editor answers it with a notice pointing to the
// HTTP Request node (README "Custom API calls").
import type { INodeProperties, INodeType } from 'n8n-workflow';

import { packageNodeTypes } from '../harness/crm';

const KEY = '__CUSTOM_API_CALL__';
const NAME = 'Custom API Call';

/** What n8n's injection does to a node's description (latest version, proxy-auth credential). */
function injectAsN8nDoes(properties: INodeProperties[]): number {
	let added = 0;
	for (const p of properties) {
		if (['resource', 'operation'].includes(p.name) && Array.isArray(p.options) && (p.options.at(-1) as { name: string }).name !== NAME) added++;
	}
	return added;
}

describe('"Custom API Call" in every node alike', () => {
	const nodes = Object.entries(packageNodeTypes()).filter(([, type]) => type.description.properties.some((p) => p.name === 'resource'));

	test('every action node with resources is covered (CRM Record, two versions, included)', () => {
		const names = nodes.map(([name]) => name.split('.')[1]).sort();
		expect(names).toEqual(expect.arrayContaining(['crmBulk', 'crmQuery', 'crmRecord']));
		expect((packageNodeTypes()['n8n-nodes-crm-service.crmRecord'] as INodeType).description.version).toEqual([1, 1.1]);
	});

	test.each(nodes.map(([name, type]) => [name.split('.')[1], type] as const))('%s lists it last in its Resource list and in every Operation list', (_name, type) => {
		const selectors = type.description.properties.filter((p) => ['resource', 'operation'].includes(p.name) && p.type === 'options');
		expect(selectors.length).toBeGreaterThan(1);
		for (const selector of selectors) {
			const options = selector.options as Array<{ name: string; value: string }>;
			expect(options.at(-1)).toEqual({ name: NAME, value: KEY });
			expect(options.filter((o) => o.value === KEY)).toHaveLength(1);
		}
		// so n8n adds no second one, whichever version it considers the latest
		expect(injectAsN8nDoes(type.description.properties)).toBe(0);
	});
});
