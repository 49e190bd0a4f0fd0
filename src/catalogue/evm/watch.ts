/** evm_watch: new heads or logs over the node's WebSocket, bounded in time, events and concurrent watches. */
import { WebSocket } from 'ws';
import { z } from 'zod';
import { hexAddress } from '../../core/fields.js';
import { defineTool, type ToolContext, type ToolDef } from '../../core/tool.js';
import { ChainMcpError } from '../../errors.js';
import { listLines, timeOut } from '../../summarize/format.js';
import { endpointPath, PRESETS } from '../../wire.js';
import { logOut } from './shapes.js';
import { chain, dec, num, obj, str, topic } from './shared.js';

export const watchTools: ToolDef[] = [
  defineTool({
    name: 'evm_watch',
    title: 'Watch new blocks or logs',
    description: 'Collect new C-Chain block headers or matching logs over WebSocket.',
    tier: 'read',
    toolset: 'evm',
    input: z.strictObject({
      subscription: z.enum(['newHeads', 'logs']).describe('newHeads: block headers; logs: logs matching the filter.'),
      address: z.union([hexAddress(''), z.array(hexAddress('')).min(1).max(100)]).optional().describe('logs: contract address(es).'),
      topics: z
        .array(z.union([topic, z.null(), z.array(topic).max(20)]))
        .max(4)
        .optional()
        .describe('logs: topic filters, as in eth_getLogs.'),
      maxEvents: z.number().int().min(1).max(100).default(5).describe('Stop after this many events.'),
      timeoutSeconds: z.number().int().min(1).max(300).default(30).describe('Stop after this many seconds.'),
      chain,
    }),
    output: z.object({
      subscription: z.string(),
      events: z.array(z.record(z.string(), z.unknown())),
      count: z.number(),
      stoppedBy: z.enum(['maxEvents', 'timeout', 'cancelled', 'closed', 'flood']),
      unsubscribed: z.boolean(),
      seconds: z.number(),
    }),
    run: (i, ctx) => watch(i, ctx),
    summarize: (o) => {
      const lines = [`${o.count} ${o.subscription === 'newHeads' ? 'new block(s)' : 'log(s)'} in ${o.seconds} s (stopped by ${o.stoppedBy}${o.unsubscribed ? ', unsubscribed' : ''}).`];
      if (o.stoppedBy === 'flood') lines.push(`The node flooded the WebSocket (over ${MAX_WS_FRAMES} frames or ${MAX_WS_BYTES / 1024 / 1024} MB in one watch); the watch was cut off. Events kept: ${o.count}.`);
      if (o.subscription === 'newHeads') {
        lines.push(...listLines(o.events, 20, (e) => `block ${str(e.number)} ${str(e.hash).slice(0, 18)}… at ${str(obj(e.timestamp).iso)}, gas used ${str(e.gasUsed)}`));
      } else {
        lines.push(...listLines(o.events, 20, (e) => `block ${str(e.blockNumber)} ${str(e.address)} topic0 ${str((e.topics as string[] | undefined)?.[0]).slice(0, 18)}…`));
      }
      return lines.join('\n');
    },
  }),
];

/** ws:// for loopback and plain http, wss:// otherwise (the spec: encryption on a remote host). */
export function wsUrlFor(nodeUrl: string, path: string): string {
  const u = new URL(nodeUrl);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = `${u.pathname.replace(/\/+$/, '')}${path}`;
  return u.toString();
}

interface WatchInput {
  subscription: 'newHeads' | 'logs';
  address?: string | string[];
  topics?: Array<string | null | string[]>;
  maxEvents: number;
  timeoutSeconds: number;
  chain?: string;
}

function headEvent(raw: unknown): Record<string, unknown> {
  const r = obj(raw);
  return {
    number: dec(r.number),
    hash: str(r.hash),
    parentHash: str(r.parentHash),
    timestamp: timeOut(num(r.timestamp)) ?? null,
    gasUsed: dec(r.gasUsed),
    baseFeePerGas: dec(r.baseFeePerGas),
  };
}

/** At most this many evm_watch subscriptions at once per process: each holds a socket for up to 300 s. */
export const MAX_WATCHES = 4;
/** One WebSocket frame from the node: a block header or a log is a few KB. */
const MAX_WS_FRAME = 1024 * 1024;
/**
 * A node that floods the socket (frames for other subscriptions, garbage, answers nobody asked
 * for) is cut off: at most this many frames, or this many bytes, per watch. A real C-Chain sends
 * one header every couple of seconds and logs in the few hundreds per block.
 */
export const MAX_WS_FRAMES = 2_000;
export const MAX_WS_BYTES = 16 * 1024 * 1024;
let activeWatches = 0;

async function watch(input: WatchInput, ctx: ToolContext) {
  if (activeWatches >= MAX_WATCHES) {
    throw new ChainMcpError('policy', `Too many evm_watch subscriptions at once (at most ${MAX_WATCHES}); nothing was subscribed.`, {
      hint: 'Wait for a running watch to finish, or use shorter timeoutSeconds.',
    });
  }
  activeWatches++;
  try {
    return await watchOnce(input, ctx);
  } finally {
    activeWatches--;
  }
}

