import type { ResourceModule } from '../../shared/node';
import { assembleResources } from '../../shared/node';

import { assignmentRuleDescription } from './assignmentRule';
import { blueprintDescription } from './blueprint';
import { customViewDescription } from './customView';
import { emailTemplateDescription } from './emailTemplate';
import { fieldDescription } from './field';
import { inventoryTemplateDescription } from './inventoryTemplate';
import { layoutDescription } from './layout';
import { moduleDescription } from './module';
import { pipelineCustomOperations, pipelineDescription } from './pipeline';
import { relatedListDescription } from './relatedList';
import { wizardDescription } from './wizard';

/** The node's resources, in selector order (docs/protocol.md §5.7–5.8). */
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

export const {
	selector: resourceSelector,
	properties: resourceProperties,
	customOperations,
} = assembleResources(resources, 'module');
