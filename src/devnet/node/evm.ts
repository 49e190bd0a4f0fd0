import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { HttpFault, RpcFault, type RpcRouter } from '../rpc.js';
import { addCBlock, type CBlock, type CTransaction, type DevnetState, evmAddressOfPublicKey, hexAddressFor, recoverSigner } from '../state/index.js';

/**
 * The contract chain's EVM JSON-RPC (/ext/bc/C/rpc, positional params) and WebSocket
 * (/ext/bc/C/ws). When `state.evmUpstream` is set (a real anvil), calls are forwarded to it
 * and only the chain's extra methods (eth_getAssetBalance, eth_baseFee) are answered here;
 * otherwise the devnet answers a set of reads from its own C-chain blocks and balances.
 */

const hex = (n: bigint | number): string => `0x${BigInt(n).toString(16)}`;
const TOKEN_CODE = '0x6080604052348015600f57600080fd5b506004361060285760003560e01c8063a9059cbb14602d575b600080fd5b00';

/** Methods forwarded to anvil when it runs (the typed tools, evm_rpc's reads, and sends). */
const FORWARDED = [
  'web3_clientVersion',
  'web3_sha3',
  'net_version',
  'net_listening',
  'net_peerCount',
  'eth_chainId',
  'eth_blockNumber',
  'eth_syncing',
  'eth_getBalance',
  'eth_getTransactionCount',
  'eth_getCode',
  'eth_getStorageAt',
  'eth_call',
  'eth_estimateGas',
  'eth_gasPrice',
  'eth_feeHistory',
  'eth_maxPriorityFeePerGas',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getBlockTransactionCountByHash',
  'eth_getTransactionByHash',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionReceipt',
  'eth_getBlockReceipts',
  'eth_getUncleCountByBlockNumber',
  'eth_getUncleCountByBlockHash',
  'eth_getUncleByBlockNumberAndIndex',
  'eth_getUncleByBlockHashAndIndex',
  'eth_getLogs',
  'eth_getProof',
  'eth_createAccessList',
  'eth_protocolVersion',
  'eth_accounts',
  'eth_mining',
  'eth_hashrate',
  'eth_coinbase',
  'txpool_status',
  'txpool_content',
  'txpool_inspect',
  'debug_traceTransaction',
  'debug_traceCall',
  'eth_sendRawTransaction',
  'eth_sendTransaction',
  'evm_mine',
];

function resolveBlock(state: DevnetState, tag: unknown): CBlock | undefined {
  const last = state.cBlocks[state.cBlocks.length - 1];
  if (tag === undefined || tag === 'latest' || tag === 'pending' || tag === 'safe' || tag === 'finalized') return last;
  if (tag === 'earliest') return state.cBlocks[0];
  if (typeof tag === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(tag)) return state.cBlocks[Number(BigInt(tag))];
  if (typeof tag === 'string' && /^0x[0-9a-fA-F]{64}$/.test(tag)) return state.cBlocks.find((b) => b.hash === tag.toLowerCase());
  if (tag && typeof tag === 'object') {
    const t = tag as { blockHash?: unknown; blockNumber?: unknown };
    return resolveBlock(state, t.blockHash ?? t.blockNumber);
  }
  throw new RpcFault(`invalid block number or tag: ${JSON.stringify(tag)}`, -32602);
}

function needBlock(state: DevnetState, tag: unknown): CBlock {
  const b = resolveBlock(state, tag);
  if (!b) throw new RpcFault('header not found');
  return b;
}

function needHexAddress(value: unknown, position: number): string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
    throw new RpcFault(`invalid argument ${position}: hex string has length ${typeof value === 'string' ? value.length - 2 : 0}, want 40 for common.Address`, -32602);
  }
  return value.toLowerCase();
}

function txJson(b: CBlock, t: CTransaction, chainId: number) {
  return {
    blockHash: b.hash,
    blockNumber: hex(b.number),
    from: t.from,
    gas: hex(t.gasLimit),
    gasPrice: hex(t.gasPrice),
    maxFeePerGas: hex(t.maxFeePerGas),
    maxPriorityFeePerGas: hex(t.maxPriorityFeePerGas),
    hash: t.hash,
    input: t.input,
    nonce: hex(t.nonce),
    to: t.to,
    transactionIndex: hex(t.index),
    value: hex(t.value),
    type: '0x2',
    chainId: hex(chainId),
    v: '0x0',
    r: `0x${'11'.repeat(32)}`,
    s: `0x${'22'.repeat(32)}`,
  };
}

