/* eslint-disable @typescript-eslint/no-require-imports */
// How operations are registered (defineResource, nodes/shared/description/nodeDescription.ts): every operation of every
// node is either a custom operation (its file exports `execute`) or routed, its option's routing
// naming its request runner and response key (crmRouting, nodes/shared/transport/runner.ts); the Operation options come in the order a person expects; every Get by ID
// has "On Not Found". Plus the unwrapping by declared key alone (shared/transport/envelope.ts).
import path from 'node:path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { AssembledResources } from '../../nodes/shared/description/nodeDescription';
import { routeOf, type Route, unwrapBody } from '../../nodes/shared/transport';
import { packageNodeTypes } from '../harness/crm';

const ROOT = path.resolve(__dirname, '..', '..');
const FIRST = ['create', 'upsert', 'delete', 'get', 'getAll', 'search', 'update'];
/** Gets that do not take the ID of what they read (a record's blueprint or shares, the organization, a module by API name). */
const GETS_WITHOUT_ID = [
	'crmMetadata/blueprint/get',
	'crmRecord/share/get',
	'crmAdmin/organization/get',
	'crmMetadata/module/get',
];

const nodes = Object.values(packageNodeTypes())
	.filter((type) => !type.description.group.includes('trigger'))
	.map((type) => {
		const folder = type.description.name.replace(/^crm/, 'Crm');
		const assembled = require(
			path.join(ROOT, 'nodes', folder, 'resources'),
		) as AssembledResources & { resourceSelector: INodeProperties };
		return [type.description.name, type, assembled] as const;
	});

function operationsOf(properties: INodeProperties[], resource: string): INodePropertyOptions[] {
	const selector = properties.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === resource,
	);
	return (selector?.options ?? []) as INodePropertyOptions[];
}

/** The routes of a node's operations by resource, then operation, read from its description. */
function routesOf(
	properties: INodeProperties[],
	selector: INodeProperties,
): Record<string, Record<string, Route>> {
	return Object.fromEntries(
		((selector.options ?? []) as INodePropertyOptions[]).map((resource) => {
			const r = String(resource.value);
			const routed = operationsOf(properties, r).flatMap((o) => {
				const route = routeOf(o);
				return route ? [[String(o.value), route] as const] : [];
			});
			return [r, Object.fromEntries(routed)];
		}),
	);
}

describe('operation registry', () => {
	test.each(nodes)(
		'%s: every operation is a custom operation or a route, never both',
		(_name, type, assembled) => {
			expect(type.customOperations ?? {}).toEqual(assembled.customOperations);
			const routes = routesOf(type.description.properties, assembled.resourceSelector);
			for (const resource of (assembled.resourceSelector.options ?? []) as INodePropertyOptions[]) {
				const r = String(resource.value);
				const values = operationsOf(type.description.properties, r).map((o) => String(o.value));
				expect(values.length).toBeGreaterThan(0);
				for (const op of values) {
					const custom = assembled.customOperations[r]?.[op] !== undefined;
					const routed = routes[r]?.[op] !== undefined;
					expect({ op: `${r}/${op}`, custom, routed }).toEqual({
						op: `${r}/${op}`,
						custom,
						routed: !custom,
					});
				}
				expect(Object.keys(routes[r] ?? {}).every((op) => values.includes(op))).toBe(true);
			}
		},
	);

	test.each(nodes)(
		'%s: lists declare the key of their items; every Get by ID has "On Not Found"',
		(name, type, assembled) => {
			const all = routesOf(type.description.properties, assembled.resourceSelector);
			for (const [resource, routes] of Object.entries(all)) {
				for (const [op, route] of Object.entries(routes)) {
					const where = `${name}/${resource}/${op}`;
					if (op === 'getAll' || op === 'search')
						expect({ where, rootProperty: typeof route.rootProperty }).toEqual({
							where,
							rootProperty: 'string',
						});
					const onNotFound = type.description.properties.find(
						(p) =>
							p.name === 'onNotFound' &&
							p.displayOptions?.show?.resource?.[0] === resource &&
							p.displayOptions?.show?.operation?.[0] === op,
					);
					expect({ where, declared: route.notFound !== undefined }).toEqual({
						where,
						declared: onNotFound !== undefined,
					});
					if (op === 'get')
						expect({ where, onNotFound: onNotFound !== undefined }).toEqual({
							where,
							onNotFound: !GETS_WITHOUT_ID.includes(where),
						});
					if (onNotFound) {
						expect(onNotFound.default).toBe('error');
						expect((onNotFound.options as INodePropertyOptions[]).map((o) => o.value)).toEqual([
							'error',
							'returnNothing',
						]);
					}
				}
			}
		},
	);

	test.each(nodes)(
		'%s: Operation options go Create, Create or Update, Delete, Get, Get Many, Search, Update, then by name',
		(_name, type, assembled) => {
			for (const resource of (assembled.resourceSelector.options ?? []) as INodePropertyOptions[]) {
				const options = operationsOf(type.description.properties, String(resource.value));
				const first = options.filter((o) => FIRST.includes(String(o.value)));
				const rest = options.slice(first.length);
				expect(first.map((o) => o.value)).toEqual(
					FIRST.filter((v) => first.some((o) => o.value === v)),
				);
				expect(rest.every((o) => !FIRST.includes(String(o.value)))).toBe(true);
				expect(rest.map((o) => o.name)).toEqual(
					[...rest.map((o) => o.name)].sort((a, b) => a.localeCompare(b)),
				);
			}
		},
	);

	test('CRM Record lists the Record resource first (the node panel groups actions in this order)', () => {
		const [, , assembled] = nodes.find(([name]) => name === 'crmRecord')!;
		expect(
			((assembled.resourceSelector.options ?? []) as INodePropertyOptions[]).map((o) => o.value),
		).toEqual(['record', 'attachment', 'contactRole', 'note', 'relatedRecord', 'share', 'tag']);
		expect(assembled.resourceSelector.default).toBe('record');
	});

	test('unwrapping reads the declared key only: a record field named like another wrapper stays a field', () => {
		const record = { id: '1', tags: [{ name: 'a' }], users: [{ id: '2' }] };
		expect(unwrapBody({ data: [record], info: { more_records: true } }, 'data')).toMatchObject({
			items: [record],
			more: true,
		});
		// a postReceive result (no `data` key) is one item as it is
		expect(unwrapBody(record, 'data').items).toEqual([record]);
		// an object under the key (GetBlueprint's `blueprint`) is one item
		expect(unwrapBody({ blueprint: { process_info: {} } }, 'blueprint').items).toEqual([
			{ process_info: {} },
		]);
		// no key declared: the body is the item; 204 and `{}` are none
		expect(unwrapBody({ data: [record] }).items).toEqual([{ data: [record] }]);
		expect(unwrapBody(undefined, 'data').items).toEqual([]);
		expect(unwrapBody({}, 'data').items).toEqual([]);
	});
});
