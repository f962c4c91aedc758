import { resourceDescription } from '../common';
import * as get from './get';
import * as getAll from './getAll';

export const customViewDescription = resourceDescription('customView', [get, getAll], 'getAll');
