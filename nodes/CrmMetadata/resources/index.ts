import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { assignmentRuleDescription } from './assignmentRule';
import { blueprintDescription } from './blueprint';
import type { CustomOperation } from './common';
import { customViewDescription } from './customView';
import { emailTemplateDescription } from './emailTemplate';
import { fieldDescription } from './field';
import { inventoryTemplateDescription } from './inventoryTemplate';
import { layoutDescription } from './layout';
import { moduleDescription } from './module';
import { pipelineCustomOperations, pipelineDescription } from './pipeline';
import { relatedListDescription } from './relatedList';
import { wizardDescription } from './wizard';

/** One resource of the node: its selector option, its properties, and its custom operations. */
export interface ResourceModule {
	option: INodePropertyOptions;
	description: INodeProperties[];
	customOperations?: Record<string, CustomOperation>;
}

/** The node's resources, in selector order (wire-contract §5.7–5.8). */
export const resources: ResourceModule[] = [
	{ option: { name: 'Assignment Rule', value: 'assignmentRule' }, description: assignmentRuleDescription },
	{ option: { name: 'Blueprint', value: 'blueprint' }, description: blueprintDescription },
	{ option: { name: 'Custom View', value: 'customView' }, description: customViewDescription },
	{ option: { name: 'Email Template', value: 'emailTemplate' }, description: emailTemplateDescription },
	{ option: { name: 'Field', value: 'field' }, description: fieldDescription },
	{ option: { name: 'Inventory Template', value: 'inventoryTemplate' }, description: inventoryTemplateDescription },
	{ option: { name: 'Layout', value: 'layout' }, description: layoutDescription },
	{ option: { name: 'Module', value: 'module' }, description: moduleDescription },
	{ option: { name: 'Pipeline', value: 'pipeline' }, description: pipelineDescription, customOperations: pipelineCustomOperations },
	{ option: { name: 'Related List', value: 'relatedList' }, description: relatedListDescription },
	{ option: { name: 'Wizard', value: 'wizard' }, description: wizardDescription },
];

export const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: resources.map((r) => r.option),
	default: 'module',
	// every routed operation goes through the node's request runner (see shared/transport/runner.ts)
	routing: { send: { paginate: true } },
};

export const resourceProperties: INodeProperties[] = resources.flatMap((r) => r.description);

export const customOperations: Record<string, Record<string, CustomOperation>> = Object.fromEntries(
	resources.filter((r) => r.customOperations).map((r) => [r.option.value as string, r.customOperations!]),
);
