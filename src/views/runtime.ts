import { APP_CLASS } from '../core/app-class.js';
import { THEME_SCRIPT, THEME_STYLE } from '../core/app-theme.js';

/**
 * Browser-side code shared by every view, as a string (it runs inside the host's sandboxed
 * iframe, not in Node). The ext-apps App class speaks the MCP Apps protocol (initialize, the
 * tool result, host context, tools/call); this adds `start(render)`, `callTool` and a few helpers.
 * Views render with textContent only, never HTML, so chain data stays text. An `isError` result,
 * a result without structured data and a cancelled call each end the wait with words.
 */
export const RUNTIME = `${APP_CLASS}
${THEME_SCRIPT}
var app=new McpApps.App({name:'chain-mcp view',version:'1'},{availableDisplayModes:['inline']});
// The host asks before it removes the view: nothing to save, so a plain yes.
app.onteardown=function(){return {}};
function callTool(name,args){return app.callServerTool({name:name,arguments:args})}
function el(tag,text,cls){var e=document.createElement(tag);if(text!==undefined&&text!==null)e.textContent=String(text);if(cls)e.className=cls;return e}
function clear(n){while(n.firstChild)n.removeChild(n.firstChild);return n}
function textOf(r){return (r&&r.content||[]).map(function(c){return c&&c.text||''}).join(' ').trim()}
function showError(root,title,detail){clear(root);var box=el('div',null,'error');box.setAttribute('role','alert');box.appendChild(el('h1',title));if(detail)box.appendChild(el('p',detail));root.appendChild(box)}
function shortId(id){id=String(id||'');return id.length>20?id.slice(0,12)+'…'+id.slice(-4):id}
function copyable(id,label){var wrap=el('span',null,'copyable');var s=el('span',shortId(id),'short-id');s.title=id;wrap.appendChild(s);
var b=el('button','Copy','copy');b.type='button';b.setAttribute('aria-label','Copy the whole '+(label||'ID')+' '+id);
b.addEventListener('click',function(e){e.stopPropagation();var f=wrap.querySelector('input');if(!f){f=el('input',null,'full-id');f.readOnly=true;f.value=id;f.setAttribute('aria-label','Whole '+(label||'ID'));wrap.appendChild(f)}f.select();
var done=function(ok){b.textContent=ok?'Copied':'Select and copy'};try{navigator.clipboard.writeText(id).then(function(){done(true)},function(){done(false)})}catch(x){done(false)}});
wrap.appendChild(b);return wrap}
function start(render){
app.ontoolresult=function(r){var root=document.getElementById('app');
if(r&&r.isError){showError(root,'The tool returned an error',textOf(r)||'No details were given.');return}
var s=r&&r.structuredContent;if(s){render(s,root);return}
showError(root,'Nothing to draw',textOf(r)||'The result held no data.')};
app.ontoolcancelled=function(p){showError(document.getElementById('app'),'The call was cancelled',p&&p.reason?String(p.reason):'')};
app.onhostcontextchanged=applyHost;
app.connect().then(function(){applyHost(app.getHostContext())},function(){})}`;

/** Light and dark from the host (data-theme, its CSS variables) or the system; readable from 360 px; visible focus. */
export const BASE_STYLE = `${THEME_STYLE}
:root{--a:#1f6feb;--b:#8250df;--c:#1a7f37;--d:#bf8700}
body{margin:0;padding:12px;font-size:14px;line-height:1.45;min-width:0}
h1{font-size:16px;margin:0 0 8px;overflow-wrap:anywhere}h2{font-size:14px;margin:14px 0 6px;overflow-wrap:anywhere}.muted{color:var(--muted);font-size:12px}
.lead{font-size:15px;font-weight:600;margin:0 0 10px}
table{border-collapse:collapse;width:100%;table-layout:fixed}td,th{overflow-wrap:anywhere}th,td{text-align:left;padding:4px 6px;border-bottom:1px solid var(--line);vertical-align:top}
th button{font:inherit;font-weight:600;background:none;border:0;color:inherit;cursor:pointer;padding:0;text-align:left;overflow-wrap:anywhere}
button:focus-visible,input:focus-visible,tr:focus-visible{outline:3px solid var(--d);outline-offset:1px}
.bar{display:flex;height:12px;border-radius:6px;overflow:hidden;background:var(--line);margin:4px 0}.bar span{display:block;height:100%}
.warn,.error{color:var(--warn);font-weight:600}.ok{color:var(--ok);font-weight:600}.num{font-variant-numeric:tabular-nums}
.copyable{display:inline-flex;flex-wrap:wrap;gap:4px;align-items:baseline;max-width:100%}.copy{font:inherit;font-size:11px;padding:0 4px}
.full-id{font:inherit;font-size:11px;width:100%;min-width:0;box-sizing:border-box}
@media (max-width:420px){body{padding:8px}td,th{padding:3px}.hide-narrow{display:none}}`;
