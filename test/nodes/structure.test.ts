/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any, @typescript-eslint/no-require-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions */
// Walks every node of package.json "n8n".nodes: community-node rules (usableAsTool, subtitle,
// themed icons that exist, codex file), and every routed URL encodes its dynamic segments.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodeType } from 'n8n-workflow';

import { CrmOAuth2Api } from '../../credentials/CrmOAuth2Api.credentials';
import { packageNodeTypes } from '../harness/crm';

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = require(path.join(ROOT, 'package.json'));
const nodeTypes = Object.entries(packageNodeTypes());

function sourceDirOf(type: INodeType): string {
	const built = (pkg.n8n.nodes as string[]).find((p) => path.basename(p, '.node.js').toLowerCase() === type.description.name.toLowerCase());
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
		expect(names).toEqual(expect.arrayContaining(['accountsUrl', 'apiVariant', 'scope', 'authUrl', 'accessTokenUrl']));
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

	test.each(nodeTypes)('%s: every dynamic URL segment goes through toPathSegment', (_name, type) => {
		for (const { where, url } of routedUrls(type)) {
			const expressions = [...url.matchAll(/{{\s*(.*?)\s*}}/g)].map((m) => m[1]);
			for (const expression of expressions) {
				// a parameter that reaches the path must be encoded; conditions may read parameters freely
				const pathParts = expression.replace(/toPathSegment\((?:[^()]|\([^()]*\))*\)/g, 'SEGMENT');
				const concatenated = [...pathParts.matchAll(/\$(?:parameter|value)(?:\.\w+|\[[^\]]+\])*/g)]
					.filter((m) => !/^\s*\?/.test(pathParts.slice(m.index! + m[0].length)))
					.map((m) => m[0]);
				expect({ where, expression, unencoded: concatenated }).toEqual({ where, expression, unencoded: [] });
			}
		}
	});

	test('npm pack ships built nodes, credentials and icons only', () => {
		const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
		const files: string[] = JSON.parse(out)[0].files.map((f: { path: string }) => f.path);
		expect(files).toContain('package.json');
		expect(files.filter((f) => /^(sandbox|test|bench|scripts|examples|docs)\//.test(f))).toEqual([]);
		expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
		if (existsSync(path.join(ROOT, 'dist'))) {
			for (const built of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) expect(files).toContain(built);
			expect(files).toContain('dist/icons/crm.svg');
		}
	});
});
