// The request path (docs/contributing.md "The request path"): from an operation to n8n's HTTP helper in at most
// three of the package's call frames, for a batched, a per-item and a routed operation. The stack is
// read where n8n's httpRequestWithAuthentication asks the credentials helper for the credential.
import { useCrmFixture } from '../harness/crm';
import { outputOf } from '../harness/n8n';

const crm = useCrmFixture({ sandbox: { demo: false } });

/** Call frames of the stacks taken inside n8n's HTTP helper, innermost first. */
async function stacksOf(run: () => Promise<unknown>): Promise<string[][]> {
	const stacks: string[][] = [];
	const helper = crm.helper as any;
	const original = helper.getDecrypted;
	const limit = Error.stackTraceLimit;
	Error.stackTraceLimit = 80;
	helper.getDecrypted = async function (...args: unknown[]) {
		const frames = (new Error().stack ?? '')
			.split('\n')
			.slice(1)
			.map((line) => line.trim());
		if (frames.some((f) => f.includes('httpRequestWithAuthentication'))) stacks.push(frames);
		return await original.apply(this, args);
	};
	try {
		await run();
	} finally {
		helper.getDecrypted = original;
		Error.stackTraceLimit = limit;
	}
	return stacks;
}

/** The package's frames between n8n's HTTP helper and the first frame in `entry` (excluded). */
function packageFramesBetween(stack: string[], entry: RegExp): string[] {
	const from = stack.findIndex((f) => f.includes('httpRequestWithAuthentication'));
	const to = stack.findIndex((f, i) => i > from && entry.test(f));
	expect(from).toBeGreaterThanOrEqual(0);
	expect(to).toBeGreaterThan(from);
	return stack
		.slice(from + 1, to)
		.filter((f) => /[/\\](nodes|credentials)[/\\]/.test(f) && !f.includes('node_modules'));
}

test("batched: execute → runBatched → crmRequest → n8n's HTTP helper", async () => {
	const create = crm.node('crmRecord', {
		resource: 'record',
		operation: 'create',
		module: 'Leads',
		fieldsMode: 'json',
		recordJson: '={{ JSON.stringify({ Last_Name: $json.name }) }}',
	});
	const stacks = await stacksOf(async () => {
		const out = outputOf(
			await crm.run(create, [{ json: { name: 'Path A' } }, { json: { name: 'Path B' } }]),
			create.name,
		);
		expect(out.map((o) => o.json.status)).toEqual(['success', 'success']);
	});
	// (the field metadata read while building the items is a call of its own)
	const write = stacks.find(
		(s) => s.some((f) => f.includes('runBatched')) && !s.some((f) => f.includes('writeItemOf')),
	);
	expect(write).toBeDefined();
	const frames = packageFramesBetween(write!, /resources[/\\]record[/\\]create\.ts/);
	expect(frames.map((f) => f.replace(/^at (async )?/, '').split(' ')[0])).toEqual([
		'crmRequest',
		'runBatched',
	]);
});

test("per item: execute → runPerItem → the item's work → crmRequest → n8n's HTTP helper", async () => {
	const remove = crm.node('crmRecord', {
		resource: 'record',
		operation: 'deleteMany',
		module: 'Leads',
		recordIds: '4876876000000999001',
	});
	const stacks = await stacksOf(async () => await crm.run(remove, [{ json: {} }]));
	const call = stacks.find((s) => s.some((f) => f.includes('runPerItem')));
	expect(call).toBeDefined();
	const frames = packageFramesBetween(call!, /runPerItem/);
	// the item's work is the operation's own code (deleteMany.ts)
	expect(frames).toHaveLength(2);
	expect(frames[0]).toContain('crmRequest');
	expect(frames[1]).toMatch(/deleteMany\.ts/);
});

test("routed: n8n's routing → crmRequestRunner → n8n's makeRoutingRequest → HTTP helper", async () => {
	const getAll = crm.node('crmRecord', {
		resource: 'record',
		operation: 'getAll',
		module: 'Leads',
		returnAll: false,
		limit: 1,
	});
	const stacks = await stacksOf(async () => await crm.run(getAll, [{ json: {} }]));
	const call = stacks.find((s) => s.some((f) => f.includes('crmRequestRunner')));
	expect(call).toBeDefined();
	const frames = packageFramesBetween(call!, /crmRequestRunner/);
	expect(frames).toEqual([]);
});
