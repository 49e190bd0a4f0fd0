import { createHash } from 'node:crypto';

/**
 * MCP Apps views: one self-contained HTML file per picture, fed from a tool's structuredContent.
 * No network and no CDN (everything is inline, allowed by hash in a strict CSP). The text content
 * of every tool stays complete for hosts without MCP Apps; a view only adds a picture.
 */
export interface View {
  uri: string;
  title: string;
  /** The tools whose results this view draws. */
  tools: readonly string[];
  /** Browser code: `render(structuredContent, root)`. */
  script: string;
  style?: string;
}

const PORTFOLIO = `function render(s,root){clear(root);root.appendChild(el('h1','Portfolio'));
var kinds=[['unlocked','var(--c)'],['bonded','var(--a)'],['deposited','var(--b)'],['bondedDeposited','var(--d)']];
var n=function(a){return a&&a.value?Number(a.value):0};
(s.accounts||[]).forEach(function(acc){var sec=el('section');sec.appendChild(el('h2',acc.address));
if(acc.p){var tot=n(acc.p.total);var row=el('div');row.appendChild(el('div','P-Chain: '+acc.p.total.display,'num'));var bar=el('div',null,'bar');bar.setAttribute('role','img');
var label=[];kinds.forEach(function(k){var v=n(acc.p[k[0]]);if(v>0&&tot>0){var sp=el('span');sp.style.width=(100*v/tot)+'%';sp.style.background=k[1];bar.appendChild(sp)}label.push(k[0]+' '+acc.p[k[0]].display)});
bar.setAttribute('aria-label',label.join(', '));row.appendChild(bar);var legend=el('div',label.join(' · '),'muted p-parts');row.appendChild(legend);sec.appendChild(row)}
var nat=[],other=[];(acc.x||[]).forEach(function(l){(/NOT the native/.test(l.amount.display)||/"/.test(l.amount.display)?other:nat).push(l)});
if(nat.length){sec.appendChild(el('div','X-Chain: '+nat.map(function(l){return l.amount.display}).join(', '),'num x-native'))}
(acc.waiting||[]).forEach(function(w){sec.appendChild(el('div','Waiting for import on '+w.on+' (from '+w.from+'): '+w.amount.display,'num waiting'))});
if(other.length){sec.appendChild(el('h2','Other assets (not the native asset)'));var ul=el('ul');other.forEach(function(l){var li=el('li',l.amount.display,/NOT the native/.test(l.amount.display)?'warn':'');ul.appendChild(li)});sec.appendChild(ul)}
root.appendChild(sec)});
(s.evm||[]).forEach(function(e){root.appendChild(el('div','C-Chain '+e.address+': '+e.balance.display,'num'))});
if(s.nativeTotal)root.appendChild(el('h2','Native total: '+s.nativeTotal.display,'native-total'))}
start(render);`;

