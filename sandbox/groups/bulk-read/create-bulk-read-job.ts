import type { ModuleDef } from '../../catalogue/modules.ts';
import { HttpError } from '../../errors.ts';
import { parseCallback, saveJob, scheduleStep } from '../../jobs.ts';
import { operation } from '../../router.ts';
import { knobOr } from '../shared.ts';
import type { Json, UserRef } from '../../store.ts';
import { findCustomView } from '../custom-views.ts';
import type { BulkReadJob } from './shared.ts';
import {
	READ_JOBS,
	UNSUPPORTED_MODULES,
	compileCriteria,
	createScopes,
	moduleName,
	readBody,
	stepper,
} from './shared.ts';

/** CreateBulkReadJob: POST /crm/bulk/{v}/read (docs/protocol.md §5.11, §8.1). */
export const createBulkReadJob = operation(
	'POST',
	'/read',
	{ root: 'bulk', scopes: createScopes },
	(ctx) => {
		const { sandbox } = ctx;
		const { store } = sandbox;
		const body = readBody(ctx);
		const query = body.query;
		if (query === undefined || query === null) throw HttpError.mandatory('query');
		if (typeof query !== 'object' || Array.isArray(query))
			throw HttpError.invalidData({ api_name: 'query', expected_data_type: 'jsonobject' });
		const q = query as Json;
		if (q.module === undefined || q.module === null) throw HttpError.mandatory('module');
		const name = moduleName(ctx.v, q.module);
		const module = sandbox.module(name);
		if (!module)
			throw new HttpError(
				'MODULE_NOT_AVAILABLE',
				{ api_name: 'module', value: name },
				'the module is not available',
			);
		if (UNSUPPORTED_MODULES.has(module.api_name.toLowerCase())) {
			throw new HttpError(
				'MODULE_NOT_SUPPORTED',
				{ api_name: 'module', value: module.api_name },
				'the module is not supported for bulk read',
			);
		}
		let fields: string[] | undefined;
		if (q.fields !== undefined && q.fields !== null) {
			if (!Array.isArray(q.fields) || q.fields.some((f) => typeof f !== 'string')) {
				throw HttpError.invalidData({ api_name: 'fields', expected_data_type: 'jsonarray' });
			}
			fields = [];
			for (const f of q.fields as string[]) {
				if (f === 'Id' || f === 'id') continue; // always the first column
				const field = module.fields.find((d) => d.api_name === f);
				if (!field)
					throw new HttpError('FIELD_NOT_AVAILABLE', { api_name: f }, 'the field is not available');
				if (!fields.includes(f)) fields.push(f);
			}
		}
		let page = 1;
		if (q.page !== undefined && q.page !== null) {
			page = Number(q.page);
			if (!Number.isInteger(page) || page < 1)
				throw HttpError.invalidData(
					{ api_name: 'page', expected_data_type: 'integer' },
					'invalid value for page',
				);
		}
		const fileType =
			body.file_type === undefined || body.file_type === null ? 'csv' : body.file_type;
		if (fileType !== 'csv' && fileType !== 'ics')
			throw HttpError.invalidData({ api_name: 'file_type' }, 'file_type must be csv or ics');
		if (fileType === 'ics' && module.api_name !== 'Events') {
			throw new HttpError(
				'JOB_NOT_SUPPORTED',
				{ api_name: 'file_type', info_message: 'ics is available for Events only' },
				'the ics file type is supported for Events only',
			);
		}
		const criteria = q.criteria === null ? undefined : q.criteria;
		compileCriteria(sandbox, module, criteria); // validate now: errors answer the create call
		const cvid =
			q.cvid === undefined || q.cvid === null || q.cvid === '' ? undefined : String(q.cvid);
		if (cvid) {
			const view = findCustomView(sandbox, cvid);
			if (!view || view.module !== module.api_name) {
				throw HttpError.invalidData(
					{ api_name: 'cvid', value: cvid },
					'the custom view is not a view of the module',
				);
			}
		}
		const callback = parseCallback(body.callback);

		const running = store
			.docs<BulkReadJob>(READ_JOBS)
			.filter((j) => j.state === 'ADDED' || j.state === 'IN PROGRESS').length;
		if (running >= knobOr(sandbox.config.knobs.bulkReadConcurrency, 5))
			throw new HttpError('TOO_MANY_REQUESTS');

		const user: UserRef = sandbox.user(ctx);
		const job: BulkReadJob = {
			id: store.nextId(),
			$step: 0,
			operation: 'read',
			state: 'ADDED',
			created_by: { id: user.id, name: user.name },
			created_time: sandbox.formatTime(),
			file_type: fileType,
			module: module.api_name,
			module_id: String((module as ModuleDef & { id?: string }).id ?? ''),
			v: ctx.v,
			query: {
				page,
				...(fields ? { fields } : {}),
				...(criteria !== undefined ? { criteria: criteria as Json } : {}),
				...(cvid ? { cvid } : {}),
			},
			...(callback ? { callback } : {}),
		};
		saveJob(sandbox, READ_JOBS, job);
		scheduleStep(sandbox, READ_JOBS, job.id, stepper(sandbox));
		return {
			status: 201,
			body: {
				data: [
					{
						status: 'success',
						code: 'ADDED_SUCCESSFULLY',
						message: 'Added successfully.',
						details: {
							id: job.id,
							operation: 'read',
							state: 'ADDED',
							created_by: job.created_by,
							created_time: job.created_time,
						},
					},
				],
				info: {},
			},
		};
	},
);
