import { resourceDescription } from '../common';
import * as get from './get';
import * as transition from './transition';

export const blueprintDescription = resourceDescription('blueprint', [get, transition], 'get');
