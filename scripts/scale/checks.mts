// The checks of the scale run: each printed as it is made, counted at the end.
// ---- checks ------------------------------------------------------------------------------------

export const checks: Array<{ ok: boolean; text: string }> = [];
export function check(ok: boolean, text: string): boolean {
	checks.push({ ok, text });
	console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${text}`);
	return ok;
}