async function watchOnce(input: WatchInput, ctx: ToolContext) {
  const rpcPath = endpointPath('evm', PRESETS.spec, input.chain);
  const url = wsUrlFor(ctx.config.nodeUrl, rpcPath.replace(/\/rpc$/, '/ws'));
  const headers: Record<string, string> = {};
  if (ctx.config.authToken) headers.authorization = `Bearer ${ctx.config.authToken}`;
  const started = Date.now();
  const events: Array<Record<string, unknown>> = [];
  const ws = new WebSocket(url, { headers, handshakeTimeout: ctx.config.timeoutMs, maxPayload: MAX_WS_FRAME });
  let subscriptionId: string | undefined;
  /** eth_subscribe is the first request on the socket. */
  const SUBSCRIBE_ID = 1;
  let nextId = SUBSCRIBE_ID;
  const waiting = new Map<number, (msg: { result?: unknown; error?: { message?: string } }) => void>();
  const request = (method: string, params: unknown[]) =>
    new Promise<{ result?: unknown; error?: { message?: string } }>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new ChainMcpError('timeout', `No answer to ${method} over the WebSocket within ${ctx.config.timeoutMs} ms.`));
      }, ctx.config.timeoutMs);
      waiting.set(id, (msg) => {
        clearTimeout(timer);
        resolve(msg);
      });
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });

  type Stop = 'maxEvents' | 'timeout' | 'cancelled' | 'closed' | 'flood';
  let finish: (reason: Stop) => void = () => undefined;
  const done = new Promise<Stop>((resolve) => {
    finish = resolve;
  });
  let frames = 0;
  let bytes = 0;
  ws.on('message', (data: Buffer) => {
    frames++;
    bytes += data.length;
    if (frames > MAX_WS_FRAMES || bytes > MAX_WS_BYTES) {
      // Stop reading at once: the socket is dropped, not politely unsubscribed.
      finish('flood');
      for (const answer of waiting.values()) answer({ error: { message: `the node flooded the WebSocket (over ${MAX_WS_FRAMES} frames or ${MAX_WS_BYTES} bytes)` } });
      waiting.clear();
      ws.terminate();
      return;
    }
    let msg: { id?: unknown; method?: unknown; params?: { subscription?: unknown; result?: unknown }; result?: unknown; error?: { message?: string } };
    try {
      msg = JSON.parse(data.toString('utf8'));
    } catch {
      return;
    }
    if (typeof msg.id === 'number' && waiting.has(msg.id)) {
      // Known at once: the node may send the first event in the very next frame.
      if (msg.id === SUBSCRIBE_ID && typeof msg.result === 'string') subscriptionId = msg.result;
      waiting.get(msg.id)!(msg);
      waiting.delete(msg.id);
      return;
    }
    if (msg.method === 'eth_subscription' && msg.params?.subscription === subscriptionId && events.length < input.maxEvents) {
      events.push(input.subscription === 'newHeads' ? headEvent(msg.params?.result) : logOut(msg.params?.result));
      void ctx.progress(events.length, input.maxEvents, `${events.length} of ${input.maxEvents} event(s)`);
      if (events.length >= input.maxEvents) finish('maxEvents');
    }
  });
  ws.on('close', () => finish('closed'));
  // After the handshake, a socket error ends the watch like a close (never an unhandled event).
  ws.on('error', () => finish('closed'));

  try {
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', (err) => reject(new ChainMcpError('connection', `Could not open the WebSocket ${url.replace(/\/\/[^@/]*@/, '//')}: ${err.message}`, { hint: 'Check that the node serves /ext/bc/C/ws and that CHAIN_MCP_NODE_URL is right.' })));
      ws.once('unexpected-response', (_req, res) =>
        reject(new ChainMcpError('http_status', `The WebSocket upgrade was refused with HTTP ${res.statusCode}.`, { hint: res.statusCode === 401 ? 'Set CHAIN_MCP_AUTH_TOKEN.' : 'Check the node URL and that the chain has a WebSocket endpoint.' })),
      );
    });
    const params: unknown[] = [input.subscription];
    if (input.subscription === 'logs') {
      const filter: Record<string, unknown> = {};
      if (input.address !== undefined) filter.address = input.address;
      if (input.topics !== undefined) filter.topics = input.topics;
      params.push(filter);
    }
    const answer = await request('eth_subscribe', params);
    if (answer.error || typeof answer.result !== 'string') {
      throw new ChainMcpError('rpc', `eth_subscribe failed: ${answer.error?.message ?? 'no subscription ID'}`);
    }
    subscriptionId = answer.result;
    await ctx.progress(0, input.maxEvents, `subscribed (${input.subscription}), waiting up to ${input.timeoutSeconds} s`);
    const timer = setTimeout(() => finish('timeout'), input.timeoutSeconds * 1000);
    const heartbeat = setInterval(() => {
      void ctx.progress(events.length, input.maxEvents, `waiting: ${Math.round((Date.now() - started) / 1000)} s, ${events.length} event(s)`);
    }, 5000);
    const onAbort = () => finish('cancelled');
    ctx.signal.addEventListener('abort', onAbort);
    const stoppedBy = await done;
    clearTimeout(timer);
    clearInterval(heartbeat);
    ctx.signal.removeEventListener('abort', onAbort);
    let unsubscribed = false;
    if (ws.readyState === WebSocket.OPEN) {
      const bye = await request('eth_unsubscribe', [subscriptionId]).catch(() => undefined);
      unsubscribed = bye?.result === true;
    }
    return {
      subscription: input.subscription,
      events,
      count: events.length,
      stoppedBy,
      unsubscribed,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
  } finally {
    await new Promise<void>((resolve) => {
      if (ws.readyState === WebSocket.CLOSED) return resolve();
      ws.once('close', () => resolve());
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else ws.close(1000);
      setTimeout(() => {
        ws.terminate();
        resolve();
      }, 2000).unref();
    });
  }
}
