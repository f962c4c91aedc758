import { resourceDescription } from '../common';
import * as get from './get';
import * as getAll from './getAll';

export const relatedListDescription = resourceDescription('relatedList', [get, getAll], 'getAll');
