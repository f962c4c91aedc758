import { defineResource } from '../../../shared/description/nodeDescription';

import * as run from './run';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const queryResource = defineResource({ name: 'Query', value: 'query' }, [run], 'run');
