// Search criteria (docs/protocol.md §3.11): the builder's conditions as `((A)and(B))`, raw
// criteria checked, and the one search parameter of SearchRecords / RecordCount.
import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_CRITERIA_CONDITIONS } from '../description/collections';
import { toCrmDateTime } from '../formats/dates';
import { getParameter } from '../parameters';

/** `(`, `)` and `,` inside a criteria value are escaped with `\` (§3.11). */
function escapeCriteriaValue(value: string): string {
	return value.replace(/([\\(),])/g, '\\$1');
}

interface Condition {
	field: string;
	operator: string;
	value: unknown;
}

/** A criteria value as text: DateTimes in the contract's form, others as given. */
function criteriaValue(value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : String(value ?? '');
	if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) return toCrmDateTime(text) ?? text;
	return text;
}

/** Builds `((A)and(B))` from builder conditions. */
function buildCriteria(conditions: Condition[], combine: 'and' | 'or'): string {
	const parts = conditions.map(
		(c) => `(${c.field}:${c.operator}:${escapeCriteriaValue(criteriaValue(c.value))})`,
	);
	return parts.length === 1 ? parts[0] : `(${parts.join(combine)})`;
}

/** Number of conditions in a raw criteria string (`(Field:operator:` openings). */
export function countConditions(criteria: string): number {
	return (criteria.replace(/\\./g, '').match(/\(\s*[\w$.]+\s*:\s*\w+\s*:/g) ?? []).length;
}

/**
 * The one search parameter of SearchRecords / RecordCount from "Search By" (§3.11): the criteria
 * builder, raw criteria, email, phone or word; at most 10 conditions, checked before sending.
 */
export function searchQuery(this: IExecuteSingleFunctions, optional: boolean): IDataObject {
	const itemIndex = this.getItemIndex();
	const by = getParameter(this, 'searchBy', itemIndex, optional ? 'none' : 'criteria') as string;
	const tooMany = (n: number) =>
		new NodeOperationError(
			this.getNode(),
			`Criteria has ${n} conditions; at most ${MAX_CRITERIA_CONDITIONS} are allowed`,
			{
				itemIndex,
				description: `The CRM accepts at most ${MAX_CRITERIA_CONDITIONS} conditions per search.`,
			},
		);
	if (by === 'none') return {};
	if (by === 'criteria') {
		const conditions = (
			getParameter(this, 'conditions.condition', itemIndex, []) as Condition[]
		).filter((c) => c.field);
		if (conditions.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Add at least one condition to Conditions', {
				itemIndex,
			});
		}
		if (conditions.length > MAX_CRITERIA_CONDITIONS) throw tooMany(conditions.length);
		return {
			criteria: buildCriteria(
				conditions,
				getParameter(this, 'combine', itemIndex, 'and') as 'and' | 'or',
			),
		};
	}
	if (by === 'rawCriteria') {
		const criteria = String(getParameter(this, 'criteria', itemIndex, '') ?? '').trim();
		if (!/^\(.*\)$/s.test(criteria)) {
			throw new NodeOperationError(
				this.getNode(),
				'Criteria must be of the form (Field:operator:value)',
				{
					itemIndex,
					description: 'Example: ((Last_Name:equals:Smith)and(Lead_Source:equals:Web)).',
				},
			);
		}
		const n = countConditions(criteria);
		if (n > MAX_CRITERIA_CONDITIONS) throw tooMany(n);
		return { criteria };
	}
	const value = String(getParameter(this, 'searchValue', itemIndex, '') ?? '').trim();
	if (!value)
		throw new NodeOperationError(this.getNode(), `Give a value to search by ${by}`, { itemIndex });
	return { [by]: value };
}
