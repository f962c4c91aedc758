import { resourceDescription } from '../common';
import * as get from './get';
import * as getAll from './getAll';

export const wizardDescription = resourceDescription('wizard', [get, getAll], 'getAll');
