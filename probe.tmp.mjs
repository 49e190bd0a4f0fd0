import { startDevnet } from './dist/src/devnet/index.js';
import { HttpClient } from './dist/src/transport/http.js';
import { JsonRpcClient } from './dist/src/transport/jsonrpc.js';
const devnet = await startDevnet({ dialect: 'spec' });
const reads = [['/ext/info','info.getNetworkID'],['/ext/info','info.getNetworkName'],['/ext/info','info.getNodeVersion'],['/ext/info','info.getTxFee'],['/ext/info','info.getNodeID'],['/ext/info','info.getNodeID'],['/ext/info','info.getNodeID'],['/ext/P','platform.getHeight'],['/ext/P','platform.getCurrentSupply'],['/ext/P','platform.getHeight'],['/ext/P','platform.getHeight']];
const http = new HttpClient({ timeoutMs: 10000 });
const c = new JsonRpcClient(http, devnet.nodeUrl);
const sig = new AbortController().signal;
const variants = {
  batch: () => Promise.all(['/ext/info','/ext/P'].map(p => c.batch(p, reads.filter(r=>r[0]===p).map(([,method])=>({method, params:{}})), {retry:true}))),
  parallel: () => Promise.all(reads.map(([path, method]) => c.call({path, method, params:{}}, {retry:true}))),
  parallelSig: () => Promise.all(reads.map(([path, method]) => c.call({path, method, params:{}}, {retry:true, signal: sig}))),
};
const t = Object.fromEntries(Object.keys(variants).map(k => [k, []]));
for (let i = 0; i < 330; i++) for (const [k, f] of Object.entries(variants)) { const t0 = performance.now(); await f(); if (i >= 30) t[k].push(performance.now() - t0); }
const med = (v) => v.sort((a,b)=>a-b)[v.length>>1].toFixed(2);
for (const k of Object.keys(t)) console.log(k, med(t[k]));
await devnet.close(); await http.close();
