import type { INodePropertyOptions, INodePropertyRouting } from 'n8n-workflow';

import { crmRouting, noneWithId, requireV21 } from '../transport';
import { idPathSegment, requireDigits } from '../records/validation';

/** "a field", "an email template": `an` before a vowel ("user" is not one here: "a user"). */
function withArticle(thing: string): string {
	return `${/^[aeio]/i.test(thing) ? 'an' : 'a'} ${thing}`;
}

/** "custom view" → "Custom View ID", the label of the ID's digits check. */
function idLabel(thing: string): string {
	return `${thing.replace(/\b\w/g, (c) => c.toUpperCase())} ID`;
}

/**
 * The Get by ID of one settings or organization entity (routed): "Get a <thing>", GET `path/{id}`
 * through the request runner, which unwraps the item under `rootProperty` and fails a missing ID
 * with "No <thing> with ID …". Before sending, the ID is checked to be digits; with `v21Only`
 * (the operation's name) a v2 credential is refused instead and the ID goes as given; with
 * `unchecked` the ID goes as given.
 */
export function getByIdOption(spec: {
	thing: string;
	path: string;
	idParameter: string;
	rootProperty: string;
	description: string;
	v21Only?: string;
	unchecked?: true;
}): INodePropertyOptions {
	const { thing, path, idParameter } = spec;
	const asGiven = `=${path}/{{ toPathSegment($parameter.${idParameter}) }}`;
	let routing: INodePropertyRouting;
	if (spec.v21Only)
		routing = {
			request: { method: 'GET', url: asGiven },
			send: { preSend: [requireV21(spec.v21Only)] },
		};
	else if (spec.unchecked) routing = { request: { method: 'GET', url: asGiven } };
	else routing = byIdRouting('GET', path, idParameter, idLabel(thing));
	return {
		name: 'Get',
		value: 'get',
		action: `Get ${withArticle(thing)}`,
		description: spec.description,
		routing: crmRouting(routing, {
			rootProperty: spec.rootProperty,
			notFound: noneWithId(thing, idParameter),
		}),
	};
}

/** Routing of a request to `path/{id}`, the ID parameter checked to be digits before sending. */
export function byIdRouting(
	method: 'GET' | 'DELETE',
	path: string,
	idParameter: string,
	label: string,
): INodePropertyRouting {
	return {
		request: { method, url: `=${path}/${idPathSegment(idParameter)}` },
		send: { preSend: [requireDigits(idParameter, label)] },
	};
}
