import { createHash } from 'node:crypto';

/**
 * MCP Apps views: one self-contained HTML file per picture, fed from a tool's structuredContent.
 * No network and no CDN (everything is inline, allowed by hash in a strict CSP). The text content
 * of every tool stays complete for hosts without MCP Apps; a view only adds a picture.
 */
export interface View {
  uri: string;
  /** The resource's name: one word, no spaces. */
  name: string;
  title: string;
  /** What the view shows, for a host's resource list. */
  description: string;
  /** The tools whose results this view draws. */
  tools: readonly string[];
  /** Browser code: `render(structuredContent, root)`. */
  script: string;
  style?: string;
  /** It offers to copy a whole ID: its resource asks the host for clipboard-write. */
  copies?: boolean;
}

const PORTFOLIO = `var KINDS=[['unlocked','var(--c)','green','Free to spend'],['bonded','var(--a)','blue','Staked'],['deposited','var(--b)','purple','Deposited, earning interest'],['bondedDeposited','var(--d)','amber','Staked and deposited']];
function big(a){try{return a&&a.value?BigInt(a.value):0n}catch(e){return 0n}}
function pct(v,t){return t>0n?Number(v*10000n/t)/100:0}
function days(unix){var d=Math.round((unix-Date.now()/1000)/86400);return d<1?'today':d===1?'in 1 day':'in '+d+' days'}
function lead(s,root){var accs=s.accounts||[],many=accs.length>1,claims=[],known=false,next=null,unknown=false,now=Date.now()/1000;
accs.forEach(function(acc){if(acc.claimable){known=true;if(big(acc.claimable.total)>0n)claims.push(acc.claimable.total.display+(many?' ('+acc.address+')':''))}
if(acc.lockTimesUnknown)unknown=true;(acc.locks||[]).forEach(function(l){if(l.until&&+l.until.unix>now&&(!next||+l.until.unix<+next.until.unix))next=l})});
if(known)root.appendChild(el('p',claims.length?'Claimable now: '+claims.join('; '):'Nothing to claim now.','lead claimable'));
if(next)root.appendChild(el('p','Next unlock: '+next.amount.display+' ('+next.reason+') on '+next.until.iso.slice(0,10)+', '+days(+next.until.unix),'lead next-unlock'));
else if(unknown)root.appendChild(el('p','This node cannot say when the locked amounts unlock (it lacks Camino\\'s deposit and bond reads).','muted next-unlock'))}
function render(s,root){clear(root);root.appendChild(el('h1','Portfolio'));lead(s,root);
if(s.nativeTotal)root.appendChild(el('p','Native total: '+s.nativeTotal.display,'lead num native-total'));
(s.accounts||[]).forEach(function(acc){var sec=el('section');sec.appendChild(el('h2',acc.address));
var nat=[],other=[];(acc.x||[]).forEach(function(l){(l.native===true?nat:other).push(l)});
if(nat.length)sec.appendChild(el('div','X-Chain: '+nat.map(function(l){return l.amount.display}).join(', '),'num x-native'));
if(acc.p){var tot=big(acc.p.total);sec.appendChild(el('div','P-Chain: '+acc.p.total.display,'num'));
var bar=el('div',null,'bar');bar.setAttribute('role','img');var key=el('ul',null,'key p-parts');var words=[];
KINDS.forEach(function(k){var part=acc.p[k[0]];var v=big(part);if(v===0n)return;var sp=el('span');sp.style.width=pct(v,tot)+'%';sp.style.background=k[1];bar.appendChild(sp);
var li=el('li');var sw=el('i',null,'swatch');sw.style.background=k[1];li.appendChild(sw);li.appendChild(document.createTextNode(k[3]+' ('+k[2]+'): '+part.display));key.appendChild(li);words.push(k[3]+' '+part.display)});
bar.setAttribute('aria-label','P-Chain: '+words.join(', '));sec.appendChild(bar);sec.appendChild(key)}
(acc.waiting||[]).forEach(function(w){sec.appendChild(el('div','Waiting for import on the '+w.on+'-Chain (sent from the '+w.from+'-Chain): '+w.amount.display,'num waiting'))});
if(other.length){sec.appendChild(el('h2','Other assets (not the native asset)'));var ul=el('ul');other.forEach(function(l){ul.appendChild(el('li',l.amount.display,/NOT the native/.test(l.amount.display)?'warn':''))});sec.appendChild(ul)}
root.appendChild(sec)});
(s.evm||[]).forEach(function(e){root.appendChild(el('div','C-Chain '+e.address+': '+e.balance.display,'num'))});
(s.notRead||[]).forEach(function(n){root.appendChild(el('div',n,'muted'))});(s.problems||[]).forEach(function(p){root.appendChild(el('div','Not read: '+p.step+': '+p.error,'warn'))})}
start(render);`;