function logsJson(b: CBlock, t: CTransaction) {
  return t.logs.map((l) => ({
    address: l.address,
    topics: l.topics,
    data: l.data,
    blockNumber: hex(b.number),
    transactionHash: t.hash,
    transactionIndex: hex(t.index),
    blockHash: b.hash,
    logIndex: hex(l.logIndex),
    removed: false,
  }));
}

function blockJson(b: CBlock, full: boolean, chainId: number) {
  return {
    number: hex(b.number),
    hash: b.hash,
    parentHash: b.parentHash,
    timestamp: hex(b.timestamp),
    miner: b.miner,
    gasLimit: hex(b.gasLimit),
    gasUsed: hex(b.gasUsed),
    baseFeePerGas: hex(b.baseFeePerGas),
    extraData: b.extraData,
    difficulty: '0x1',
    nonce: '0x0000000000000000',
    size: hex(600 + b.transactions.length * 110),
    transactions: full ? b.transactions.map((t) => txJson(b, t, chainId)) : b.transactions.map((t) => t.hash),
    uncles: [],
  };
}

function findTx(state: DevnetState, hash: unknown): { b: CBlock; t: CTransaction } | undefined {
  if (typeof hash !== 'string') throw new RpcFault('invalid argument 0: expected a transaction hash', -32602);
  for (const b of state.cBlocks) {
    const t = b.transactions.find((x) => x.hash === hash.toLowerCase());
    if (t) return { b, t };
  }
  return undefined;
}

