import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { optionsField } from '../../../shared/description/collections';
import { toCrmDateTimeIn } from '../../../shared/formats/dates';
import { moduleSelect, pickedValue, recordIdField } from '../../../shared/description/properties';
import { multipartBody } from '../../../shared/formats/multipart';
import type { MultipartFile } from '../../../shared/formats/multipart';
import { optionsCollection } from '../../../shared/description/optionsCollection';
import {
	assertV21,
	crmApiError,
	crmRequest,
	isErrorItem,
	runBatched,
} from '../../../shared/transport';
import type { CrmErrorBody } from '../../../shared/transport';
import { listOf, pickedDigits } from '../../../shared/records/validation';
import { parseAddresses } from './addresses';
import type { MailAddress } from './addresses';
import { getParameter } from '../../../shared/parameters';

/** Total attachment size per mail (docs/protocol.md §5.10, §6). */
const MAIL_ATTACHMENTS_MAX_BYTES = 10 * 1024 * 1024;
/** Files per UploadFiles call (§5.13). */
const FILES_PER_UPLOAD = 10;

/**
 * SendMail — POST /crm/{v}/{module}/{recordId}/actions/send_mail (v2.1 only), custom operation:
 * mails to the same record go up to 100 per request; attachments from input binaries are first
 * uploaded to the shared file store (UploadFiles, POST /crm/{v}/files?type=inline) and referenced
 * by the returned ids.
 */
export const operation: INodePropertyOptions = {
	name: 'Send',
	value: 'send',
	action: 'Send a mail from a record',
	description: 'Send (or schedule) an email from a record, with attachments from binary data',
};

export const returns =
	'one item per mail, with its message id, status and message (sent or scheduled)';

const properties: INodeProperties[] = [
	moduleSelect,
	recordIdField,
	{
		displayName: 'From Name or ID',
		name: 'from',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getFromAddresses' },
		default: '',
		required: true,
		description:
			'Sender address; it must be one of the CRM\'s from addresses (From Address → Get Many). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'jane@example.com, John Doe <john@example.com>',
		description: 'Recipients, separated by commas',
	},
	{
		displayName: 'Subject',
		name: 'subject',
		type: 'string',
		default: '',
		description: 'Subject of the mail; may be left empty when a template is used',
	},
	{
		displayName: 'Content',
		name: 'content',
		type: 'string',
		typeOptions: { rows: 5 },
		default: '',
		description:
			'Body of the mail (HTML or plain text, see Mail Format); may be left empty when a template is used',
	},
	optionsCollection([
		{
			displayName: 'Attachment Binary Properties',
			name: 'attachments',
			type: 'string',
			default: '',
			placeholder: 'data, invoice',
			description: `Names of the input binary properties to attach, separated by commas; at most ${MAIL_ATTACHMENTS_MAX_BYTES / 1024 / 1024} MB in total`,
		},
		{
			displayName: 'BCC',
			name: 'bcc',
			type: 'string',
			default: '',
			description: 'Blind-copy recipients, separated by commas',
		},
		{
			displayName: 'CC',
			name: 'cc',
			type: 'string',
			default: '',
			description: 'Copy recipients, separated by commas',
		},
		optionsField('Mail Format', 'mailFormat', { HTML: 'html', Text: 'text' }, 'html'),
		{
			displayName: 'Reply To',
			name: 'replyTo',
			type: 'string',
			default: '',
			placeholder: 'support@example.com',
			description: 'Address replies should go to',
		},
		{
			displayName: 'Scheduled Time',
			name: 'scheduledTime',
			type: 'dateTime',
			default: '',
			description:
				'Send the mail at this time instead of now (in the workflow time zone unless an offset is given)',
		},
		{
			displayName: 'Template ID',
			name: 'templateId',
			type: 'string',
			default: '',
			description:
				'ID of an email template whose subject and content are used where Subject or Content are empty',
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['mail'], operation: ['send'] } },
	properties,
);

type Attachment = MultipartFile;

interface SendOptions {
	attachments?: string;
	bcc?: string;
	cc?: string;
	mailFormat?: string;
	replyTo?: string;
	scheduledTime?: string;
	templateId?: string;
}

function addressList(
	this: IExecuteFunctions,
	text: string,
	parameter: string,
	itemIndex: number,
): MailAddress[] {
	const { addresses, invalid } = parseAddresses(text);
	if (invalid.length) {
		throw new NodeOperationError(
			this.getNode(),
			`The parameter "${parameter}" holds an invalid email address: "${invalid[0]}"`,
			{
				itemIndex,
			},
		);
	}
	return addresses;
}

/** DateTime of §4 (`yyyy-MM-ddTHH:mm:ss±HH:mm`); text without an offset is read in the workflow time zone. */
function scheduledTimeOf(this: IExecuteFunctions, value: string, itemIndex: number): string {
	const wire = toCrmDateTimeIn(value, this.getTimezone());
	if (wire === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`The parameter "Scheduled Time" is not a valid date and time: "${value}"`,
			{ itemIndex },
		);
	}
	return wire;
}

