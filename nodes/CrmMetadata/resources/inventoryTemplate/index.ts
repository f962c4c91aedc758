import { resourceDescription } from '../common';
import * as get from './get';
import * as getAll from './getAll';

export const inventoryTemplateDescription = resourceDescription('inventoryTemplate', [get, getAll], 'getAll');
