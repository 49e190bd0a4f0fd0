import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { CATALOGUE } from '../../src/catalogue/index.js';
import type { ToolDef } from '../../src/core/tool.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { selectTools } from '../../src/registry/select.js';
import { buildServer } from '../../src/server.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { parseCb58Id, parseChainAddress } from '../../src/codec/index.js';
import { attachCredentials, encodeUnsignedTx, sha256, signedTxHex, sortOutputs, type TransferableOutput, type UnsignedTx } from '../../src/codec/tx/index.js';
import { signerFromPrivateKey } from '../../src/signer/index.js';
import { type FaultProxy, startFaultProxy } from '../../tools/fault-proxy.js';
import { EXAMPLES } from '../contract/examples/index.js';
import type { CallResult } from '../helpers/stack.js';

/** A secret the node is configured with; it must never show in a result. */
export const SECRET_TOKEN = 'fault-test-secret-token-7f3a';

export interface ProxiedStack {
  client: Client;
  devnet: Devnet;
  node: FaultProxy;
  indexer?: FaultProxy;
  runner?: FaultProxy;
  proxies: FaultProxy[];
  tools: readonly ToolDef[];
  call(name: string, args?: Record<string, unknown>, opts?: { signal?: AbortSignal }): Promise<CallResult>;
  close(): Promise<void>;
}

/**
 * Devnet + a fault proxy in front of each of its services + the server in this process,
 * joined to a real MCP Client. `full` enables every tier (spend, admin, keystore).
 */
export async function proxiedStack(opts: { env?: Record<string, string>; full?: boolean } = {}): Promise<ProxiedStack> {
  const devnet = await startDevnet();
  const node = await startFaultProxy(devnet.nodeUrl);
  const indexer = devnet.indexerUrl ? await startFaultProxy(devnet.indexerUrl) : undefined;
  const runner = devnet.runnerUrl ? await startFaultProxy(devnet.runnerUrl) : undefined;
  const env: Record<string, string> = {
    CHAIN_MCP_NODE_URL: node.url,
    ...(indexer ? { CHAIN_MCP_INDEXER_URL: indexer.url } : {}),
    ...(runner ? { CHAIN_MCP_RUNNER_URL: runner.url } : {}),
    CHAIN_MCP_AUTH_TOKEN: SECRET_TOKEN,
    CHAIN_MCP_LOG_LEVEL: 'silent',
    ...(opts.full
      ? {
          CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id',
          CHAIN_MCP_ALLOW_ADMIN: 'true',
          CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
          CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
        }
      : {}),
    ...opts.env,
  };
  const config = loadConfig(env);
  const { mcp, services, tools } = buildServer({ config, log: silentLogger() });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'faults', version: '0' });
  await mcp.connect(serverSide);
  await client.connect(clientSide);
  const proxies = [node, indexer, runner].filter((p): p is FaultProxy => p !== undefined);
  return {
    client,
    devnet,
    node,
    indexer,
    runner,
    proxies,
    tools: await tools(),
    call: async (name, args = {}, callOpts = {}) => {
      const result = await client.callTool({ name, arguments: args }, { signal: callOpts.signal, timeout: 120_000 });
      const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
      return {
        text: content.map((c) => c.text ?? '').join('\n'),
        isError: result.isError === true,
        structured: result.structuredContent as Record<string, unknown> | undefined,
      };
    },
    close: async () => {
      await client.close();
      await mcp.close();
      await services.close();
      await Promise.all(proxies.map((p) => p.close()));
      await devnet.close();
    },
  };
}

export function exampleArgs(tool: ToolDef): Record<string, unknown> | undefined {
  const example = EXAMPLES[tool.name];
  return example ? structuredClone(example.args) : undefined;
}

/** The proxy a tool's own request goes through, by its request kind. */
export function proxyFor(stack: ProxiedStack, tool: ToolDef): FaultProxy | undefined {
  const kind = tool.request?.kind;
  if (kind === 'rest') return stack.indexer;
  if (kind === 'runner') return stack.runner;
  if (kind === 'rpc') return stack.node;
  return undefined;
}

export interface Representative {
  tool: ToolDef;
  args: Record<string, unknown>;
  baseline: CallResult;
}

/** A tool whose contract example could not run against the devnet, and what it answered. */
export interface Unrunnable {
  tool: string;
  why: string;
}

/** The contract examples' placeholder keys (network "camino"); the devnet is on "local". */
const EXAMPLE_KEYS = ['camino1qyqszqgpqyqszqgpqyqszqgpqyqszqgpua39v8', 'camino1qgpqyqszqgpqyqszqgpqyqszqgpqyqszdehq83'];