/** Reads the listed binary properties of an item; refuses more than 10 MB in total before sending. */
async function attachmentsOf(
	this: IExecuteFunctions,
	names: string,
	itemIndex: number,
): Promise<Attachment[]> {
	const properties = listOf(names);
	const files: Attachment[] = [];
	let total = 0;
	for (const property of properties) {
		const meta = this.helpers.assertBinaryData(itemIndex, property);
		const data = await this.helpers.getBinaryDataBuffer(itemIndex, property);
		total += data.length;
		files.push({
			fileName: meta.fileName ?? property,
			mimeType: meta.mimeType || 'application/octet-stream',
			data,
		});
	}
	if (total > MAIL_ATTACHMENTS_MAX_BYTES) {
		throw new NodeOperationError(
			this.getNode(),
			`The attachments of the parameter "Attachment Binary Properties" total ${(total / 1024 / 1024).toFixed(1)} MB; the CRM allows at most 10 MB per mail`,
			{
				itemIndex,
				description: 'Send fewer or smaller files, or share a link to them in the content instead.',
			},
		);
	}
	return files;
}

/** UploadFiles: the attachments go to the shared file store, 10 per call; answers their ids in order. */
async function uploadAttachments(
	this: IExecuteFunctions,
	files: Attachment[],
	itemIndex: number,
): Promise<string[]> {
	const ids: string[] = [];
	for (let start = 0; start < files.length; start += FILES_PER_UPLOAD) {
		const form = multipartBody(files.slice(start, start + FILES_PER_UPLOAD));
		const body = await crmRequest(this, {
			method: 'POST',
			path: '/files',
			qs: { type: 'inline' },
			body: form,
			itemIndex,
		});
		for (const result of (body.data ?? []) as IDataObject[]) {
			if (isErrorItem(result))
				throw crmApiError(this.getNode(), result, {
					itemIndex,
					prefix: 'Attachment upload failed: ',
				});
			ids.push(String((result.details as IDataObject).id));
		}
	}
	return ids;
}

/** The error item runBatched turns back into a NodeApiError for one mail. */
function asErrorItem(error: unknown): CrmErrorBody {
	const crm = ((error as NodeApiError).context?.crm ?? {}) as Partial<CrmErrorBody>;
	return {
		code: crm.code ?? 'ATTACHMENT_UPLOAD_FAILED',
		message: `Attachment upload failed: ${crm.message ?? (error as Error).message}`,
		details: crm.details ?? {},
		status: 'error',
	};
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	await assertV21.call(this, 'Send Mail (SendMail)');
	const attachments = new Map<number, Attachment[]>();
	return await runBatched(this, {
		build: async (itemIndex) => {
			const module = pickedValue(this, 'module', itemIndex);
			const recordId = pickedDigits(this, 'recordId', 'Record ID', itemIndex);
			const [from] = addressList.call(
				this,
				String(getParameter(this, 'from', itemIndex)),
				'From',
				itemIndex,
			);
			if (!from)
				throw new NodeOperationError(this.getNode(), 'The parameter "From" is empty', {
					itemIndex,
				});
			const to = addressList.call(
				this,
				String(getParameter(this, 'to', itemIndex)),
				'To',
				itemIndex,
			);
			if (to.length === 0)
				throw new NodeOperationError(
					this.getNode(),
					'The parameter "To" needs at least one recipient',
					{ itemIndex },
				);
			const options = getParameter(this, 'options', itemIndex, {}) as SendOptions;
			const subject = String(getParameter(this, 'subject', itemIndex, ''));
			const content = String(getParameter(this, 'content', itemIndex, ''));
			const templateId = (options.templateId ?? '').trim();
			if (!templateId && (subject.trim() === '' || content === '')) {
				throw new NodeOperationError(
					this.getNode(),
					'Set both "Subject" and "Content", or a "Template ID" option',
					{ itemIndex },
				);
			}

			const mail: IDataObject = { from, to };
			if (subject) mail.subject = subject;
			if (content) mail.content = content;
			if (templateId) mail.template = { id: templateId };
			mail.mail_format = options.mailFormat ?? 'html';
			if (options.cc) mail.cc = addressList.call(this, options.cc, 'CC', itemIndex);
			if (options.bcc) mail.bcc = addressList.call(this, options.bcc, 'BCC', itemIndex);
			if (options.replyTo) {
				const [replyTo] = addressList.call(this, options.replyTo, 'Reply To', itemIndex);
				if (replyTo) mail.reply_to = replyTo;
			}
			if (options.scheduledTime)
				mail.scheduled_time = scheduledTimeOf.call(this, options.scheduledTime, itemIndex);
			if (options.attachments) {
				const files = await attachmentsOf.call(this, options.attachments, itemIndex);
				if (files.length) attachments.set(itemIndex, files);
			}
			// the item index travels with the payload until the attachments are uploaded
			return { key: { module, recordId }, payload: { ...mail, $item: itemIndex } };
		},
		send: async ({ module, recordId }, payloads) => {
			const failed = new Map<number, CrmErrorBody>();
			const mails: IDataObject[] = [];
			for (let i = 0; i < payloads.length; i++) {
				const { $item, ...mail } = payloads[i];
				const files = attachments.get(Number($item));
				if (files) {
					try {
						mail.attachments = (await uploadAttachments.call(this, files, Number($item))).map(
							(id) => ({ id }),
						);
					} catch (error) {
						failed.set(i, asErrorItem(error));
						continue;
					}
				}
				mails.push(mail);
			}
			let results: IDataObject[] = [];
			if (mails.length) {
				results = await crmRequest(this, {
					method: 'POST',
					path: `/${encodeURIComponent(module)}/${encodeURIComponent(recordId)}/actions/send_mail`,
					body: { data: mails },
					itemListKey: 'data',
				});
			}
			// results of the sent mails, with the failed uploads back in their places
			return payloads.map((_, i) => failed.get(i) ?? (results.shift() as IDataObject));
		},
		toJson: (result) => {
			const details = (result.details ?? {}) as IDataObject;
			return { message_id: details.message_id, ...result };
		},
	});
}
