import { assembleResources } from '../../shared/description/nodeDescription';

import { assignmentRuleResource } from './assignmentRule';
import { blueprintResource } from './blueprint';
import { customViewResource } from './customView';
import { emailTemplateResource } from './emailTemplate';
import { fieldResource } from './field';
import { inventoryTemplateResource } from './inventoryTemplate';
import { layoutResource } from './layout';
import { moduleResource } from './module';
import { pipelineResource } from './pipeline';
import { relatedListResource } from './relatedList';
import { wizardResource } from './wizard';

/** The node's resources, in selector order (docs/protocol.md §5.7–5.8). Adding a resource = one folder + one entry here. */
export const resources = [
	assignmentRuleResource,
	blueprintResource,
	customViewResource,
	emailTemplateResource,
	fieldResource,
	inventoryTemplateResource,
	layoutResource,
	moduleResource,
	pipelineResource,
	relatedListResource,
	wizardResource,
];

export const {
	selector: resourceSelector,
	properties: resourceProperties,
	customOperations,
} = assembleResources(resources, 'module');
