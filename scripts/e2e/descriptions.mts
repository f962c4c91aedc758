// What the editor should show, derived from the node descriptions of the package.
import type { PackageNode } from '../start.mts';

export type Prop = Record<string, unknown> & {
	name?: string;
	options?: Array<Record<string, unknown>>;
	displayOptions?: { show?: Record<string, unknown[]> };
};

export function resourcesOf(node: PackageNode): string[] {
	const resource = (node.properties as Prop[]).find((p) => p.name === 'resource');
	return (resource?.options ?? []).map((o) => String(o.name));
}

export function actionsOf(node: PackageNode): string[] {
	const actions: string[] = [];
	for (const p of node.properties as Prop[]) {
		if (p.name !== 'operation') continue;
		for (const o of p.options ?? []) actions.push(String(o.action ?? o.name));
	}
	return [...new Set(actions)];
}

export function operationsOf(node: PackageNode, resourceValue: string): string[] {
	const ops = (node.properties as Prop[]).find(
		(p) =>
			p.name === 'operation' &&
			(!p.displayOptions?.show?.resource || p.displayOptions.show.resource.includes(resourceValue)),
	);
	return (ops?.options ?? []).map((o) => String(o.name));
}

/** the action of an operation of a node, as the node panel lists it */
export function actionOf(
	node: PackageNode | undefined,
	resource: string,
	operation: string,
): string {
	const ops = (node?.properties as Prop[] | undefined)?.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
	);
	const option = ops?.options?.find((o) => o.value === operation);
	return String(option?.action ?? option?.name ?? '');
}
