// The sandbox and the package share no code: a bug in shared code (CSV, dates, zip) would be on
// both ends of every test and invisible. The sandbox's CSV comes from csv-parse / csv-stringify,
// development dependencies only (the package has no runtime dependencies).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return /\.(ts|mts)$/.test(name) ? [path] : [];
	});
}

/** Module specifiers of the static and dynamic imports and re-exports of a file. */
function importsOf(path: string): string[] {
	const text = readFileSync(path, 'utf8');
	const found: string[] = [];
	for (const m of text.matchAll(
		/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g,
	))
		found.push(m[1]);
	return found;
}

describe('no shared code between the sandbox and the package', () => {
	it('no sandbox file imports from nodes/ or credentials/', () => {
		const offenders = sourceFiles(join(ROOT, 'sandbox')).flatMap((file) =>
			importsOf(file)
				.filter((spec) => /(^|\/)(nodes|credentials)\//.test(spec))
				.map((spec) => `${relative(ROOT, file)} → ${spec}`),
		);
		expect(offenders).toEqual([]);
	});

	it('no package file imports from sandbox/', () => {
		const files = [...sourceFiles(join(ROOT, 'nodes')), ...sourceFiles(join(ROOT, 'credentials'))];
		const offenders = files.flatMap((file) =>
			importsOf(file)
				.filter((spec) => /(^|\/)sandbox\//.test(spec))
				.map((spec) => `${relative(ROOT, file)} → ${spec}`),
		);
		expect(offenders).toEqual([]);
	});

	it('the sandbox CSV library is a development dependency, never a runtime one', () => {
		const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
		expect(pkg.devDependencies).toEqual(
			expect.objectContaining({
				'csv-parse': expect.any(String),
				'csv-stringify': expect.any(String),
			}),
		);
		expect(Object.keys(pkg.dependencies ?? {})).toEqual([]);
		expect(importsOf(join(ROOT, 'sandbox', 'csv.ts'))).toEqual(
			expect.arrayContaining(['csv-parse/sync', 'csv-stringify/sync']),
		);
	});
});