/** The devnet's own answers for the EVM reads, from its C-chain model. */
function builtin(state: DevnetState): Record<string, (p: unknown[]) => unknown> {
  const last = () => state.cBlocks[state.cBlocks.length - 1]!;
  return {
    web3_clientVersion: () => `devnet-evm/${state.version.vmVersions.evm ?? 'v0'}`,
    net_version: () => String(state.evmChainId),
    net_listening: () => true,
    net_peerCount: () => hex(state.peers.length),
    eth_chainId: () => hex(state.evmChainId),
    eth_blockNumber: () => hex(last().number),
    eth_syncing: () => false,
    eth_getBalance: (p) => {
      const a = needHexAddress(p[0], 0);
      needBlock(state, p[1]);
      return hex(state.cBalances.get(a) ?? 0n);
    },
    eth_getTransactionCount: (p) => {
      const a = needHexAddress(p[0], 0);
      needBlock(state, p[1]);
      return hex(state.cNonces.get(a) ?? 0);
    },
    eth_getCode: (p) => {
      const a = needHexAddress(p[0], 0);
      needBlock(state, p[1]);
      return a === hexAddressFor('token-contract') ? TOKEN_CODE : '0x';
    },
    eth_getStorageAt: (p) => {
      needHexAddress(p[0], 0);
      needBlock(state, p[2]);
      return `0x${'0'.repeat(64)}`;
    },
    eth_call: (p) => {
      if (!p[0] || typeof p[0] !== 'object') throw new RpcFault('missing value for required argument 0', -32602);
      return '0x';
    },
    eth_estimateGas: (p) => {
      const tx = (p[0] ?? {}) as { data?: string; input?: string };
      return (tx.data ?? tx.input ?? '0x') === '0x' ? hex(21_000) : hex(51_000);
    },
    eth_gasPrice: () => hex(state.cBaseFee + state.cPriorityFee),
    eth_maxPriorityFeePerGas: () => hex(state.cPriorityFee),
    eth_baseFee: () => hex(state.cBaseFee),
    eth_feeHistory: (p) => {
      const count = Math.min(Number(BigInt(String(p[0] ?? '0x1'))), 1024);
      const newest = needBlock(state, p[1]);
      const oldest = Math.max(0, newest.number - count + 1);
      const blocks = state.cBlocks.slice(oldest, newest.number + 1);
      const percentiles = Array.isArray(p[2]) ? p[2] : [];
      return {
        oldestBlock: hex(oldest),
        baseFeePerGas: [...blocks.map((b) => hex(b.baseFeePerGas)), hex(state.cBaseFee)],
        gasUsedRatio: blocks.map((b) => Number(b.gasUsed) / Number(b.gasLimit)),
        ...(percentiles.length > 0 ? { reward: blocks.map(() => percentiles.map(() => hex(state.cPriorityFee))) } : {}),
      };
    },
    eth_getBlockByNumber: (p) => {
      const b = resolveBlock(state, p[0]);
      return b ? blockJson(b, p[1] === true, state.evmChainId) : null;
    },
    eth_getBlockByHash: (p) => {
      const b = typeof p[0] === 'string' ? state.cBlocks.find((x) => x.hash === String(p[0]).toLowerCase()) : undefined;
      return b ? blockJson(b, p[1] === true, state.evmChainId) : null;
    },
    eth_getTransactionByHash: (p) => {
      const f = findTx(state, p[0]);
      return f ? txJson(f.b, f.t, state.evmChainId) : null;
    },
    eth_getTransactionReceipt: (p) => {
      const f = findTx(state, p[0]);
      if (!f) return null;
      const { b, t } = f;
      return {
        transactionHash: t.hash,
        transactionIndex: hex(t.index),
        blockHash: b.hash,
        blockNumber: hex(b.number),
        from: t.from,
        to: t.to,
        cumulativeGasUsed: hex(b.transactions.slice(0, t.index + 1).reduce((s, x) => s + x.gasUsed, 0n)),
        gasUsed: hex(t.gasUsed),
        effectiveGasPrice: hex(t.gasPrice),
        contractAddress: t.contractAddress,
        logs: logsJson(b, t),
        logsBloom: `0x${'00'.repeat(256)}`,
        status: hex(t.status),
        type: '0x2',
      };
    },
    eth_getLogs: (p) => {
      const f = (p[0] ?? {}) as { fromBlock?: unknown; toBlock?: unknown; address?: unknown; topics?: unknown; blockHash?: unknown };
      let blocks: CBlock[];
      if (f.blockHash !== undefined) {
        const b = state.cBlocks.find((x) => x.hash === String(f.blockHash).toLowerCase());
        blocks = b ? [b] : [];
      } else {
        const from = resolveBlock(state, f.fromBlock ?? 'latest')?.number ?? 0;
        const to = resolveBlock(state, f.toBlock ?? 'latest')?.number ?? -1;
        blocks = state.cBlocks.slice(from, to + 1);
      }
      const addresses = f.address === undefined ? undefined : (Array.isArray(f.address) ? f.address : [f.address]).map((a) => String(a).toLowerCase());
      const topics = Array.isArray(f.topics) ? f.topics : [];
      const out = [];
      for (const b of blocks) {
        for (const t of b.transactions) {
          for (const log of logsJson(b, t)) {
            if (addresses && !addresses.includes(log.address)) continue;
            const ok = topics.every((want, i) => want === null || (Array.isArray(want) ? want.includes(log.topics[i]) : want === log.topics[i]));
            if (ok) out.push(log);
          }
        }
      }
      return out;
    },
    txpool_status: () => ({ pending: '0x0', queued: '0x0' }),
    debug_traceTransaction: (p) => {
      const f = findTx(state, p[0]);
      if (!f) throw new RpcFault(`transaction ${String(p[0])} not found`);
      return { gas: Number(f.t.gasUsed), failed: f.t.status === 0, returnValue: '', structLogs: [] };
    },
    eth_sendRawTransaction: (p) => {
      if (typeof p[0] !== 'string' || !/^0x[0-9a-fA-F]+$/.test(p[0])) throw new RpcFault('invalid argument 0: expected hex data', -32602);
      // An EVM node of either API decodes, recovers the sender and checks nonce, price and funds;
      // the hash it answers is keccak256 of the bytes, never one made up.
      return sendRawTransaction(state, p[0] as `0x${string}`);
    },
  };
}

/**
 * eth_sendRawTransaction as geth/coreth checks it: an EIP-1559 or EIP-155 legacy tx for this chain ID,
 * the sender recovered from its signature, the next nonce, a fee cap at or over the base fee, and
 * gas × fee cap + value covered. Mined at once into a new block under keccak256 of the bytes.
 */
