// Methods every node of the package can offer (load options, list searches, resource mappers).
// Each file owns one kind of lookup; add a file and spread it here.
import { getFields, getModules } from './loadOptions';

export const loadOptions = { getModules, getFields };

export const methods = { loadOptions };
