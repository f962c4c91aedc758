// The browser of the e2e run: minimal playwright-core types (the package lives in .n8n-runtime, not
// in node_modules) and Debian's Chromium, installed with apt-get when missing.
import { existsSync } from 'node:fs';
import path from 'node:path';

import { REPO, run } from '../n8n-runtime.mts';
import { assert } from './context.mts';
import type { E2eLocator } from './context.mts';

/** a playwright Locator: the one the steps of scripts/e2e/ know, and what the run's own steps use */
export interface Locator extends Omit<E2eLocator, 'first' | 'filter' | 'locator' | 'getByText'> {
	press(k: string): Promise<void>;
	first(): Locator;
	nth(i: number): Locator;
	filter(o: { has?: Locator; hasText?: string | RegExp }): Locator;
	locator(s: string, o?: { hasText?: string | RegExp }): Locator;
	getByRole(role: string, o?: { name?: string | RegExp; exact?: boolean }): Locator;
	getByText(t: string | RegExp, o?: { exact?: boolean }): Locator;
	getAttribute(name: string): Promise<string | null>;
	scrollIntoViewIfNeeded(): Promise<void>;
}
export interface Page extends Pick<Locator, 'locator' | 'getByRole' | 'getByText'> {
	goto(url: string): Promise<unknown>;
	waitForURL(u: RegExp | ((url: URL) => boolean), o?: { timeout?: number }): Promise<void>;
	waitForTimeout(ms: number): Promise<void>;
	screenshot(o: { path: string; fullPage?: boolean }): Promise<unknown>;
	waitForEvent(e: string, o?: { timeout?: number }): Promise<unknown>;
	on(e: string, cb: (...a: unknown[]) => void): void;
	url(): string;
	keyboard: { press(k: string): Promise<void> };
}
export interface BrowserContext {
	newPage(): Promise<Page>;
	waitForEvent(e: 'page', o?: { timeout?: number }): Promise<Page>;
	setDefaultTimeout(ms: number): void;
	setDefaultNavigationTimeout(ms: number): void;
}
export interface Browser {
	newContext(o: Record<string, unknown>): Promise<BrowserContext>;
	close(): Promise<void>;
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-dev-shm-usage',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
];

export async function ensureChromium(
	resultsDir: string,
	log: (msg: string) => void,
): Promise<string> {
	if (existsSync(CHROMIUM)) return CHROMIUM;
	if (process.getuid?.() !== 0)
		throw new Error(
			`${CHROMIUM} is missing; install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`,
		);
	const logFile = path.join(resultsDir, 'apt-chromium.log');
	log(`installing Debian chromium (apt-get, log ${path.relative(REPO, logFile)})…`);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	await run('apt-get', ['update'], { cwd: REPO, logFile, env });
	await run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
		cwd: REPO,
		logFile,
		env,
	});
	assert(existsSync(CHROMIUM), `apt-get installed chromium but ${CHROMIUM} does not exist`);
	return CHROMIUM;
}