async function sendRawTransaction(state: DevnetState, raw: `0x${string}`): Promise<string> {
  const { keccak256, parseEvmTx } = await import('../../codec/evm-tx.js');
  const bytes = Uint8Array.from(Buffer.from(raw.slice(2), 'hex'));
  let tx: ReturnType<typeof parseEvmTx>;
  try {
    tx = parseEvmTx(bytes);
  } catch (err) {
    throw new RpcFault((err as Error).message);
  }
  const f = tx.fields;
  if (f.chainId !== BigInt(state.evmChainId)) throw new RpcFault('invalid chain id for signer');
  const sig = tx.signature;
  const pub = sig ? recoverSigner(tx.signingHash, Uint8Array.from(Buffer.from(`${sig.r.toString(16).padStart(64, '0')}${sig.s.toString(16).padStart(64, '0')}0${sig.yParity}`, 'hex'))) : undefined;
  if (!pub) throw new RpcFault('invalid transaction v, r, s values');
  const from = evmAddressOfPublicKey(pub);
  const nonce = BigInt(state.cNonces.get(from) ?? 0);
  if (f.nonce < nonce) throw new RpcFault('nonce too low');
  if (f.nonce > nonce) throw new RpcFault(`nonce too high: address ${from}, tx: ${f.nonce} state: ${nonce}`);
  if (f.gas < 21_000n) throw new RpcFault('intrinsic gas too low');
  const cap = f.maxFeePerGas;
  if (cap < state.cBaseFee) throw new RpcFault(`transaction underpriced: gas fee cap ${cap} less than block base fee ${state.cBaseFee}`);
  if ((state.cBalances.get(from) ?? 0n) < f.gas * cap + f.value) throw new RpcFault('insufficient funds for gas * price + value');
  const tip = f.maxPriorityFeePerGas;
  // The effective price: base fee plus tip, capped (bigints: Math.min does not take them).
  // biome-ignore lint/complexity/useMathMinMax: bigint operands
  const price = cap < state.cBaseFee + tip ? cap : state.cBaseFee + tip;
  const hash = `0x${Buffer.from(keccak256(bytes)).toString('hex')}`;
  const input = `0x${Buffer.from(f.data).toString('hex')}`;
  addCBlock(state, [{ from, to: f.to ?? null, value: f.value, input, gasLimit: f.gas, gasUsed: 21_000n, hash, gasPrice: price, maxFeePerGas: cap, maxPriorityFeePerGas: tip }]);
  return hash;
}

async function forward(url: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { code?: number; message?: string } };
  if (body.error) throw new RpcFault(String(body.error.message ?? 'upstream error'), Number(body.error.code ?? -32000));
  return body.result ?? null;
}

export function registerEvm(router: RpcRouter, state: DevnetState): void {
  const own = builtin(state);
  for (const path of ['/ext/bc/C/rpc', `/ext/bc/${state.chains.C}/rpc`]) {
    for (const method of new Set([...FORWARDED, ...Object.keys(own)])) {
      router.on(path, method, async (params) => {
        const p = Array.isArray(params) ? params : [];
        const upstream = state.evmUpstream;
        if (upstream) {
          // The chain's extras that anvil lacks are answered here, from anvil's own data.
          if (method === 'eth_baseFee') {
            const block = (await forward(upstream.url, 'eth_getBlockByNumber', ['latest', false])) as { baseFeePerGas?: string } | null;
            return block?.baseFeePerGas ?? hex(state.cBaseFee);
          }
          try {
            return await forward(upstream.url, method, p);
          } catch (err) {
            // Methods anvil lacks (e.g. net_peerCount) fall back to the devnet's own answer.
            if (!(err instanceof RpcFault && err.code === -32601 && own[method])) throw err;
          }
        }
        const answer = own[method];
        if (!answer) throw new RpcFault(`the method ${method} does not exist/is not available`, -32601);
        return answer(p);
      });
    }
    router.on(path, 'eth_getAssetBalance', (params) => {
      const p = Array.isArray(params) ? params : [];
      const a = needHexAddress(p[0], 0);
      if (!state.evmUpstream) needBlock(state, p[1]);
      if (typeof p[2] !== 'string' || p[2] === '') throw new RpcFault('invalid argument 2: expected an asset ID', -32602);
      return hex(state.cAssetBalances.get(a)?.get(p[2]) ?? 0n);
    });
  }
}

/**
 * WebSocket endpoint /ext/bc/C/ws: proxied to anvil when it runs; otherwise eth_subscribe
 * (newHeads, logs) and eth_unsubscribe are served from the devnet's own new C blocks.
 */