const VALIDATORS = `var rows=[],sortKey='endTime',desc=false;
function norm(s){if(s.validators)return s.validators;if(s.nodeID&&s.status!=='not_found')return [s];return []}
function render(s,root){rows=norm(s);draw(root)}
function draw(root){clear(root);root.appendChild(el('h1',rows.length+' validator(s)'));
var now=Date.now()/1000,min=Infinity,max=-Infinity;rows.forEach(function(v){if(v.startTime){min=Math.min(min,+v.startTime.unix)}if(v.endTime){max=Math.max(max,+v.endTime.unix)}});
var t=el('table');var head=el('tr');[['nodeID','Node'],['endTime','Staking period (now marked)'],['uptime','Uptime %'],['delegationFee','Fee %']].forEach(function(c){var th=el('th');var b=el('button',c[1]+(sortKey===c[0]?(desc?' ↓':' ↑'):''));b.addEventListener('click',function(){desc=sortKey===c[0]?!desc:false;sortKey=c[0];draw(root)});th.appendChild(b);if(c[0]==='endTime')th.className='hide-narrow';head.appendChild(th)});t.appendChild(head);
var key=function(v){var x=v[sortKey];return x&&x.unix?+x.unix:isNaN(+x)?String(x||''):+x};
rows.slice().sort(function(a,b){var x=key(a),y=key(b);return (x>y?1:x<y?-1:0)*(desc?-1:1)}).forEach(function(v){var tr=el('tr');tr.tabIndex=0;if(v.connected===false)tr.className='warn';
tr.appendChild(el('td',v.nodeID+(v.connected===false?' (not connected)':'')));
var tdp=el('td',null,'hide-narrow');if(v.startTime&&v.endTime&&max>min){var bar=el('div',null,'bar');var s0=(+v.startTime.unix-min)/(max-min)*100,w=(+v.endTime.unix-+v.startTime.unix)/(max-min)*100;var pad=el('span');pad.style.width=s0+'%';pad.style.background='transparent';bar.appendChild(pad);var sp=el('span');sp.style.width=w+'%';sp.style.background='var(--a)';bar.appendChild(sp);tdp.appendChild(bar);
var nowAt=Math.max(0,Math.min(100,(now-min)/(max-min)*100));var mark=el('i',null,'now-mark');mark.style.left=nowAt+'%';mark.title='now';bar.appendChild(mark);tdp.appendChild(el('div',v.startTime.iso.slice(0,10)+' → '+v.endTime.iso.slice(0,10)+' (red line: now)','muted'))}tr.appendChild(tdp);
tr.appendChild(el('td',v.uptime===undefined?'—':v.uptime,'num'));tr.appendChild(el('td',v.delegationFee===undefined?'—':v.delegationFee,'num'));
var ask=function(){callTool('validator_lookup',{nodeID:v.nodeID}).then(function(r){var out=document.getElementById('lookup');out.textContent=(r&&r.content||[]).map(function(c){return c.text||''}).join(' ')},function(){})};
tr.addEventListener('click',ask);tr.addEventListener('keydown',function(e){if(e.key==='Enter')ask()});t.appendChild(tr)});
root.appendChild(t);root.appendChild(el('div','Not-connected validators are marked. Click a row (or Enter) to look one up.','muted'));var out=el('div','','muted');out.id='lookup';root.appendChild(out)}
start(render);`;

const DEPOSITS = `var SECONDS_PER_YEAR=31536000n;
function render(s,root){clear(root);var offers=s.depositOffers||[];root.appendChild(el('h1',offers.length+' deposit offer(s)'));
var form=el('div');var amt=el('input');amt.id='amount';amt.type='text';amt.inputMode='decimal';amt.value='100';amt.setAttribute('aria-label','Amount in display units');
var days=el('input');days.id='days';days.type='number';days.value='365';days.min='1';days.setAttribute('aria-label','Duration in days');
form.appendChild(el('label','Amount ')).appendChild(amt);form.appendChild(el('label',' for days ')).appendChild(days);root.appendChild(form);
root.appendChild(el('div','reward = amount × interestRateNominator / 1,000,000 × seconds / 31,536,000 (exact integers, smallest units, 9 decimals)','muted formula'));
var t=el('table');var head=el('tr');['Offer','Rate','Duration window','Minimum','Reward'].forEach(function(h){head.appendChild(el('th',h))});t.appendChild(head);
var cells=[];offers.forEach(function(o){var tr=el('tr');tr.appendChild(el('td',o.memo?'"'+o.memo+'"':o.id.slice(0,8)+'…'));tr.appendChild(el('td',o.interestRatePercent+' %','num'));
tr.appendChild(el('td',o.minDuration.human+' – '+o.maxDuration.human));tr.appendChild(el('td',o.minAmount.display,'num'));var r=el('td','','num reward');tr.appendChild(r);cells.push([o,r]);t.appendChild(tr)});
root.appendChild(t);
function units(text){var m=/^\\s*(\\d+)(?:\\.(\\d{0,9}))?\\s*$/.exec(text);if(!m)return null;return BigInt(m[1])*1000000000n+BigInt((m[2]||'').padEnd(9,'0')||'0')}
function show(v){var w=v/1000000000n,f=(v%1000000000n).toString().padStart(9,'0').replace(/0+$/,'');return w.toLocaleString('en-US')+(f?'.'+f:'')}
function update(){var a=units(amt.value),d=Number(days.value);cells.forEach(function(c){var o=c[0];var secs=BigInt(Math.max(0,Math.floor(d))*86400);
if(a===null||!(d>0)){c[1].textContent='—';return}var inside=secs>=BigInt(o.minDuration.seconds)&&secs<=BigInt(o.maxDuration.seconds)&&a>=BigInt(o.minAmount.value);
var reward=a*BigInt(o.interestRateNominator)*secs/(1000000n*SECONDS_PER_YEAR);c[1].textContent=show(reward)+(inside?'':' (outside this offer\\'s limits)')})}
amt.addEventListener('input',update);days.addEventListener('input',update);update()}
start(render);`;

