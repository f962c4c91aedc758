// "Custom API Call" is the same choice in every action node of the package: n8n 2.40.7 adds it by
// itself only to single-version nodes whose credential extends oAuth2Api
// (LoadNodesAndCredentials.injectCustomApiCallOptions), so the nodes list it themselves, last in the
// Resource list; the editor answers it with a notice pointing to the HTTP Request node (README
// "Nodes").
import type { INodeProperties, INodeType } from 'n8n-workflow';

import { packageNodeTypes } from '../harness/crm';

const KEY = '__CUSTOM_API_CALL__';
const NAME = 'Custom API Call';

/** Would n8n's injection add a second one to the Resource list (latest version, proxy-auth credential)? */
function n8nWouldAddToResource(properties: INodeProperties[]): boolean {
	const resource = properties.find((p) => p.name === 'resource');
	return (
		Array.isArray(resource?.options) && (resource.options.at(-1) as { name: string }).name !== NAME
	);
}

describe('"Custom API Call" in every node alike', () => {
	const nodes = Object.entries(packageNodeTypes()).filter(([, type]) =>
		type.description.properties.some((p) => p.name === 'resource'),
	);

	test('every action node with resources is covered (CRM Record, two versions, included)', () => {
		const names = nodes.map(([name]) => name.split('.')[1]).sort();
		expect(names).toEqual(expect.arrayContaining(['crmBulk', 'crmQuery', 'crmRecord']));
		expect(
			(packageNodeTypes()['n8n-nodes-crm-service.crmRecord'] as INodeType).description.version,
		).toEqual([1, 1.1, 1.2]);
	});

	test.each(nodes.map(([name, type]) => [name.split('.')[1], type] as const))(
		'%s lists it once, last in its Resource list',
		(_name, type) => {
			const selectors = type.description.properties.filter(
				(p) => p.name === 'resource' && p.type === 'options',
			);
			expect(selectors).toHaveLength(1);
			const options = selectors[0].options as Array<{ name: string; value: string }>;
			expect(options.length).toBeGreaterThan(1);
			expect(options.at(-1)).toEqual({ name: NAME, value: KEY });
			expect(options.filter((o) => o.value === KEY)).toHaveLength(1);
			// so n8n adds no second one, whichever version it considers the latest
			expect(n8nWouldAddToResource(type.description.properties)).toBe(false);
		},
	);
});
