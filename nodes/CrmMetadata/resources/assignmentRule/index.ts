import { resourceDescription } from '../common';
import * as get from './get';
import * as getAll from './getAll';

export const assignmentRuleDescription = resourceDescription('assignmentRule', [get, getAll], 'getAll');
