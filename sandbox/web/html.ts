// HTML of the sandbox's pages: a tagged template that escapes every value it is given (markup
// built by it passes through as is), and the one layout every page shares.
import type { ModuleDef } from '../catalogue/modules.ts';

/** Markup that is already safe: `h` inserts it unescaped. */
export class Html {
	readonly text: string;
	constructor(text: string) {
		this.text = text;
	}
	toString(): string {
		return this.text;
	}
}

const ESCAPES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;',
};

function esc(text: string): string {
	return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function render(value: unknown): string {
	if (value instanceof Html) return value.text;
	if (Array.isArray(value)) return value.map(render).join('');
	if (value === undefined || value === null || value === false) return '';
	return esc(String(value));
}

/** `h\`<p>${text}</p>\``: strings and numbers escaped, Html and lists of Html inserted. */
export function h(strings: TemplateStringsArray, ...values: unknown[]): Html {
	let out = strings[0];
	values.forEach((value, i) => {
		out += render(value) + strings[i + 1];
	});
	return new Html(out);
}

/** What every page needs besides its content. */
export interface Frame {
	title: string;
	modules: ModuleDef[];
	/** the module shown, highlighted in the navigation */
	current?: string;
	/** the session's CSRF token, put into every form */
	csrf: string;
}

/** A form posting to `action` with the session's CSRF token. */
export function form(frame: Pick<Frame, 'csrf'>, action: string, inner: Html, attrs = ''): Html {
	return h`<form method="post" action="${action}" ${new Html(attrs)}><input type="hidden" name="_csrf" value="${frame.csrf}">${inner}</form>`;
}

/** The service's error (code and message, and the field it names) as a page shows it. */
export function errorBox(error: { code?: unknown; message?: unknown; details?: unknown }): Html {
	const details = (error.details ?? {}) as Record<string, unknown>;
	const problems = Array.isArray(details.validation_error)
		? (details.validation_error as Array<Record<string, unknown>>)
		: [];
	return h`<div class="error" role="alert"><strong>${String(error.code ?? 'ERROR')}</strong>: ${String(error.message ?? '')}${
		typeof details.api_name === 'string' ? h` (field <code>${details.api_name}</code>)` : ''
	}${problems.length ? h`<ul>${problems.map((p) => h`<li><code>${String(p.api_name ?? '')}</code>: ${String(p.message ?? '')}</li>`)}</ul>` : ''}</div>`;
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:0;display:flex;color:#222}
nav{width:190px;background:#f3f4f6;padding:12px;min-height:100vh;box-sizing:border-box;flex:none}
nav a{display:block;padding:2px 6px;color:#1f3a8a;text-decoration:none;border-radius:4px}
nav a.on{background:#1f3a8a;color:#fff}nav h2{font-size:12px;text-transform:uppercase;color:#666;margin:14px 0 4px}
main{padding:16px 24px;flex:1;min-width:0}h1{font-size:20px;margin:0 0 12px}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ddd;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#fafafa}label{display:block;font-weight:600;margin-top:8px}
input,select,textarea{font:inherit;padding:3px;min-width:260px}select[multiple]{min-height:70px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:0 18px}
.error{background:#fee2e2;border:1px solid #b91c1c;padding:8px;margin:8px 0;border-radius:4px}
.ok{background:#dcfce7;border:1px solid #15803d;padding:8px;margin:8px 0;border-radius:4px}
.box{border:1px solid #ddd;border-radius:6px;padding:10px;margin:12px 0}
button{font:inherit;padding:4px 12px;margin:10px 0 0;cursor:pointer;display:block}h2{font-size:16px;margin:4px 0 8px}button.danger{color:#b91c1c}
.muted{color:#666}code{background:#f3f4f6;padding:0 3px}
`;

/** The page: navigation (modules, channels, API calls, settings) and the content. */
export function layout(frame: Frame, content: Html): Html {
	const link = (href: string, text: string, on: boolean) =>
		h`<a href="${href}"${on ? new Html(' class="on"') : ''}>${text}</a>`;
	return h`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${frame.title} · CRM sandbox</title><style>${new Html(STYLE)}</style></head><body>
<nav><a href="/"><strong>CRM sandbox</strong></a>
<h2>Sandbox</h2>${link('/ui/channels', 'Notification channels', frame.current === ':channels')}${link('/ui/calls', 'Last API calls', frame.current === ':calls')}${link('/ui/settings', 'Settings', frame.current === ':settings')}
<h2>Modules</h2>${frame.modules.map((m) => link(`/ui/modules/${m.api_name}`, m.plural_label, frame.current === m.api_name))}</nav>
<main>${content}</main></body></html>`;
}