const VALIDATORS = `var rows=[],sortKey='stake',desc=true,opened=null,openedText='',openedBad=false,info=null;
function norm(s){var list=s.validators?s.validators:(s.nodeID&&s.status!=='not_found'?[s]:[]);
return list.map(function(v){var d=v.delegators&&!Array.isArray(v.delegators)?v.delegators:null;
return {v:v,nodeID:v.nodeID,stake:v.stakeAmount,count:v.delegatorCount!==undefined?v.delegatorCount:d?d.count:undefined,delegated:v.delegatedStake||(d?d.stake:undefined)}})}
function big(a){try{return a&&a.value!==undefined?BigInt(a.value):null}catch(e){return null}}
var KEYS={nodeID:function(r){return r.nodeID},stake:function(r){return big(r.stake)},delegators:function(r){return r.count===undefined?null:r.count},
uptime:function(r){return r.v.uptime===undefined?null:Number(r.v.uptime)},fee:function(r){return r.v.delegationFee===undefined?null:Number(r.v.delegationFee)},
endTime:function(r){return r.v.endTime?Number(r.v.endTime.unix):null}};
function render(s,root){rows=norm(s);info=s;draw(root)}
function lookup(root,r){opened=r.nodeID;openedText='Looking up '+r.nodeID+'…';openedBad=false;draw(root);
callTool('validator_lookup',{nodeID:r.nodeID}).then(function(res){if(opened!==r.nodeID)return;openedText=textOf(res);openedBad=!!(res&&res.isError);draw(root)},
function(){if(opened!==r.nodeID)return;openedText='The host refused the lookup.';openedBad=true;draw(root)})}
function draw(root){clear(root);var st=info&&info.stats;
if(info&&!info.validators&&info.status==='not_found'){root.appendChild(el('h1','This node is not a validator'));
root.appendChild(el('p',(info.nodeID||'This node')+' is neither a current nor a pending validator on this network.','lead'));return}
var connected=rows.filter(function(r){return r.v.connected!==false}).length;
root.appendChild(el('h1',rows.length+' validator'+(rows.length===1?'':'s')+(rows.length>1?' ('+connected+' connected)':'')+(info&&info.status&&!info.validators?', '+info.status:'')));
if(rows.length===1){var one=rows[0].v,parts=[];if(rows[0].stake)parts.push('Stake '+rows[0].stake.display);if(one.uptime!==undefined)parts.push('uptime '+one.uptime+' %');
if(one.endTime){var days=Math.round((+one.endTime.unix-Date.now()/1000)/86400);parts.push('ends '+new Date(+one.endTime.unix*1000).toLocaleDateString()+(days>0?' (in '+days+' day'+(days===1?'':'s')+')':days===0?' (today)':' (ended)'))}
if(parts.length)root.appendChild(el('p',parts.join(' · '),'lead num single'))}
else if(st&&st.totalStake)root.appendChild(el('p','Own stake '+st.totalStake.display+'; '+st.delegatorCount+' delegator(s) add '+(st.totalDelegated?st.totalDelegated.display:'—')+'.','lead num'));
var now=Date.now()/1000,min=Infinity,max=-Infinity;rows.forEach(function(r){if(r.v.startTime)min=Math.min(min,+r.v.startTime.unix);if(r.v.endTime)max=Math.max(max,+r.v.endTime.unix)});
var cols=[['nodeID','Node','24%'],['stake','Own stake','16%'],['delegators','Delegators','18%'],['uptime','Uptime %','11%'],['fee','Fee %','9%'],['endTime','Staking period','22%']];
var t=el('table');var cg=el('colgroup');cols.forEach(function(c){var col=el('col');col.style.width=c[2];if(c[0]==='endTime')col.className='hide-narrow';cg.appendChild(col)});t.appendChild(cg);
var head=el('tr');cols.forEach(function(c){var th=el('th');var b=el('button',c[1]+(sortKey===c[0]?(desc?' ↓':' ↑'):''));b.type='button';b.setAttribute('aria-label','Sort by '+c[1]);
b.addEventListener('click',function(){desc=sortKey===c[0]?!desc:c[0]!=='nodeID'&&c[0]!=='endTime';sortKey=c[0];draw(root)});th.appendChild(b);if(c[0]==='endTime')th.className='hide-narrow';head.appendChild(th)});t.appendChild(head);
var key=KEYS[sortKey];rows.slice().sort(function(a,b){var x=key(a),y=key(b);if(x===null&&y===null)return 0;if(x===null)return 1;if(y===null)return -1;return (x>y?1:x<y?-1:0)*(desc?-1:1)}).forEach(function(r){var v=r.v;
var tr=el('tr');tr.tabIndex=0;tr.setAttribute('data-node',r.nodeID);tr.setAttribute('aria-expanded',String(opened===r.nodeID));if(v.connected===false)tr.className='warn';
var td=el('td');td.appendChild(copyable(r.nodeID,'node ID'));if(v.connected===false)td.appendChild(el('div','not connected'));tr.appendChild(td);
tr.appendChild(el('td',r.stake?r.stake.display:(v.weight?'weight '+v.weight:'—'),'num'));
tr.appendChild(el('td',r.count===undefined?'not reported':r.count===0?'none':r.count+(r.delegated?', adding '+r.delegated.display:''),'num'));
tr.appendChild(el('td',v.uptime===undefined?'—':v.uptime,'num'));tr.appendChild(el('td',v.delegationFee===undefined?'—':v.delegationFee,'num'));
var tdp=el('td',null,'hide-narrow');if(v.startTime&&v.endTime&&max>min){var bar=el('div',null,'bar');var s0=(+v.startTime.unix-min)/(max-min)*100,w=(+v.endTime.unix-+v.startTime.unix)/(max-min)*100;var pad=el('span');pad.style.width=s0+'%';pad.style.background='transparent';bar.appendChild(pad);var sp=el('span');sp.style.width=w+'%';sp.style.background='var(--a)';bar.appendChild(sp);
var nowAt=Math.max(0,Math.min(100,(now-min)/(max-min)*100));var mark=el('i',null,'now-mark');mark.style.left=nowAt+'%';mark.title='now';bar.appendChild(mark);tdp.appendChild(bar)}
if(v.endTime)tdp.appendChild(el('div','ends '+v.endTime.iso.slice(0,10),'muted'));tr.appendChild(tdp);
tr.addEventListener('click',function(){lookup(root,r)});tr.addEventListener('keydown',function(e){if(e.key==='Enter')lookup(root,r)});t.appendChild(tr);
if(opened===r.nodeID){var dr=el('tr',null,'detail');var dc=el('td',openedText,openedBad?'error':'');dc.id='lookup';dc.colSpan=cols.length;dc.setAttribute('role','status');dr.appendChild(dc);t.appendChild(dr)}});
root.appendChild(t);root.appendChild(el('div','Click a row (or press Enter) to look a validator up; sorting keeps it open. Not-connected validators are marked; the red line in a staking period is now.','muted'))}
start(render);`;