/** A tool's contract example with its placeholder keys replaced by devnet keys of the keystore user. */
export async function devnetArgs(tool: ToolDef, devnet: Devnet): Promise<Record<string, unknown> | undefined> {
  // The simulator verifies signed bytes as a node does: these two carry bytes signed by its funded key.
  if (tool.name === 'wallet_issueTx') return { tx: signedTxHex(signedXSend(devnet)), encoding: 'hex' };
  if (tool.name === 'eth_sendRawTransaction') return { signedTx: await signedEvmSend(devnet) };
  const args = exampleArgs(tool);
  if (!args) return undefined;
  const keys = devnet.state.users.get(devnet.keystore.username)!.keys;
  const json = EXAMPLE_KEYS.reduce((text, placeholder, i) => text.split(placeholder).join(keys[i + 1]!.bech32), JSON.stringify(args));
  return JSON.parse(json) as Record<string, unknown>;
}

/**
 * For each toolset and request kind, the first catalogue tool of `tier` whose contract
 * example (on devnet addresses) answers without error against the devnet: what fault tests
 * exercise. Driven by the catalogue, so new families are picked up as they land. Every tool
 * passed over is returned in `unrunnable` with its answer: tests compare it with the known
 * list, so a tool that stops working is a failure, not a silent skip.
 */
export async function representatives(stack: ProxiedStack, tier: ToolDef['tier'] = 'read'): Promise<{ chosen: Representative[]; unrunnable: Unrunnable[] }> {
  const seen = new Set<string>();
  const chosen: Representative[] = [];
  const unrunnable: Unrunnable[] = [];
  for (const tool of stack.tools) {
    if (tool.tier !== tier || !tool.request) continue;
    const key = `${tool.toolset}/${tool.request.kind}`;
    const args = tier === 'spend' ? await devnetArgs(tool, stack.devnet) : exampleArgs(tool);
    if (seen.has(key) || !args || !proxyFor(stack, tool)) continue;
    let baseline = await stack.call(tool.name, args);
    // The fault stacks run with a short timeout: on a loaded machine a baseline may miss it.
    for (let again = 0; again < 3 && baseline.isError && /did not answer within/.test(baseline.text); again++) {
      baseline = await stack.call(tool.name, args);
    }
    if (baseline.isError) {
      unrunnable.push({ tool: tool.name, why: baseline.text });
      continue;
    }
    if (tier === 'spend') {
      // A spend representative must also go through when confirmed, without faults.
      const id = baseline.structured?.confirmationId;
      const confirmed = typeof id === 'string' ? await stack.call(tool.name, { ...args, confirm: id }) : undefined;
      if (!confirmed || confirmed.isError) {
        unrunnable.push({ tool: tool.name, why: confirmed?.text ?? 'the preview has no confirmation id' });
        continue;
      }
    }
    seen.add(key);
    chosen.push({ tool, args, baseline });
  }
  return { chosen, unrunnable };
}

/** Every catalogue tool the given configuration exposes (for reports). */
export function exposed(env: Record<string, string>): ToolDef[] {
  return selectTools(CATALOGUE, loadConfig(env));
}

/** A 1 nCAM X send signed by the devnet's funded local key, from one of its unlocked UTXOs, the fee exact. */
function signedXSend(devnet: Devnet): Uint8Array {
  const { state, localKey } = devnet;
  const u = [...state.utxos.values()].find((x) => !x.spentBy && x.chain === 'X' && x.addresses.includes(localKey.x) && x.assetID === state.nativeAssetID && x.lock === 'unlocked' && x.locktime === 0n && x.threshold === 1);
  if (!u) throw new Error('the devnet key holds no X UTXO');
  const out = (amount: bigint): TransferableOutput => ({
    assetID: parseCb58Id(state.nativeAssetID),
    output: { kind: 'secp.transfer', amount, owners: { locktime: 0n, threshold: 1, addresses: [parseChainAddress(localKey.x).bytes] } },
  });
  const tx: UnsignedTx = {
    chain: 'X',
    kind: 'base',
    networkID: state.networkID,
    blockchainID: parseCb58Id(state.chains.X),
    outputs: sortOutputs('X', [out(1n), out(u.amount - 1n - state.fees.txFee)]),
    inputs: [{ txID: parseCb58Id(u.txID), outputIndex: u.outputIndex, assetID: parseCb58Id(u.assetID), input: { kind: 'secp.transfer', amount: u.amount, sigIndices: [0] } }],
    memo: new Uint8Array(),
  };
  const bytes = encodeUnsignedTx(tx);
  return attachCredentials('X', bytes, [{ signatures: [signerFromPrivateKey(localKey.privateKey).signHash(sha256(bytes))] }]);
}

/** A 1 wei EVM send by the devnet's funded local key at its next nonce, for the devnet's chain ID. */
async function signedEvmSend(devnet: Devnet): Promise<string> {
  const { privateKeyToAccount } = await import('viem/accounts');
  const account = privateKeyToAccount(`0x${Buffer.from(devnet.localKey.privateKey).toString('hex')}`);
  const nonce = devnet.state.cNonces.get(account.address.toLowerCase()) ?? devnet.state.cNonces.get(account.address) ?? 0;
  const fee = devnet.state.cBaseFee * 2n;
  return account.signTransaction({ type: 'eip1559', chainId: devnet.state.evmChainId, nonce, gas: 21_000n, maxFeePerGas: fee, maxPriorityFeePerGas: 1n, to: account.address, value: 1n });
}
