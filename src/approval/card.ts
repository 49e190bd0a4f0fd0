import { createHash, randomBytes } from 'node:crypto';
import { getUiCapability, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { Approval } from './book.js';

/** The MCP Apps approval card: a `ui://` view linked from spend previews when the host can show it. */
export const CARD_URI = 'ui://chain-mcp/approval-card.html';
/** App-only tool the card's Approve/Decline buttons call; never listed in tools/list. */
export const CARD_TOOL = 'approval_decide';
/** Result `_meta` key carrying the card's data: hosts hand `_meta` to the view, not to the model. */
export const CARD_META_KEY = 'chain-mcp/approval';

/** The host renders MCP Apps views (it advertised the ui extension with our MIME type). */
export function hostShowsCards(caps: ClientCapabilities | undefined): boolean {
  const ui = getUiCapability(caps as Parameters<typeof getUiCapability>[0]);
  return ui?.mimeTypes?.includes(RESOURCE_MIME_TYPE) === true;
}

/**
 * One secret per card, in memory only; the secret is the only way the app-only tool finds an
 * approval, and it is spent on first use.
 */
export class CardSecrets {
  private readonly bySecret = new Map<string, Approval>();

  issue(approval: Approval): string {
    for (const [s, a] of this.bySecret) if (a.state !== 'pending') this.bySecret.delete(s);
    while (this.bySecret.size >= 1000) this.bySecret.delete(this.bySecret.keys().next().value as string);
    const secret = randomBytes(24).toString('base64url');
    this.bySecret.set(secret, approval);
    return secret;
  }

  take(secret: string): Approval | undefined {
    const a = this.bySecret.get(secret);
    this.bySecret.delete(secret);
    return a;
  }
}

/** The preview result's `_meta`: the card link and the facts plus the secret, for the view only. */
export function cardMeta(secrets: CardSecrets, approval: Approval): Record<string, unknown> {
  return {
    ui: { resourceUri: CARD_URI },
    [CARD_META_KEY]: { secret: secrets.issue(approval), title: approval.title, lines: approval.lines, expiresAt: new Date(approval.expiresAt).toISOString() },
  };
}

const STYLE = `body{font:14px system-ui,sans-serif;margin:12px;color:#111}h1{font-size:16px;margin:0 0 8px}ul{padding-left:18px}
li{margin:2px 0;white-space:pre-wrap;word-break:break-all}button{font-size:14px;padding:6px 14px;margin-right:8px}#status{margin-top:8px;font-weight:600}`;

// The view speaks the MCP Apps postMessage protocol (JSON-RPC to the host): it learns the tool
// result, renders the facts with textContent only (never HTML), and calls the app-only tool.
const SCRIPT = `(function(){var id=0,pending={},data=null;
function send(m){window.parent.postMessage(m,'*')}
function request(method,params){id+=1;var n=id;send({jsonrpc:'2.0',id:n,method:method,params:params});return new Promise(function(res,rej){pending[n]={res:res,rej:rej}})}
function el(t,x){var e=document.createElement(t);e.textContent=x;return e}
function show(r){var d=r&&r._meta&&r._meta['${CARD_META_KEY}'];
if(!d){document.getElementById('title').textContent='Spend';document.getElementById('status').textContent=(r&&r.content||[]).map(function(c){return c.text||''}).join(' ');return}data=d;
document.getElementById('title').textContent='Approve: '+d.title+'?';var ul=document.getElementById('facts');ul.textContent='';
d.lines.forEach(function(l){ul.appendChild(el('li',l))});ul.appendChild(el('li','Valid until '+d.expiresAt));
document.getElementById('buttons').hidden=false}
function decide(decision){if(!data)return;var s=data.secret;data=null;document.getElementById('buttons').hidden=true;
request('tools/call',{name:'${CARD_TOOL}',arguments:{secret:s,decision:decision}}).then(function(r){
var t=(r&&r.content||[]).map(function(c){return c.text||''}).join(' ');document.getElementById('status').textContent=t},
function(){document.getElementById('status').textContent='The host refused the call; nothing was decided.'})}
window.addEventListener('message',function(ev){if(ev.source!==window.parent)return;var m=ev.data;if(!m||m.jsonrpc!=='2.0')return;
if(m.id!==undefined&&pending[m.id]){var p=pending[m.id];delete pending[m.id];if(m.error)p.rej(m.error);else p.res(m.result);return}
if(m.method==='ui/notifications/tool-result')show(m.params)});
document.getElementById('approve').addEventListener('click',function(){decide('approve')});
document.getElementById('decline').addEventListener('click',function(){decide('decline')});
request('ui/initialize',{appInfo:{name:'chain-mcp approval card',version:'1'},appCapabilities:{},protocolVersion:'2026-01-26'}).then(function(){send({jsonrpc:'2.0',method:'ui/notifications/initialized',params:{}})},function(){});
})();`;

const sha = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

/** Self-contained card: no network, inline style and script allowed by hash only. */
export const CARD_HTML = `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${sha(STYLE)}; script-src ${sha(SCRIPT)}; form-action 'none'; base-uri 'none'">
<title>Approve a spend</title><style>${STYLE}</style></head><body>
<h1 id="title">Waiting for the preview…</h1><ul id="facts"></ul>
<div id="buttons" hidden><button id="approve" type="button">Approve</button><button id="decline" type="button">Decline</button></div>
<div id="status" role="status"></div><script>${SCRIPT}</script></body></html>`;

/** The card's resource, as resources/read returns it. */
export function cardResource(): { uri: string; mimeType: string; text: string; _meta: Record<string, unknown> } {
  return { uri: CARD_URI, mimeType: RESOURCE_MIME_TYPE, text: CARD_HTML, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } } };
}