const TRANSACTION = `function render(s,root){clear(root);root.appendChild(el('h1','Transaction '+(s.txID||'')));
var steps=['Issued','Processing','Accepted'];var st=s.status||'Unknown';var at=st==='Accepted'||st==='Committed'?2:st==='Processing'?1:st==='Unknown'?-1:0;
var ol=el('ol');steps.forEach(function(name,i){var li=el('li',name+(i===at?' ← now':''));if(i===at)li.className='now';ol.appendChild(li)});
if(st==='Rejected'||st==='Dropped'||st==='Aborted'){var li=el('li',st,'warn now');ol.appendChild(li)}
root.appendChild(ol);root.appendChild(el('div','Status: '+st+(s.chain?' on '+s.chain+'-Chain':'')+(s.blockHeight?', block '+s.blockHeight:''),'status'));
if(s.meaning)root.appendChild(el('div',s.meaning,'muted'));(s.checks||[]).forEach(function(c){root.appendChild(el('div',c.source+': '+c.answer,'muted'))})}
start(render);`;

export const VIEWS: readonly View[] = [
  { uri: 'ui://chain-mcp/portfolio.html', title: 'Portfolio', tools: ['account_overview'], script: PORTFOLIO },
  {
    uri: 'ui://chain-mcp/validators.html',
    title: 'Validators',
    tools: ['platform_getCurrentValidators', 'validator_lookup'],
    script: VALIDATORS,
    style: '.bar{position:relative}.now-mark{position:absolute;top:-3px;bottom:-3px;width:2px;background:var(--warn)}',
  },
  { uri: 'ui://chain-mcp/deposit-offers.html', title: 'Deposit offers', tools: ['platform_getAllDepositOffers'], script: DEPOSITS },
  { uri: 'ui://chain-mcp/transaction.html', title: 'Transaction status', tools: ['tx_status', 'wait_for_tx'], script: TRANSACTION },
];

const sha = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

const built = new Map<string, Promise<string>>();

/**
 * The view as one HTML file: inline style and script allowed by hash only, nothing else loads.
 * Built on the first read and kept: the script inlines the ext-apps App class (~260 KB), which
 * stays off the start path (runtime.ts is loaded here, not at import).
 */
export function viewHtml(view: View): Promise<string> {
  let html = built.get(view.uri);
  if (html === undefined) {
    html = import('./runtime.js').then(({ BASE_STYLE, RUNTIME }) => {
      const style = BASE_STYLE + (view.style ?? '');
      const script = `(function(){${RUNTIME}\n${view.script}})();`;
      const csp = `default-src 'none'; style-src ${sha(style)}; script-src ${sha(script)}; img-src 'none'; connect-src 'none'; form-action 'none'; base-uri 'none'`;
      return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta http-equiv="Content-Security-Policy" content="${csp}"><title>${view.title}</title><style>${style}</style></head><body><main id="app" aria-live="polite">Waiting for the result…</main><script>${script}</script></body></html>`;
    });
    built.set(view.uri, html);
  }
  return html;
}

/** Which view, if any, draws a tool's result. */
export function viewFor(toolName: string): View | undefined {
  return VIEWS.find((v) => v.tools.includes(toolName));
}
