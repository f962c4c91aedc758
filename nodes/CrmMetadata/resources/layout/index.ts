import { resourceDescription } from '../common';
import * as get from './get';
import * as getAll from './getAll';

export const layoutDescription = resourceDescription('layout', [get, getAll], 'getAll');
