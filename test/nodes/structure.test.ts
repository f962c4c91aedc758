/* eslint-disable @typescript-eslint/no-require-imports */
// Walks every node of package.json "n8n".nodes: community-node rules (usableAsTool, subtitle,
// themed icons of its own, codex file), and every routed URL encodes its dynamic segments. Also
// what publishing needs: licence and package metadata. README links, wording and the release
// workflow are policy checks of `npm run check` (scripts/check.mts).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodeType } from 'n8n-workflow';

import { CrmOAuth2Api } from '../../credentials/CrmOAuth2Api.credentials';
import { apiDomain } from '../../nodes/shared/transport/request';
import { packageNodeTypes } from '../harness/crm';

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = require(path.join(ROOT, 'package.json'));
const nodeTypes = Object.entries(packageNodeTypes());

function sourceDirOf(type: INodeType): string {
	const built = (pkg.n8n.nodes as string[]).find(
		(p) => path.basename(p, '.node.js').toLowerCase() === type.description.name.toLowerCase(),
	);
	return path.join(ROOT, path.dirname(built!.replace(/^dist\//, '')));
}

/** Every `routing.request.url` expression of a node, with where it sits. */
function routedUrls(type: INodeType): Array<{ where: string; url: string }> {
	const urls: Array<{ where: string; url: string }> = [];
	const visit = (props: Array<INodeProperties | any>, where: string) => {
		for (const p of props ?? []) {
			const url = p.routing?.request?.url;
			if (typeof url === 'string') urls.push({ where: `${where}/${p.name ?? p.value}`, url });
			if (Array.isArray(p.options)) visit(p.options, `${where}/${p.name ?? p.value}`);
			if (Array.isArray(p.values)) visit(p.values, `${where}/${p.name}`);
		}
	};
	visit(type.description.properties, type.description.name);
	return urls;
}

/** https://github.com/owner/name, from package.json "repository" */
function repoUrl(): string {
	return String(pkg.repository.url)
		.replace(/^git\+/, '')
		.replace(/\.git$/, '');
}

describe('package structure', () => {
	test('package.json follows the community-node rules', () => {
		expect(pkg.name).toMatch(/^n8n-nodes-/);
		expect(pkg.keywords).toContain('n8n-community-node-package');
		expect(pkg.license).toBe('MIT');
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(pkg.n8n.n8nNodesApiVersion).toBe(1);
		expect(pkg.n8n.credentials).toEqual(['dist/credentials/CrmOAuth2Api.credentials.js']);
		expect(pkg.n8n.nodes.length).toBeGreaterThanOrEqual(1);
		for (const p of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) expect(p).toMatch(/^dist\//);
		expect(pkg.devDependencies.node).toMatch(/^24\./);
	});

	test('the credential is crmOAuth2Api extending oAuth2Api, with docs and themed icons', () => {
		const cred = new CrmOAuth2Api();
		expect(cred.name).toBe('crmOAuth2Api');
		expect(cred.extends).toEqual(['oAuth2Api']);
		expect(cred.documentationUrl).toMatch(/^https:\/\//);
		const icon = cred.icon as { light: string; dark: string };
		for (const file of [icon.light, icon.dark]) {
			expect(existsSync(path.resolve(ROOT, 'credentials', file.replace(/^file:/, '')))).toBe(true);
		}
		const names = cred.properties.map((p) => p.name);
		expect(names).toEqual(
			expect.arrayContaining([
				'environment',
				'accountsUrl',
				'sandboxUrl',
				'apiVariant',
				'scope',
				'authUrl',
				'accessTokenUrl',
			]),
		);
	});

	test('a new credential asks for the accounts server of the service; localhost only behind the explicit sandbox choice', () => {
		const props = Object.fromEntries(new CrmOAuth2Api().properties.map((p) => [p.name, p]));
		const environment = props.environment;
		expect(environment.default).toBe('service');
		expect(
			(environment.options as Array<{ name: string; value: string }>).map((o) => [o.value, o.name]),
		).toEqual([
			['service', 'CRM Service'],
			['sandbox', 'Sandbox (Local)'],
		]);
		expect(props.accountsUrl).toMatchObject({
			default: '',
			required: true,
			displayOptions: { show: { environment: ['service'] } },
		});
		expect(props.accountsUrl.placeholder).toMatch(/^https:\/\//);
		expect(props.sandboxUrl).toMatchObject({
			default: 'http://localhost:4010',
			displayOptions: { show: { environment: ['sandbox'] } },
		});
		// nothing else of the credential (hidden OAuth URLs included) carries a host of its own
		const others = new CrmOAuth2Api().properties.filter((p) => p.name !== 'sandboxUrl');
		for (const p of others)
			expect(`${p.name}: ${JSON.stringify(p.default)} ${p.placeholder ?? ''}`).not.toMatch(
				/localhost|127\.0\.0\.1/,
			);
	});

	test('without an api_domain in the token, calls go to the server the credential names, never to a built-in host', () => {
		expect(
			apiDomain({ environment: 'service', accountsUrl: 'https://accounts.crm.example/' }),
		).toBe('https://accounts.crm.example');
		expect(
			apiDomain({
				environment: 'sandbox',
				sandboxUrl: 'http://127.0.0.1:4090',
				accountsUrl: 'https://accounts.crm.example',
			}),
		).toBe('http://127.0.0.1:4090');
		// credential data without the Server field
		expect(apiDomain({ accountsUrl: 'https://accounts.crm.example' })).toBe(
			'https://accounts.crm.example',
		);
		expect(apiDomain({ environment: 'service' })).toBe('');
		expect(
			apiDomain({
				oauthTokenData: { api_domain: 'https://api.crm.example' },
				environment: 'sandbox',
				sandboxUrl: 'http://localhost:4010',
			}),
		).toBe('https://api.crm.example');
	});

	test('each node has icon files of its own, light and dark, that no other node uses', () => {
		const seen = new Map<string, string>();
		for (const [name, type] of nodeTypes) {
			const icon = type.description.icon as { light: string; dark: string };
			for (const [variant, file] of Object.entries(icon)) {
				const abs = path.resolve(sourceDirOf(type), file.replace(/^file:/, ''));
				expect({ name, variant, exists: existsSync(abs) }).toEqual({ name, variant, exists: true });
				const svg = readFileSync(abs, 'utf8');
				expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
				// the same drawing under another file name would not tell the nodes apart either
				for (const key of [abs, svg]) {
					expect({ name, variant, sharedWith: seen.get(key) }).toEqual({
						name,
						variant,
						sharedWith: undefined,
					});
					seen.set(key, `${name} (${variant})`);
				}
			}
		}
	});

	test('licence and package metadata are consistent', () => {
		const licence = readFileSync(path.join(ROOT, 'LICENSE'), 'utf8');
		expect(licence.split('\n')[0]).toBe(`${pkg.license} License`);
		expect(licence).toMatch(/Copyright \(c\) \d{4} \S/);
		const base = repoUrl();
		expect(base).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
		expect(pkg.repository).toEqual({ type: 'git', url: `git+${base}.git` });
		expect(pkg.homepage).toBe(`${base}#readme`);
		expect(pkg.bugs).toEqual({ url: `${base}/issues` });
		expect(pkg.author.name).toEqual(expect.any(String));
		expect(pkg.author.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
		expect(readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8')).toContain(`## [${pkg.version}]`);
	});

	test.each(nodeTypes)('%s: usableAsTool, subtitle, themed icons, codex', (_name, type) => {
		const d = type.description;
		// lint (node-usable-as-tool) requires it on every node and forbids it on triggers
		expect(d.usableAsTool).toBe(d.group.includes('trigger') ? undefined : true);
		expect(typeof d.subtitle).toBe('string');
		expect(d.name).toMatch(/^crm[A-Z]/);
		expect(d.displayName).toMatch(/^CRM /);
		const dir = sourceDirOf(type);
		const icon = d.icon as { light: string; dark: string };
		expect(icon.light).not.toBe(icon.dark);
		for (const file of [icon.light, icon.dark]) {
			expect(existsSync(path.resolve(dir, file.replace(/^file:/, '')))).toBe(true);
		}
		const codexFile = path.join(dir, `${path.basename(dir)}.node.json`);
		expect(existsSync(codexFile)).toBe(true);
		const codex = require(codexFile);
		expect(codex.categories.length).toBeGreaterThan(0);
		expect(codex.resources.primaryDocumentation[0].url).toMatch(/^https:\/\//);
		expect(d.credentials).toEqual([{ name: 'crmOAuth2Api', required: true }]);
	});

	test.each(nodeTypes)(
		'%s: every dynamic URL segment goes through toPathSegment',
		(_name, type) => {
			for (const { where, url } of routedUrls(type)) {
				const expressions = [...url.matchAll(/{{\s*(.*?)\s*}}/g)].map((m) => m[1]);
				for (const expression of expressions) {
					// a parameter that reaches the path must be encoded; conditions may read parameters freely
					const pathParts = expression.replace(
						/toPathSegment\((?:[^()]|\([^()]*\))*\)/g,
						'SEGMENT',
					);
					const concatenated = [
						...pathParts.matchAll(/\$(?:parameter|value)(?:\.\w+|\[[^\]]+\])*/g),
					]
						.filter((m) => !/^\s*\?/.test(pathParts.slice(m.index! + m[0].length)))
						.map((m) => m[0]);
					expect({ where, expression, unencoded: concatenated }).toEqual({
						where,
						expression,
						unencoded: [],
					});
				}
			}
		},
	);

	test('npm pack ships built nodes, credentials and icons only', () => {
		const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: ROOT,
			encoding: 'utf8',
		});
		const files: string[] = JSON.parse(out)[0].files.map((f: { path: string }) => f.path);
		expect(files).toEqual(
			expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']),
		);
		expect(files.filter((f) => /^(sandbox|test|bench|scripts|examples|docs)\//.test(f))).toEqual(
			[],
		);
		expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
		if (existsSync(path.join(ROOT, 'dist'))) {
			for (const built of [...pkg.n8n.nodes, ...pkg.n8n.credentials])
				expect(files).toContain(built);
			expect(files).toContain('dist/icons/crm.svg');
			for (const [, type] of nodeTypes) {
				for (const file of Object.values(type.description.icon as Record<string, string>)) {
					expect(files).toContain(
						path.posix.join(
							'dist',
							path.relative(ROOT, path.resolve(sourceDirOf(type), file.replace(/^file:/, ''))),
						),
					);
				}
			}
		}
	});
});
