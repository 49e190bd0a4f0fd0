import { createHash } from 'node:crypto';
import { APP_CLASS } from '../core/app-class.js';

/** The approval card's HTML, for the result `_meta` key of its data and its app-only tool (card.ts loads this module on the first read). */
export function buildCardHtml(metaKey: string, tool: string): string {
  const STYLE = `body{font:14px system-ui,sans-serif;margin:12px;color:#111}h1{font-size:16px;margin:0 0 8px}ul{padding-left:18px}
li{margin:2px 0;white-space:pre-wrap;word-break:break-all}button{font-size:14px;padding:6px 14px;margin-right:8px}#status{margin-top:8px;font-weight:600}`;

  // The ext-apps App class speaks the MCP Apps protocol with the host: the card learns the tool
  // result, renders the facts with textContent only (never HTML), and calls the app-only tool.
  const SCRIPT = `(function(){${APP_CLASS}
var app=new McpApps.App({name:'chain-mcp approval card',version:'1'},{}),data=null;
function el(t,x){var e=document.createElement(t);e.textContent=x;return e}
function show(r){var d=r&&r._meta&&r._meta['${metaKey}'];
if(!d){document.getElementById('title').textContent='Spend';document.getElementById('status').textContent=(r&&r.content||[]).map(function(c){return c.text||''}).join(' ');return}data=d;
document.getElementById('title').textContent='Approve: '+d.title+'?';var ul=document.getElementById('facts');ul.textContent='';
d.lines.forEach(function(l){ul.appendChild(el('li',l))});ul.appendChild(el('li','Valid until '+d.expiresAt));
document.getElementById('buttons').hidden=false}
function decide(decision){if(!data)return;var s=data.secret;data=null;document.getElementById('buttons').hidden=true;
app.callServerTool({name:'${tool}',arguments:{secret:s,decision:decision}}).then(function(r){
var t=(r&&r.content||[]).map(function(c){return c.text||''}).join(' ');document.getElementById('status').textContent=t},
function(){document.getElementById('status').textContent='The host refused the call; nothing was decided.'})}
app.ontoolresult=show;
document.getElementById('approve').addEventListener('click',function(){decide('approve')});
document.getElementById('decline').addEventListener('click',function(){decide('decline')});
app.connect().catch(function(){});
})();`;

  const sha = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

  /** Self-contained card: no network, inline style and script allowed by hash only. */
  return `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${sha(STYLE)}; script-src ${sha(SCRIPT)}; form-action 'none'; base-uri 'none'">
<title>Approve a spend</title><style>${STYLE}</style></head><body>
<h1 id="title">Waiting for the preview…</h1><ul id="facts"></ul>
<div id="buttons" hidden><button id="approve" type="button">Approve</button><button id="decline" type="button">Decline</button></div>
<div id="status" role="status"></div><script>${SCRIPT}</script></body></html>`;
}