const DEPOSITS = `var SECONDS_PER_YEAR=31536000n;
function why(o,now){var w=[],flags=0n;try{flags=BigInt(o.flags||'0')}catch(e){}
if(flags&1n)w.push('locked: takes no new deposits');
if(now<BigInt(o.start.unix))w.push('opens '+o.start.iso.slice(0,10));
if(now>BigInt(o.end.unix))w.push('ended '+o.end.iso.slice(0,10));
if(!w.length&&o.open===false)w.push((o.notOpen||[]).join('; ')||'not open');return w}
function render(s,root){clear(root);var now=BigInt(s.timestamp&&s.timestamp.unix||Math.floor(Date.now()/1000));
var offers=(s.depositOffers||[]).map(function(o){return {o:o,why:why(o,now)}});
offers.sort(function(a,b){if(!a.why.length!==!b.why.length)return a.why.length?1:-1;var x=BigInt(a.o.interestRateNominator),y=BigInt(b.o.interestRateNominator);return x>y?-1:x<y?1:0});
var usable=offers.filter(function(x){return !x.why.length}).length;
root.appendChild(el('h1','Deposit offers'));
root.appendChild(el('p',usable+' of '+offers.length+' offer'+(offers.length===1?'':'s')+(usable===1?' takes':' take')+' deposits now.','lead open-count'));
var form=el('div');var amt=el('input');amt.id='amount';amt.type='text';amt.inputMode='decimal';amt.value='100';amt.size=10;amt.setAttribute('aria-label','Amount to deposit');
var days=el('input');days.id='days';days.type='number';days.value='365';days.min='1';days.style.width='6em';days.setAttribute('aria-label','Days to deposit for');
form.appendChild(el('label','Amount ')).appendChild(amt);form.appendChild(el('label',' for days ')).appendChild(days);root.appendChild(form);
root.appendChild(el('div','Reward = amount × yearly rate × (days − days without reward) ÷ 365, exact to the smallest unit.','muted formula'));
var t=el('table');var cg=el('colgroup');['52%','18%','30%'].forEach(function(w){var c=el('col');c.style.width=w;cg.appendChild(c)});t.appendChild(cg);
var head=el('tr');['Offer','Yearly rate','Your reward'].forEach(function(h){head.appendChild(el('th',h))});t.appendChild(head);
var cells=[];offers.forEach(function(x){var o=x.o,open=!x.why.length;var tr=el('tr',null,open?'usable':'closed');tr.setAttribute('data-offer',o.id);
var td=el('td');td.appendChild(el('div',o.memo?'"'+o.memo+'"':'Offer '+o.id.slice(0,8)+'…','offer-name'));
td.appendChild(el('div',open?'Takes deposits now, until '+o.end.iso.slice(0,10):'Not open: '+x.why.join('; '),open?'ok state':'warn state'));
var nr=BigInt(o.noRewardsPeriodDuration&&o.noRewardsPeriodDuration.seconds||'0');
td.appendChild(el('div',o.minDuration.human+' to '+o.maxDuration.human+' · minimum '+o.minAmount.display+(nr>0n?' · the last '+o.noRewardsPeriodDuration.human+' earn nothing':''),'muted'));tr.appendChild(td);
tr.appendChild(el('td',o.interestRatePercent+' %','num rate'));var r=el('td','','num reward');tr.appendChild(r);cells.push([o,r,open,nr]);t.appendChild(tr)});
root.appendChild(t);
function units(text){var m=/^\\s*(\\d+)(?:\\.(\\d{0,9}))?\\s*$/.exec(text);if(!m)return null;return BigInt(m[1])*1000000000n+BigInt((m[2]||'').padEnd(9,'0')||'0')}
function show(v){var w=v/1000000000n,f=(v%1000000000n).toString().padStart(9,'0').replace(/0+$/,'');return w.toLocaleString('en-US')+(f?'.'+f:'')}
function update(){var a=units(amt.value),d=Number(days.value);cells.forEach(function(c){var o=c[0];
if(!c[2]){c[1].textContent='— (not open)';return}
if(a===null||!(d>0)){c[1].textContent='—';return}var secs=BigInt(Math.floor(d))*86400n;
var inside=secs>=BigInt(o.minDuration.seconds)&&secs<=BigInt(o.maxDuration.seconds)&&a>=BigInt(o.minAmount.value);
var earning=secs>c[3]?secs-c[3]:0n;var reward=a*BigInt(o.interestRateNominator)*earning/(1000000n*SECONDS_PER_YEAR);
c[1].textContent=show(reward)+(inside?'':' (outside this offer\\'s limits)')})}
amt.addEventListener('input',update);days.addEventListener('input',update);update()}
start(render);`;

