/**
 * The host's look, for the MCP Apps views and the approval card (browser code as strings).
 * The host sends `theme` and `styles.variables` (the spec's standard CSS variables) in its
 * context at initialize and on every change; these apply them to the document. Values are set
 * through the CSS object model (allowed under the hash-only CSP), never as markup, and only for
 * names that look like a CSS custom property.
 */
export const THEME_SCRIPT = `function applyHost(ctx){if(!ctx)return;var root=document.documentElement,t=ctx.theme;
if(t==='dark'||t==='light'){root.setAttribute('data-theme',t);root.style.colorScheme=t}
var v=ctx.styles&&ctx.styles.variables;if(v&&typeof v==='object')Object.keys(v).forEach(function(k){if(/^--[a-z0-9-]+$/.test(k)&&typeof v[k]==='string')root.style.setProperty(k,v[k])})}`;

/**
 * Our colours and fonts fall back to the host's standard variables when it sends them, then to
 * our own light or dark values (data-theme from the host, else the system's preference).
 */
export const THEME_STYLE = `:root{color-scheme:light dark;--bg:var(--color-background-primary,#fff);--fg:var(--color-text-primary,#111);--muted:var(--color-text-secondary,#5b6270);--line:var(--color-border-primary,#d9dde3);--warn:var(--color-text-danger,#cf222e);--ok:var(--color-text-success,#1a7f37);--font:var(--font-sans,system-ui,sans-serif)}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){--bg:var(--color-background-primary,#0d1117);--fg:var(--color-text-primary,#e6edf3);--muted:var(--color-text-secondary,#9aa4b2);--line:var(--color-border-primary,#30363d);--warn:var(--color-text-danger,#ff7b72);--ok:var(--color-text-success,#3fb950)}}
:root[data-theme=dark]{--bg:var(--color-background-primary,#0d1117);--fg:var(--color-text-primary,#e6edf3);--muted:var(--color-text-secondary,#9aa4b2);--line:var(--color-border-primary,#30363d);--warn:var(--color-text-danger,#ff7b72);--ok:var(--color-text-success,#3fb950)}
body{background:var(--bg);color:var(--fg);font-family:var(--font)}`;
