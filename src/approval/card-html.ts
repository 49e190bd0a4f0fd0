import { createHash } from 'node:crypto';
import { APP_CLASS } from '../core/app-class.js';
import { THEME_SCRIPT, THEME_STYLE } from '../core/app-theme.js';

/** The approval card's HTML, for the result `_meta` key of its data and its app-only tool (card.ts loads this module on the first read). */
export function buildCardHtml(metaKey: string, tool: string): string {
  const STYLE = `${THEME_STYLE}
body{font-size:14px;margin:12px}h1{font-size:16px;margin:0 0 8px;overflow-wrap:anywhere}ul{padding-left:18px;margin:4px 0}
li{margin:2px 0;white-space:pre-wrap;overflow-wrap:anywhere}#head{list-style:none;padding:0}#head li{font-size:16px;margin:4px 0}#head li.total{font-weight:700}
#head li.warn{color:var(--warn);font-weight:600;border-left:3px solid var(--warn);padding-left:6px}#expires{color:var(--muted);margin:6px 0}
details{margin:6px 0 10px}summary{cursor:pointer;color:var(--muted)}p{margin:4px 0;overflow-wrap:anywhere}a{color:inherit;overflow-wrap:anywhere;word-break:break-all}
button{font:inherit;padding:6px 14px;margin-right:8px}
button:focus-visible,a:focus-visible,summary:focus-visible{outline:3px solid var(--muted);outline-offset:1px}#status{margin-top:8px;font-weight:600;overflow-wrap:anywhere}.error{color:var(--warn)}`;

  // The ext-apps App class speaks the MCP Apps protocol with the host: the card learns the tool
  // result, renders the facts with textContent only (never HTML), and calls the app-only tool.
  // After a decision it tells the model, where the host takes them: the context for its next
  // turn (ui/update-model-context) and a short user message that starts that turn (ui/message);
  // neither holds the secret.
  // The head (intents, the total, warnings) leads, large; every other line is folded in a
  // <details>. The expiry is shown in the viewer's own clock, computed here from the ISO time.
  // A locked key's preview carries no approval: the card says so and links the unlock page (the
  // host opens it where it can). Without ui/update-model-context and ui/message the assistant
  // learns nothing from the card, so the card asks the person to tell it to continue.
  const SCRIPT = `(function(){${APP_CLASS}
${THEME_SCRIPT}
var app=new McpApps.App({name:'chain-mcp approval card',version:'1'},{availableDisplayModes:['inline']}),data=null;
app.onteardown=function(){return {}};
function el(t,x,c){var e=document.createElement(t);if(x!==undefined&&x!==null)e.textContent=x;if(c)e.className=c;return e}
function text(r){return (r&&r.content||[]).map(function(c){return c.text||''}).join(' ')}
function status(t,bad){var s=document.getElementById('status');s.textContent=t;s.className=bad?'error':''}
function title(t){document.getElementById('title').textContent=t}
var WARN=/^(NOT your address:|Lock:|Shared:|Contract call:)/;
function expiry(iso){var d=new Date(iso),ms=d.getTime()-Date.now();if(isNaN(ms))return 'Valid until '+iso;
var m=Math.round(ms/60000),at=d.toLocaleTimeString([],{hour:'2-digit',minute:'2-digit'});
return ms<=0?'Expired at '+at:'Expires '+at+' ('+(m<1?'in under a minute':'in '+m+' min')+')'}
function facts(lines,n){var box=document.getElementById('facts');box.textContent='';var head=el('ul',null,'head');head.id='head';
lines.slice(0,n).forEach(function(l){head.appendChild(el('li',l,/^Total leaving your key: /.test(l)?'total':WARN.test(l)?'warn':''))});box.appendChild(head);
var rest=lines.slice(n);if(!rest.length)return;var det=el('details');det.id='more';det.appendChild(el('summary','Show every input, output and hash'));
var ul=el('ul');ul.id='details';rest.forEach(function(l){ul.appendChild(el('li',l))});det.appendChild(ul);box.appendChild(det)}
function openLink(url,ev){var caps=app.getHostCapabilities()||{};if(!caps.openLinks)return;ev.preventDefault();
app.openLink({url:url}).then(function(r){if(r&&r.isError)status('The host did not open the link; copy it into a browser on this computer.',true)},function(){status('The host did not open the link; copy it into a browser on this computer.',true)})}
function locked(s){title('Your signing key is locked');var box=document.getElementById('facts');box.textContent='';
box.appendChild(el('p','Nothing was signed or sent. To approve spends, unlock the key first:'));
if(s.unlockUrl){var p=el('p','Open ');var a=el('a',s.unlockUrl);a.id='unlock';a.setAttribute('href',s.unlockUrl);a.target='_blank';a.rel='noopener noreferrer';
a.addEventListener('click',function(ev){openLink(s.unlockUrl,ev)});p.appendChild(a);p.appendChild(document.createTextNode(' in a browser on this computer and type the passphrase there (never in the chat).'));box.appendChild(p)}
else box.appendChild(el('p','Open the unlock page: chain-mcp writes its address in its log (the terminal it runs in, or the log your assistant app keeps for this server), and your assistant app may offer to open it. Type the passphrase there, never in the chat.'));
box.appendChild(el('p','Then tell the assistant to continue: it asks again for a preview you can approve.'))}
function show(r){var d=r&&r._meta&&r._meta['${metaKey}'],s=r&&r.structuredContent;
if(!d&&s&&s.status==='preview'&&s.keyLocked){locked(s);return}
if(!d){title(r&&r.isError?'Nothing to approve':'No approval on this card');status(text(r)||'The preview holds no approval.',!!(r&&r.isError));return}data=d;
title('Approve: '+d.title+'?');var lines=d.lines||[];facts(lines,typeof d.headLines==='number'?d.headLines:Math.min(3,lines.length));
var ex=document.getElementById('expires');ex.textContent=expiry(d.expiresAt);ex.hidden=false;
document.getElementById('buttons').hidden=false}
function tell(decision,title){var caps=app.getHostCapabilities()||{},done=decision==='approve';
var ctx=done?'The person approved on the approval card: '+title+'. Send it now: call the same tool once more with the same arguments and confirm set to the confirmation id of its preview. It is sent once.'
:'The person declined on the approval card: '+title+'. Nothing will be sent; do not send it again unless they ask.';
if(!caps.updateModelContext&&!caps.message){status(done?'Approved. Now tell the assistant to continue: it sends this exact transaction once.':'Declined; nothing will be sent. You may tell the assistant.',false);return Promise.resolve()}
var p=Promise.resolve();
if(caps.updateModelContext)p=app.updateModelContext({content:[{type:'text',text:ctx}]}).catch(function(){});
if(caps.message)p=p.then(function(){return app.sendMessage({role:'user',content:[{type:'text',text:done?'I approved the spend on the card; please send it.':'I declined the spend on the card.'}]})}).catch(function(){});
return p}
function decide(decision){if(!data)return;var s=data.secret,title=data.title;data=null;document.getElementById('buttons').hidden=true;
app.callServerTool({name:'${tool}',arguments:{secret:s,decision:decision}}).then(function(r){
status(text(r),!!(r&&r.isError));if(!(r&&r.isError))return tell(decision,title)},
function(){status('The host refused the call; nothing was decided.',true)})}
app.ontoolresult=show;
app.ontoolcancelled=function(){title('Cancelled');status('The spend was cancelled before its preview; nothing to approve.',true)};
app.onhostcontextchanged=applyHost;
document.getElementById('approve').addEventListener('click',function(){decide('approve')});
document.getElementById('decline').addEventListener('click',function(){decide('decline')});
app.connect().then(function(){applyHost(app.getHostContext())},function(){});
})();`;

  const sha = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

  /** Self-contained card: no network, inline style and script allowed by hash only. */
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${sha(STYLE)}; script-src ${sha(SCRIPT)}; form-action 'none'; base-uri 'none'">
<title>Approve a spend</title><style>${STYLE}</style></head><body>
<h1 id="title">Waiting for the preview…</h1><div id="facts"></div><p id="expires" hidden></p>
<div id="buttons" hidden><button id="approve" type="button">Approve</button><button id="decline" type="button">Decline</button></div>
<div id="status" role="status"></div><script>${SCRIPT}</script></body></html>`;
}