const TRANSACTION = `var SOURCES={xvm_getTxStatus:'X-Chain',cx_getAtomicTxStatus:'C-Chain (atomic)',platform_getTxStatus:'P-Chain',indexer_getTransaction:'Indexer',platform_getBlock:'P-Chain blocks'};
var ANSWERS={Unknown:'not found'};
function render(s,root){clear(root);var st=s.status||'Unknown';
if(st==='Unknown'&&(!s.chain||s.chain==='unknown')){root.appendChild(el('h1','Not found on this node'));var nid=el('div',null,'muted');nid.appendChild(document.createTextNode('ID '));nid.appendChild(copyable(s.txID||'','transaction ID'));root.appendChild(nid);
root.appendChild(el('p','No chain of this node knows this transaction: not issued here, dropped, or a typo in the ID.','lead'));
var asked=el('ul');(s.checks||[]).forEach(function(c){asked.appendChild(el('li',(SOURCES[c.source]||c.source)+': '+(ANSWERS[c.answer]||c.answer)))});if(asked.firstChild){root.appendChild(el('div','Asked:','muted'));root.appendChild(asked)}return}
root.appendChild(el('h1','Transaction: '+st));var id=el('div',null,'muted');id.appendChild(document.createTextNode('ID '));id.appendChild(copyable(s.txID||'','transaction ID'));root.appendChild(id);
var steps=['Issued','Processing','Accepted'];var at=st==='Accepted'||st==='Committed'?2:st==='Processing'?1:st==='Unknown'?-1:0;
var ol=el('ol');steps.forEach(function(name,i){var li=el('li',name+(i===at?' ← now':''));if(i===at)li.className='now';ol.appendChild(li)});
if(st==='Rejected'||st==='Dropped'||st==='Aborted'){var li=el('li',st,'warn now');ol.appendChild(li)}
root.appendChild(ol);root.appendChild(el('div','Status: '+st+(s.chain&&s.chain!=='unknown'?' on '+s.chain+'-Chain':'')+(s.blockHeight?', block '+s.blockHeight:''),'status'));
if(s.meaning)root.appendChild(el('div',s.meaning,'muted'));(s.checks||[]).forEach(function(c){root.appendChild(el('div',(SOURCES[c.source]||c.source)+': '+(ANSWERS[c.answer]||c.answer),'muted'))})}
start(render);`;

