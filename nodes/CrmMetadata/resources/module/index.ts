import { resourceDescription } from '../common';
import * as get from './get';
import * as getAll from './getAll';
import * as update from './update';

export const moduleDescription = resourceDescription('module', [get, getAll, update], 'getAll');
