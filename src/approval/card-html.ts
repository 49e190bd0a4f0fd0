import { createHash } from 'node:crypto';
import { APP_CLASS } from '../core/app-class.js';
import { THEME_SCRIPT, THEME_STYLE } from '../core/app-theme.js';

/** The approval card's HTML, for the result `_meta` key of its data and its app-only tool (card.ts loads this module on the first read). */
export function buildCardHtml(metaKey: string, tool: string): string {
  const STYLE = `${THEME_STYLE}
body{font-size:14px;margin:12px}h1{font-size:16px;margin:0 0 8px;overflow-wrap:anywhere}ul{padding-left:18px}
li{margin:2px 0;white-space:pre-wrap;overflow-wrap:anywhere}button{font:inherit;padding:6px 14px;margin-right:8px}
button:focus-visible{outline:3px solid var(--muted);outline-offset:1px}#status{margin-top:8px;font-weight:600}.error{color:var(--warn)}`;

  // The ext-apps App class speaks the MCP Apps protocol with the host: the card learns the tool
  // result, renders the facts with textContent only (never HTML), and calls the app-only tool.
  // After a decision it tells the model, where the host takes them: the context for its next
  // turn (ui/update-model-context) and a short user message that starts that turn (ui/message);
  // neither holds the secret.
  const SCRIPT = `(function(){${APP_CLASS}
${THEME_SCRIPT}
var app=new McpApps.App({name:'chain-mcp approval card',version:'1'},{}),data=null;
function el(t,x){var e=document.createElement(t);e.textContent=x;return e}
function text(r){return (r&&r.content||[]).map(function(c){return c.text||''}).join(' ')}
function status(t,bad){var s=document.getElementById('status');s.textContent=t;s.className=bad?'error':''}
function show(r){var d=r&&r._meta&&r._meta['${metaKey}'];
if(!d){document.getElementById('title').textContent=r&&r.isError?'Nothing to approve':'Spend';status(text(r)||'The preview holds no approval.',!!(r&&r.isError));return}data=d;
document.getElementById('title').textContent='Approve: '+d.title+'?';var ul=document.getElementById('facts');ul.textContent='';
d.lines.forEach(function(l){ul.appendChild(el('li',l))});ul.appendChild(el('li','Valid until '+d.expiresAt));
document.getElementById('buttons').hidden=false}
function tell(decision,title){var caps=app.getHostCapabilities()||{},done=decision==='approve';
var ctx=done?'The person approved on the approval card: '+title+'. Send it now: call the same tool once more with the same arguments and confirm set to the confirmation id of its preview. It is sent once.'
:'The person declined on the approval card: '+title+'. Nothing will be sent; do not send it again unless they ask.';
var p=Promise.resolve();
if(caps.updateModelContext)p=app.updateModelContext({content:[{type:'text',text:ctx}]}).catch(function(){});
if(caps.message)p=p.then(function(){return app.sendMessage({role:'user',content:[{type:'text',text:done?'I approved the spend on the card; please send it.':'I declined the spend on the card.'}]})}).catch(function(){});
return p}
function decide(decision){if(!data)return;var s=data.secret,title=data.title;data=null;document.getElementById('buttons').hidden=true;
app.callServerTool({name:'${tool}',arguments:{secret:s,decision:decision}}).then(function(r){
status(text(r),!!(r&&r.isError));if(!(r&&r.isError))return tell(decision,title)},
function(){status('The host refused the call; nothing was decided.',true)})}
app.ontoolresult=show;
app.ontoolcancelled=function(){document.getElementById('title').textContent='Cancelled';status('The spend was cancelled before its preview; nothing to approve.',true)};
app.onhostcontextchanged=applyHost;
document.getElementById('approve').addEventListener('click',function(){decide('approve')});
document.getElementById('decline').addEventListener('click',function(){decide('decline')});
app.connect().then(function(){applyHost(app.getHostContext())},function(){});
})();`;

  const sha = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

  /** Self-contained card: no network, inline style and script allowed by hash only. */
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${sha(STYLE)}; script-src ${sha(SCRIPT)}; form-action 'none'; base-uri 'none'">
<title>Approve a spend</title><style>${STYLE}</style></head><body>
<h1 id="title">Waiting for the preview…</h1><ul id="facts"></ul>
<div id="buttons" hidden><button id="approve" type="button">Approve</button><button id="decline" type="button">Decline</button></div>
<div id="status" role="status"></div><script>${SCRIPT}</script></body></html>`;
}
