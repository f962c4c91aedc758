// Methods every node of the package can offer (load options, list searches, resource mappers).
// Each file owns one kind of lookup; add a file and spread it here.
import { adminLoadOptions } from './admin';
import {
	getCriteriaFields,
	getCriteriaValues,
	getDealStages,
	getFields,
	getModules,
	getReadableFields,
	getSortableFields,
} from './loadOptions';
import { metadataLoadOptions } from './metadata';
import { recordRelationLoadOptions } from './recordRelations';
import { listSearch } from './listSearch';
import { getExternalIdFields, getRecordMappingFields } from './resourceMapping';

export const loadOptions = {
	getModules,
	getDealStages,
	getFields,
	getReadableFields,
	getSortableFields,
	getCriteriaFields,
	getCriteriaValues,
	getExternalIdFields,
	...adminLoadOptions,
	...recordRelationLoadOptions,
	...metadataLoadOptions,
};

export const resourceMapping = { getRecordMappingFields };

export { listSearch };

export const methods = { loadOptions, listSearch, resourceMapping };
