import { customOperationsOf, resourceDescription } from '../common';
import * as create from './create';
import * as get from './get';
import * as getAll from './getAll';
import * as transferAndDelete from './transferAndDelete';
import * as update from './update';
import * as updateMany from './updateMany';

const operations = [create, get, getAll, transferAndDelete, update, updateMany];

export const pipelineDescription = resourceDescription('pipeline', operations, 'getAll');

export const pipelineCustomOperations = customOperationsOf(operations);
