import { defineResource } from '../../../shared/description/nodeDescription';

import * as del from './delete';
import * as download from './download';
import * as downloadFieldAttachment from './downloadFieldAttachment';
import * as getAll from './getAll';
import * as uploadFile from './uploadFile';
import * as uploadLink from './uploadLink';

/** Adding an operation = its file + one entry in this list (order does not matter: see defineResource). */
export const attachmentResource = defineResource(
	{ name: 'Attachment', value: 'attachment' },
	[del, download, downloadFieldAttachment, getAll, uploadFile, uploadLink],
	'getAll',
);