export const VIEWS: readonly View[] = [
  {
    uri: 'ui://chain-mcp/portfolio.html',
    name: 'portfolio-view',
    title: 'Portfolio',
    description: "Draws account_overview's result: claimable rewards and the next unlock first, then each account's balances by chain.",
    tools: ['account_overview'],
    script: PORTFOLIO,
    style: '.key{list-style:none;padding:0;margin:2px 0 6px}.key li{margin:1px 0}.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}',
  },
  {
    uri: 'ui://chain-mcp/validators.html',
    name: 'validators-view',
    title: 'Validators',
    description: 'Draws validators (platform_getCurrentValidators, validator_lookup): stake, delegators, uptime and staking period, sortable.',
    tools: ['platform_getCurrentValidators', 'validator_lookup'],
    script: VALIDATORS,
    style: '.bar{position:relative}.now-mark{position:absolute;top:-3px;bottom:-3px;width:2px;background:var(--warn)}tr[aria-expanded=true]{background:var(--line)}tr.detail td{white-space:pre-wrap}@media (max-width:420px){th{font-size:11px}}',
    copies: true,
  },
  {
    uri: 'ui://chain-mcp/deposit-offers.html',
    name: 'deposit-offers-view',
    title: 'Deposit offers',
    description: 'Draws platform_getAllDepositOffers: which offers take deposits now, with the reward for an amount and days you type.',
    tools: ['platform_getAllDepositOffers'], script: DEPOSITS, style: 'tr.closed .rate,tr.closed .offer-name{color:var(--muted)}' },
  {
    uri: 'ui://chain-mcp/transaction.html',
    name: 'transaction-view',
    title: 'Transaction status',
    description: "Draws tx_status and wait_for_tx: the transaction's status in words and its place among issued, processing, accepted.",
    tools: ['tx_status', 'wait_for_tx'], script: TRANSACTION, copies: true },
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
