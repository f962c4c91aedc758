import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, jsonParse } from 'n8n-workflow';

import { moduleSelect, pickedValue, recordPicker } from '../../../shared/description/properties';
import { itemListRequest } from '../../../shared/transport/itemListRequest';
import {
	crmApiError,
	crmRequest,
	isErrorItem,
	runBatched,
	runPerItem,
	writeResult,
} from '../../../shared/transport';
import type { CrmErrorBody } from '../../../shared/transport';
import { pickedDigits } from '../../../shared/records/validation';
import { NOTES_PER_REQUEST } from './shared';
import { getParameter } from '../../../shared/parameters';
import { writeOperation } from '../../../shared/description/nodeDescription';

const oneNote = { show: { inputMode: ['oneNote'] } };
const list = { show: { inputMode: ['list'] } };

const properties: INodeProperties[] = [
	{
		displayName: 'Input Mode',
		name: 'inputMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'One Note per Item',
				value: 'oneNote',
				description: 'Each input item is one note; items are sent 100 per request',
			},
			{
				name: 'Notes List (JSON)',
				value: 'list',
				description:
					'Each input item carries a list of up to 100 notes for one record, sent in one request',
			},
		],
		default: 'oneNote',
	},
	{
		...moduleSelect,
		displayName: 'Parent Module',
		description: 'Module of the record the note belongs to',
	},
	recordPicker({
		displayName: 'Parent Record',
		description:
			'The record the note belongs to: from the list, by ID, or by its address in the CRM',
	}),
	{
		displayName: 'Note Content',
		name: 'noteContent',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		displayOptions: oneNote,
	},
	{
		displayName: 'Note Title',
		name: 'noteTitle',
		type: 'string',
		default: '',
		displayOptions: oneNote,
	},
	{
		displayName: 'Notes',
		name: 'notes',
		type: 'json',
		default: '[{ "Note_Title": "", "Note_Content": "" }]',
		required: true,
		displayOptions: list,
		description: 'JSON list of notes (Note_Title, Note_Content); at most 100 per item',
	},
];

/**
 * CreateNotes — POST /crm/{v}/Notes, one note per input item, up to 100 per request (custom operation).
 * "Notes List" mode: POST /crm/{v}/{module}/{recordId}/Notes, one request per input item carrying its
 * list of notes (at most 100, checked before anything is sent).
 */
export const { operation, returns, description, execute } = writeOperation('create', {
	resource: 'note',
	thing: 'note',
	description: 'Create notes on records',
	properties,
	async execute() {
		if (getParameter(this, 'inputMode', 0) === 'list') return await executeList.call(this);
		return await runBatched(this, {
			build: (itemIndex) => {
				const { module, recordId } = parentOf.call(this, itemIndex);
				const content = getParameter(this, 'noteContent', itemIndex) as string;
				if (!content || !content.trim())
					throw new NodeOperationError(this.getNode(), 'Note Content is empty', { itemIndex });
				const title = getParameter(this, 'noteTitle', itemIndex, '') as string;
				const note: IDataObject = {
					Note_Content: content,
					Parent_Id: { id: recordId },
					$se_module: module,
				};
				if (title) note.Note_Title = title;
				return { key: 'Notes', payload: note };
			},
			request: (_key, data) => itemListRequest({ method: 'POST', path: '/Notes' }, 'data', data),
		});
	},
});

function parentOf(
	this: IExecuteFunctions,
	itemIndex: number,
): { module: string; recordId: string } {
	const module = pickedValue(this, 'module', itemIndex);
	const recordId = pickedDigits(this, 'recordId', 'Parent Record ID', itemIndex);
	return { module, recordId };
}

/** The notes list of one item: 1..100 objects with Note_Content. */
function notesOf(this: IExecuteFunctions, itemIndex: number): IDataObject[] {
	const raw = getParameter(this, 'notes', itemIndex);
	let notes: unknown = raw;
	if (typeof raw === 'string') {
		try {
			notes = jsonParse(raw);
		} catch {
			throw new NodeOperationError(this.getNode(), 'Notes is not valid JSON', { itemIndex });
		}
	}
	if (!Array.isArray(notes) || notes.some((n) => !n || typeof n !== 'object' || Array.isArray(n))) {
		throw new NodeOperationError(this.getNode(), 'Notes must be a JSON list of note objects', {
			itemIndex,
		});
	}
	if (notes.length === 0)
		throw new NodeOperationError(this.getNode(), 'Notes is empty', { itemIndex });
	if (notes.length > NOTES_PER_REQUEST) {
		throw new NodeOperationError(
			this.getNode(),
			`Too many notes: ${notes.length} given, at most ${NOTES_PER_REQUEST} notes can be created per request`,
			{
				itemIndex,
				description: `Split the list into chunks of ${NOTES_PER_REQUEST}, or use "One Note per Item".`,
			},
		);
	}
	notes.forEach((note: IDataObject, i) => {
		if (typeof note.Note_Content !== 'string' || note.Note_Content.trim() === '') {
			throw new NodeOperationError(this.getNode(), `Note ${i} has no Note_Content`, { itemIndex });
		}
	});
	return notes as IDataObject[];
}

async function executeList(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// every item is checked before the first request
	const requests = this.getInputData().map((_, itemIndex) => ({
		...parentOf.call(this, itemIndex),
		notes: notesOf.call(this, itemIndex),
	}));
	return await runPerItem(this, async (itemIndex) => {
		const { module, recordId, notes } = requests[itemIndex];
		const results = await crmRequest(this, {
			method: 'POST',
			path: `/${encodeURIComponent(module)}/${encodeURIComponent(recordId)}/Notes`,
			body: { data: notes },
			itemListKey: 'data',
			itemIndex,
		});
		const failed = results.find(isErrorItem);
		if (failed && !this.continueOnFail())
			throw crmApiError(this.getNode(), failed as CrmErrorBody, { itemIndex });
		return results.map((result) => ({
			json: isErrorItem(result) ? { error: result.message, details: result } : writeResult(result),
		}));
	});
}
