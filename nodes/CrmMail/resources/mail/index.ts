import { defineResource } from '../../../shared/description/nodeDescription';

import * as send from './send';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const mailResource = defineResource({ name: 'Mail', value: 'mail' }, [send], 'send');
