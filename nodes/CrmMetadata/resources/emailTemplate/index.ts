import { resourceDescription } from '../common';
import * as get from './get';
import * as getAll from './getAll';

export const emailTemplateDescription = resourceDescription('emailTemplate', [get, getAll], 'getAll');
