import { resourceDescription } from '../common';
import * as get from './get';
import * as getAll from './getAll';

export const fieldDescription = resourceDescription('field', [get, getAll], 'getAll');