export function attachEvmSocket(server: Server, router: RpcRouter, state: DevnetState): () => void {
  const wss = new WebSocketServer({ noServer: true });
  const paths = new Set(['/ext/bc/C/ws', `/ext/bc/${state.chains.C}/ws`]);
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/\/+$/, '');
    if (!paths.has(path)) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const auth = String(req.headers.authorization ?? '');
    try {
      router.authorize?.(path, auth.startsWith('Bearer ') ? auth.slice(7) : undefined);
    } catch (err) {
      const status = err instanceof HttpFault ? err.status : 401;
      socket.end(`HTTP/1.1 ${status} Unauthorized\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => (state.evmUpstream ? proxy(ws, state.evmUpstream.wsUrl) : serve(ws, state)));
  };
  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    for (const client of wss.clients) client.terminate();
    wss.close();
  };
}

function proxy(client: WebSocket, upstreamUrl: string): void {
  const upstream = new WebSocket(upstreamUrl);
  const pending: Array<string | Buffer> = [];
  upstream.on('open', () => {
    for (const m of pending.splice(0)) upstream.send(m);
  });
  client.on('message', (data: Buffer, isBinary: boolean) => {
    const m = isBinary ? data : data.toString('utf8');
    if (upstream.readyState === WebSocket.OPEN) upstream.send(m);
    else pending.push(m);
  });
  upstream.on('message', (data: Buffer, isBinary: boolean) => {
    if (client.readyState === WebSocket.OPEN) client.send(isBinary ? data : data.toString('utf8'));
  });
  const closeBoth = () => {
    if (client.readyState === WebSocket.OPEN) client.close();
    if (upstream.readyState === WebSocket.OPEN || upstream.readyState === WebSocket.CONNECTING) upstream.terminate();
  };
  client.on('close', closeBoth);
  upstream.on('close', closeBoth);
  upstream.on('error', closeBoth);
  client.on('error', closeBoth);
}

function serve(ws: WebSocket, state: DevnetState): void {
  const subs = new Map<string, (b: CBlock) => void>();
  let next = 1;
  const reply = (id: unknown, result: unknown) => ws.send(JSON.stringify({ jsonrpc: '2.0', id, result }));
  const fail = (id: unknown, code: number, message: string) => ws.send(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
  const own = builtin(state);
  ws.on('message', (data: Buffer) => {
    let msg: { id?: unknown; method?: unknown; params?: unknown };
    try {
      msg = JSON.parse(data.toString('utf8'));
    } catch {
      fail(null, -32700, 'parse error');
      return;
    }
    const params = Array.isArray(msg.params) ? msg.params : [];
    if (msg.method === 'eth_subscribe') {
      const kind = params[0];
      if (kind !== 'newHeads' && kind !== 'logs') {
        fail(msg.id, -32602, `no "${String(kind)}" subscription in eth namespace`);
        return;
      }
      const id = `0x${(next++).toString(16).padStart(32, '0')}`;
      const filter = (params[1] ?? {}) as { address?: unknown; topics?: unknown };
      const listener = (b: CBlock) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        const send = (result: unknown) => ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: id, result } }));
        if (kind === 'newHeads') {
          const { transactions: _t, uncles: _u, ...head } = blockJson(b, false, state.evmChainId);
          send(head);
          return;
        }
        const logs = own.eth_getLogs!([{ blockHash: b.hash, address: filter.address, topics: filter.topics }]) as unknown[];
        for (const log of logs) send(log);
      };
      subs.set(id, listener);
      state.cBlockListeners.add(listener);
      reply(msg.id, id);
      return;
    }
    if (msg.method === 'eth_unsubscribe') {
      const listener = subs.get(String(params[0]));
      if (listener) state.cBlockListeners.delete(listener);
      reply(msg.id, subs.delete(String(params[0])));
      return;
    }
    const answer = typeof msg.method === 'string' ? own[msg.method] : undefined;
    if (!answer) {
      fail(msg.id, -32601, `the method ${String(msg.method)} does not exist/is not available`);
      return;
    }
    try {
      reply(msg.id, answer(params));
    } catch (err) {
      fail(msg.id, err instanceof RpcFault ? err.code : -32000, (err as Error).message);
    }
  });
  ws.on('close', () => {
    for (const listener of subs.values()) state.cBlockListeners.delete(listener);
    subs.clear();
  });
}
