import { APP_CLASS } from '../core/app-class.js';

/**
 * Browser-side code shared by every view, as a string (it runs inside the host's sandboxed
 * iframe, not in Node). The ext-apps App class speaks the MCP Apps protocol (initialize, the
 * tool result, host context, tools/call); this adds `start(render)` and `callTool` on top of it.
 * Views render with textContent only, never HTML, so chain data stays text.
 */
export const RUNTIME = `${APP_CLASS}
var app=new McpApps.App({name:'chain-mcp view',version:'1'},{});
function callTool(name,args){return app.callServerTool({name:name,arguments:args})}
function el(tag,text,cls){var e=document.createElement(tag);if(text!==undefined&&text!==null)e.textContent=String(text);if(cls)e.className=cls;return e}
function clear(n){while(n.firstChild)n.removeChild(n.firstChild);return n}
function theme(ctx){var t=ctx&&ctx.theme;if(t==='dark'||t==='light')document.documentElement.setAttribute('data-theme',t)}
function start(render){
app.ontoolresult=function(r){var s=r&&r.structuredContent;if(s)render(s,document.getElementById('app'))};
app.onhostcontextchanged=theme;
app.connect().then(function(){theme(app.getHostContext())},function(){})}`;

/** Light and dark from the host (data-theme) or the system; readable from 360 px; visible focus. */
export const BASE_STYLE = `:root{--bg:#fff;--fg:#111;--muted:#5b6270;--line:#d9dde3;--a:#1f6feb;--b:#8250df;--c:#1a7f37;--d:#bf8700;--warn:#cf222e}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){--bg:#0d1117;--fg:#e6edf3;--muted:#9aa4b2;--line:#30363d}}
:root[data-theme=dark]{--bg:#0d1117;--fg:#e6edf3;--muted:#9aa4b2;--line:#30363d}
body{margin:0;padding:12px;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,sans-serif;min-width:0}
h1{font-size:16px;margin:0 0 8px;overflow-wrap:anywhere}h2{font-size:14px;margin:14px 0 6px}.muted{color:var(--muted);font-size:12px}
table{border-collapse:collapse;width:100%;table-layout:fixed}td{overflow-wrap:anywhere}th,td{text-align:left;padding:4px 6px;border-bottom:1px solid var(--line);vertical-align:top}
th button{font:inherit;font-weight:600;background:none;border:0;color:inherit;cursor:pointer;padding:0}
button:focus-visible,input:focus-visible,tr:focus-visible{outline:3px solid var(--d);outline-offset:1px}
.bar{display:flex;height:12px;border-radius:6px;overflow:hidden;background:var(--line);margin:4px 0}.bar span{display:block;height:100%}
.warn{color:var(--warn);font-weight:600}.num{font-variant-numeric:tabular-nums;white-space:nowrap}
@media (max-width:420px){td,th{padding:3px}.hide-narrow{display:none}}`;
