import {
  type BuiltTx,
  BuildError,
  buildBaseTx,
  buildCExportTx,
  buildCImportTx,
  buildExportTx,
  buildImportTx,
  type Payment,
} from '../tx-builders/index.js';
import { formatCb58Id, isHexAddress, parseCb58Id, parseChainAddress, parseHexQuantity } from '../codec/index.js';
import { attachCredentials, type CExportTx, type ExportTx, sha256, signedTxHex, type TransferableOutput, type TxChain, txIdOf, type Utxo } from '../codec/tx/index.js';
import type { ToolContext } from '../core/tool.js';
import { ChainMcpError, InputError } from '../errors.js';
import type { LocalSigner } from '../signer/types.js';
import { resolveAsset } from '../spend/plan.js';
import { nativeAmount } from '../summarize/format.js';
import type { LocalEnv } from './env.js';
import { checkEvmChainId } from './chain-id.js';
import { decodedView, renderTx, showerFor } from './render.js';
import { fetchUtxos } from './utxos.js';

/** One transaction of a local spend: its unsigned bytes and, for a first step the next one names, its signed bytes. */
export interface LocalStep {
  /** `EVM`: an Ethereum transaction on C, issued with eth_sendRawTransaction. */
  chain: TxChain | 'EVM';
  /** The unsigned bytes the approval is bound to (sha256). */
  bytes: Uint8Array;
  /** X/P/C atomic: the built tx. */
  built?: BuiltTx;
  /**
   * The ID this step must have once signed, where a later step names it (a transfer's export,
   * signed at preview only to learn it). Signatures are deterministic (RFC 6979): signing the
   * kept bytes again at confirm gives it back, and anything else is refused. The signed bytes
   * themselves are never kept.
   */
  expectId?: string;
  /** A kept step read back from the state store: its credentials' signature indices (`built.sigIndices`). */
  sigIndices?: number[][];
}

/** Signs a step's kept bytes (never rebuilt) and gives what the node takes and the ID it will name. */
export async function signStep(step: LocalStep, signer: LocalSigner): Promise<{ hex: string; id: string }> {
  if (step.chain === 'EVM') {
    const { keccak256, parseEvmTx, serializeEip1559 } = await import('../codec/evm-tx.js');
    // The kept unsigned bytes, read back: what is signed is exactly what was approved.
    const parsed = parseEvmTx(step.bytes);
    const sig = signer.signEvmDigest(keccak256(step.bytes));
    const signed = serializeEip1559(parsed.fields, { r: BigInt(sig.r), s: BigInt(sig.s), yParity: sig.yParity });
    return { hex: `0x${Buffer.from(signed).toString('hex')}`, id: `0x${Buffer.from(keccak256(signed)).toString('hex')}` };
  }
  // The kept bytes themselves are signed, with the signature plan made when they were built.
  const signed = signBuilt({ chain: step.chain, bytes: step.bytes, sigIndices: step.built?.sigIndices ?? step.sigIndices ?? [] }, signer);
  return { hex: signedTxHex(signed), id: txIdOf(signed) };
}

export interface LocalSpend {
  steps: LocalStep[];
  lines: string[];
  /** Sum of every step's fee, from the decoded bytes (inputs − outputs). */
  fee: bigint;
  /** Addresses that must be the key's own under a limit (0x ones the key cannot be told to own are refused). */
  own: string[];
  details: Record<string, unknown>;
  /** The result text once issued (txIDs in step order). */
  done(txIDs: readonly string[]): string;
  /** The tool's own output shape for the issued txIDs (complete: every step issued; else see `stoppedResult`). */
  result(txIDs: readonly string[], complete: boolean): Record<string, unknown>;
}

/** How a spend stopped part way, as its answer's text says it. */
export interface Stop {
  /** The step (1-based) that did not complete. */
  step: number;
  status: 'failed' | 'unknown' | 'not_run';
  /** Why, in the text's words. */
  error: string;
  /** The ID its signed bytes have, where they may have gone out (an unknown outcome). */
  txID?: string;
  /** What to do now. */
  next: string;
}

/** `result(txIDs, false)` saying of the stopped step what the text says: failed, unknown (with its txID) or not run, and why. */
export function stoppedResult(result: Record<string, unknown>, stop: Stop): Record<string, unknown> {
  // The stopped step has no txID in `result` (not issued); an unknown outcome's is the one its bytes have.
  const said = (s: Record<string, unknown>) => ({ ...s, status: stop.status, txID: stop.txID, error: stop.error });
  return { ...result, steps: (result.steps as Array<Record<string, unknown>>).map((s) => (s.step === stop.step ? said(s) : s)), next: stop.next };
}

export type Args = Record<string, unknown>;

/** The build itself needs a signature (a transfer's export) and the key is locked: nothing is built or sent. */
export class LockedForBuild extends Error {}
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const WEI_PER_UNIT = 1_000_000_000n;

/** Short ID bytes of an X/P/C bech32 address. */
export function addressBytes(field: string, address: string): Uint8Array {
  try {
    return parseChainAddress(address).bytes;
  } catch (err) {
    throw new InputError(field, (err as Error).message);
  }
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
}

/** The local signer spends only the key's own outputs: `from` and `changeAddr` may name only the key. */
export function onlyOwn(env: LocalEnv, args: Args, chain: 'X' | 'P'): void {
  const own = chain === 'X' ? env.own.x : env.own.p;
  const from = Array.isArray(args.from) ? (args.from as string[]) : [];
  for (const a of from) {
    if (a !== own) throw new InputError('from', `the local signer spends only its key's address ${own}; leave from out or give that address`);
  }
  const change = str(args.changeAddr);
  if (change && change !== own) throw new InputError('changeAddr', `the local signer returns change to its key's address ${own}; leave changeAddr out or give that address`);
}

/** A build refusal (not enough, nothing to import, locked) as one line naming what to do; nothing is sent. */
export function built(fn: () => BuiltTx): BuiltTx {
  try {
    return fn();
  } catch (err) {
    if (err instanceof BuildError) {
      throw new ChainMcpError('policy', `Cannot build this transaction: ${err.message}. Nothing was sent.`, {
        hint: err.code === 'insufficient-funds' ? 'Check the unlocked balance with account_overview; deposited and bonded funds cannot be spent.' : 'Check account_overview and the arguments.',
      });
    }
    throw err;
  }
}

async function assetBytes(ctx: ToolContext, env: LocalEnv, assetID: unknown): Promise<Uint8Array> {
  const given = str(assetID) ?? env.network.assetID;
  const resolved = await resolveAsset(ctx, given, env.network);
  return parseCb58Id(resolved.info.assetID);
}

async function evmNumber(ctx: ToolContext, method: string, params: unknown[]): Promise<bigint> {
  const raw = await ctx.rpc('evm', method, params, { retry: true });
  try {
    return parseHexQuantity(String(raw));
  } catch {
    throw new ChainMcpError('malformed', `The node's ${method} answer is not a hex quantity.`);
  }
}

/** The C atomic base fee: the node's; a given one only up to twice it (a real node burns whatever it is told). */
async function atomicBaseFee(ctx: ToolContext, given: unknown): Promise<bigint> {
  const node = await evmNumber(ctx, 'eth_baseFee', []);
  if (given === undefined || given === null) return node;
  const asked = BigInt(given as bigint);
  if (asked > node * 2n) throw new InputError('baseFee', `at most twice the node's current base fee (${node * 2n} wei); it is ${asked}`);
  return asked < node ? node : asked;
}

/** The atomic UTXOs an export creates, as the destination chain will hold them (output index after the local outputs). */
function exportedUtxos(built: BuiltTx, signed: Uint8Array): Utxo[] {
  // Only a transfer's export reaches here (buildExportTx or buildCExportTx).
  const u = built.unsigned as ExportTx | CExportTx;
  const txID = parseCb58Id(txIdOf(signed));
  const local = 'outputs' in u ? u.outputs.length : 0;
  return u.exportedOutputs.map((o: TransferableOutput, i) => ({ txID, outputIndex: local + i, assetID: o.assetID, output: o.output }));
}

/** Signs every credential of a built tx with the key (one signature per signature index) and attaches them. */
export function signBuilt(step: Pick<BuiltTx, 'chain' | 'bytes' | 'sigIndices'>, signer: LocalSigner): Uint8Array {
  // The hash of the kept bytes themselves, never a stored copy of it.
  const hash = sha256(step.bytes);
  const credentials = step.sigIndices.map((indices) => ({ signatures: indices.map(() => signer.signHash(hash)) }));
  return attachCredentials(step.chain, step.bytes, credentials);
}

async function render(ctx: ToolContext, env: LocalEnv, steps: LocalStep[], head: string[]): Promise<{ lines: string[]; fees: bigint[] }> {
  const views = steps.map((s) => decodedView(s.built!, env));
  const show = await showerFor(ctx, env, views);
  const lines = [...head];
  const fees: bigint[] = [];
  steps.forEach((s, n) => {
    const r = renderTx(s.built!, views[n]!, env, show, steps.length === 1 ? 'Tx' : `Tx ${n + 1} of ${steps.length}`);
    lines.push(...r.lines);
    fees.push(r.fee);
  });
  return { lines, fees };
}

/** The first lines of every local preview; an EVM transaction's names the chain ID its signature is valid on. */
function headLines(env: LocalEnv, evmChainId?: bigint): string[] {
  return [
    `Network: ${env.network.networkID} (prefix ${env.network.hrp})${evmChainId === undefined ? '' : `, EVM chain ID ${evmChainId}`}; signer: the local key (${env.own.x}, ${env.own.evm})`,
    env.signer.isUnlocked() ? 'Key: unlocked' : 'Key: LOCKED. The human unlocks it by typing the passphrase on the approval page; nothing can be signed until then.',
  ];
}

export function memoBytes(args: Args): Uint8Array | undefined {
  const memo = str(args.memo);
  return memo === undefined ? undefined : new TextEncoder().encode(memo);
}

export async function single(ctx: ToolContext, env: LocalEnv, step: LocalStep, extra: string[], own: string[], done: (txIDs: readonly string[]) => string): Promise<LocalSpend> {
  const { lines, fees } = await render(ctx, env, [step], headLines(env));
  return {
    steps: [step],
    lines: [...lines, ...extra],
    fee: fees[0]!,
    own,
    details: { fee: fees[0]!.toString(), unsignedSha256: [Buffer.from(step.built!.hash).toString('hex')] },
    done,
    result: (ids) => ({ txID: ids[0] ?? '' }),
  };
}

const xSend = async (args: Args, ctx: ToolContext, env: LocalEnv, payments: Array<{ assetID: unknown; amount: bigint; to: string; field: string }>) => {
  onlyOwn(env, args, 'X');
  const utxos = await fetchUtxos(ctx, 'X', [env.own.x], undefined, str(args.chain));
  const list: Payment[] = [];
  for (const p of payments) list.push({ assetID: await assetBytes(ctx, env, p.assetID), amount: p.amount, to: { addresses: [addressBytes(p.field, p.to)] } });
  const memo = memoBytes(args);
  return built(() => buildBaseTx(env.build, { chain: 'X', utxos, payments: list, ...(memo ? { memo } : {}) }));
};

export type LocalBuilder = (args: Args, ctx: ToolContext, env: LocalEnv) => Promise<LocalSpend>;

/** The transfers the local signer builds itself, by tool name (Camino's own: camino.ts). */
export const TRANSFER_BUILDERS: Record<string, LocalBuilder> = {
  xvm_send: async (args, ctx, env) => {
    const tx = await xSend(args, ctx, env, [{ assetID: args.assetID, amount: args.amount as bigint, to: String(args.to), field: 'to' }]);
    return single(ctx, env, { chain: 'X', built: tx, bytes: tx.bytes }, [], [], (ids) => `Sent on X: issued once, txID ${ids[0]}. Follow it with xvm_getTxStatus {"txID": "${ids[0]}"}.`);
  },
  xvm_sendMultiple: async (args, ctx, env) => {
    const outputs = (args.outputs as Array<{ assetID: string; amount: bigint; to: string }>).map((o) => ({ assetID: o.assetID, amount: o.amount, to: o.to, field: 'outputs' }));
    const tx = await xSend(args, ctx, env, outputs);
    return single(ctx, env, { chain: 'X', built: tx, bytes: tx.bytes }, [], [], (ids) => `Sent ${outputs.length} payments on X: issued once, txID ${ids[0]}. Follow it with xvm_getTxStatus {"txID": "${ids[0]}"}.`);
  },
  xvm_export: async (args, ctx, env) => {
    onlyOwn(env, args, 'X');
    const to = parseChainAddress(String(args.to));
    const utxos = await fetchUtxos(ctx, 'X', [env.own.x], undefined, str(args.chain));
    const assetID = await assetBytes(ctx, env, args.assetID);
    const tx = built(() => buildExportTx(env.build, { chain: 'X', destination: to.chain, utxos, amount: args.amount as bigint, assetID, to: { addresses: [to.bytes] } }));
    const next = to.chain === 'C' ? 'cx_import' : 'the P-Chain import';
    return single(ctx, env, { chain: 'X', built: tx, bytes: tx.bytes }, [`Not done yet: ${next} completes it (with txID of this export, to import only its outputs).`], [], (ids) =>
      `Exported from X: issued once, txID ${ids[0]}. Complete it with ${next} {"sourceChain": "X", "txID": "${ids[0]}"} once Accepted.`,
    );
  },
  platform_exportNative: async (args, ctx, env) => {
    onlyOwn(env, args, 'P');
    const to = parseChainAddress(String(args.to));
    const utxos = await fetchUtxos(ctx, 'P', [env.own.p]);
    const tx = built(() => buildExportTx(env.build, { chain: 'P', destination: to.chain, utxos, amount: args.amount as bigint, to: { addresses: [to.bytes] } }));
    return single(ctx, env, { chain: 'P', built: tx, bytes: tx.bytes }, ['Not done yet: xvm_import completes it (with txID of this export).'], [], (ids) =>
      `Exported from P: issued once, txID ${ids[0]}. Complete it with xvm_import {"to": "${String(args.to)}", "sourceChain": "P", "txID": "${ids[0]}"} once Accepted.`,
    );
  },
  xvm_import: async (args, ctx, env) => {
    const source = importSource(env, String(args.sourceChain), ['P', 'C']);
    const atomicUtxos = await fetchUtxos(ctx, 'X', [env.own.x], source, str(args.chain));
    const exportTxID = str(args.txID);
    const to = String(args.to);
    const tx = built(() =>
      buildImportTx(env.build, { chain: 'X', source, atomicUtxos, ...(exportTxID ? { exportTxID: parseCb58Id(exportTxID) } : { all: true }), to: { addresses: [addressBytes('to', to)] } }),
    );
    return single(ctx, env, { chain: 'X', built: tx, bytes: tx.bytes }, [importScope(exportTxID)], [to], (ids) => `Imported into X: issued once, txID ${ids[0]}. Follow it with xvm_getTxStatus {"txID": "${ids[0]}"}.`);
  },
  cx_import: async (args, ctx, env) => {
    const source = importSource(env, String(args.sourceChain), ['X', 'P']) as 'X' | 'P';
    const atomicUtxos = await fetchUtxos(ctx, 'C', [env.own.cAtomic], source, str(args.chain));
    const exportTxID = str(args.txID);
    const to = String(args.to);
    const baseFeeWei = await atomicBaseFee(ctx, args.baseFee);
    const tx = built(() => buildCImportTx(env.build, { source, atomicUtxos, ...(exportTxID ? { exportTxID: parseCb58Id(exportTxID) } : { all: true }), baseFeeWei, to: hexBytes(to) }));
    const mark = to.toLowerCase() === env.own.evm.toLowerCase() ? `${to} (your address)` : `${to} (cannot be checked as yours)`;
    return single(ctx, env, { chain: 'C', built: tx, bytes: tx.bytes }, [importScope(exportTxID), `Credited to: ${mark}`], [to], (ids) =>
      `Imported into C: issued once, txID ${ids[0]}. Follow it with cx_getAtomicTxStatus {"txID": "${ids[0]}"}.`,
    );
  },
  cx_export: async (args, ctx, env) => {
    const to = parseChainAddress(String(args.to));
    const assetID = await assetBytes(ctx, env, args.assetID);
    if (formatCb58Id(assetID) !== env.network.assetID) throw new InputError('assetID', 'the local signer exports only the native asset from C');
    // The indexer finds an export from C only by the X/P owners of its outputs, so under a daily
    // limit one to another's address could not be counted from the chain (src/local/sent.ts).
    if (ctx.config.maxSpendPerDay !== undefined && Buffer.compare(to.bytes, env.signer.addresses.shortId) !== 0) {
      throw new InputError(
        'to',
        "under CHAIN_MCP_MAX_SPEND_PER_DAY an export from C goes to the key's own X or P address: the indexer lists it only by the addresses of its outputs, so the daily total could not count one to another address from the chain; export to your own address, then send from there",
      );
    }
    const tx = await cExport(ctx, env, args.amount as bigint, to.chain as 'X' | 'P', to.bytes, args.baseFee);
    return single(ctx, env, { chain: 'C', built: tx, bytes: tx.bytes }, ['Not done yet: xvm_import completes it (with txID of this export).'], [], (ids) =>
      `Exported from C: issued once, txID ${ids[0]}. Complete it with xvm_import {"to": "${String(args.to)}", "sourceChain": "C", "txID": "${ids[0]}"} once Accepted.`,
    );
  },
  transfer: (args, ctx, env) => buildTransfer(args, ctx, env),
};

function importSource(env: LocalEnv, given: string, allowed: TxChain[]): TxChain {
  const letter = (['X', 'P', 'C'] as const).find((c) => c === given || env.chainIDs[c] === given);
  if (!letter || !allowed.includes(letter)) throw new InputError('sourceChain', `expected ${allowed.join(' or ')} (or its chain ID), got ${given}`);
  return letter;
}

function importScope(exportTxID: string | undefined): string {
  return exportTxID ? `Imports: only the outputs of export ${exportTxID}` : 'Imports: everything waiting for the key from that chain (every input listed below)';
}

async function cExport(ctx: ToolContext, env: LocalEnv, amount: bigint, destination: 'X' | 'P', toBytes: Uint8Array, givenBaseFee: unknown): Promise<BuiltTx> {
  const [nonce, balanceWei, baseFeeWei] = await Promise.all([
    evmNumber(ctx, 'eth_getTransactionCount', [env.own.evm, 'latest']),
    evmNumber(ctx, 'eth_getBalance', [env.own.evm, 'latest']),
    atomicBaseFee(ctx, givenBaseFee),
  ]);
  return built(() => buildCExportTx(env.build, { destination, amount, nonce, baseFeeWei, balance: balanceWei / WEI_PER_UNIT, to: { addresses: [toBytes] } }));
}

/**
 * `transfer`: one send on X, or an export and its import, BOTH built (the export signed, since the
 * import names its outputs by the export's ID = sha256 of its signed bytes) before either is issued.
 */
async function buildTransfer(args: Args, ctx: ToolContext, env: LocalEnv): Promise<LocalSpend> {
  if (isHexAddress(String(args.to))) return evmSend(args, ctx, env);
  const to = parseChainAddress(String(args.to));
  const from = (str(args.sourceChain) ?? 'X') as TxChain;
  const amount = args.amount as bigint;
  const show = (v: bigint) => nativeAmount(v, env.network).display;
  if (to.chain === 'X' && from === 'X') {
    const tx = await xSend(args, ctx, env, [{ assetID: env.network.assetID, amount, to: String(args.to), field: 'to' }]);
    const spend = await single(ctx, env, { chain: 'X', built: tx, bytes: tx.bytes }, [`Arrives: ${show(amount)} at ${String(args.to)}`], [], (ids) =>
      `Transfer complete (X->X): issued once, txID ${ids[0]}. Follow it with wait_for_tx or tx_status.`,
    );
    return { ...spend, result: (ids) => ({ route: 'X->X', complete: true, txID: ids[0] ?? '', steps: [{ step: 1, action: 'send', chain: 'X', status: 'issued', txID: ids[0] }] }) };
  }
  // Cross-chain: the import is signed by the key, so the funds must wait for the key's own address.
  const own = to.chain === 'C' ? env.own.cAtomic : env.own.x;
  if (String(args.to) !== own) throw new InputError('to', `a cross-chain transfer ends with an import the key signs, so it goes to the key's own ${own}; send on from there`);
  if (!env.signer.isUnlocked()) throw new LockedForBuild('a transfer across chains signs its export to name it in the import');
  let exportTx: BuiltTx;
  if (from === 'C') exportTx = await cExport(ctx, env, amount, 'X', to.bytes, undefined);
  else {
    const utxos = await fetchUtxos(ctx, from, [from === 'X' ? env.own.x : env.own.p]);
    exportTx = built(() => buildExportTx(env.build, { chain: from as 'X' | 'P', destination: to.chain, utxos, amount, to: { addresses: [to.bytes] } }));
  }
  const signedExport = signBuilt(exportTx, env.signer);
  const exportID = txIdOf(signedExport);
  const atomicUtxos = exportedUtxos(exportTx, signedExport);
  const all = args.all === true;
  let importTx: BuiltTx;
  let credited = String(args.to);
  if (to.chain === 'C') {
    // With `all`, whatever else waits for the key on C is swept in too (listed input by input).
    const waiting = all ? await fetchUtxos(ctx, 'C', [env.own.cAtomic], from) : [];
    const evm = str(args.evmAddress) ?? env.own.evm;
    credited = evm;
    const baseFeeWei = await atomicBaseFee(ctx, undefined);
    importTx = built(() => buildCImportTx(env.build, { source: from as 'X' | 'P', atomicUtxos: [...atomicUtxos, ...waiting], ...(all ? { all: true } : { exportTxID: parseCb58Id(exportID) }), baseFeeWei, to: hexBytes(evm) }));
  } else {
    const waiting = all ? await fetchUtxos(ctx, 'X', [env.own.x], from) : [];
    importTx = built(() =>
      buildImportTx(env.build, { chain: 'X', source: from, atomicUtxos: [...atomicUtxos, ...waiting], ...(all ? { all: true } : { exportTxID: parseCb58Id(exportID) }), to: { addresses: [to.bytes] } }),
    );
  }
  const steps: LocalStep[] = [
    { chain: from, built: exportTx, bytes: exportTx.bytes, expectId: exportID },
    { chain: to.chain, built: importTx, bytes: importTx.bytes },
  ];
  const { lines, fees } = await render(ctx, env, steps, [
    ...headLines(env),
    `Route: ${from} -> ${to.chain}, two transactions (export ${exportID}, then its import), both built now and approved together`,
  ]);
  const importView = decodedView(importTx, env);
  const arriving = importView.outputs.filter((o) => o.assetID === env.network.assetID).reduce((s, o) => s + o.amount, 0n);
  const evmMark =
    to.chain === 'C' ? [`Credited to: ${credited}${credited.toLowerCase() === env.own.evm.toLowerCase() ? ' (your address)' : ' (cannot be checked as yours)'}`] : [];
  return {
    steps,
    lines: [
      ...lines,
      ...evmMark,
      `Fees: ${show(fees[0]!)} (export) + ${show(fees[1]!)} (import) = ${show(fees[0]! + fees[1]!)}`,
      `Arrives: ${show(arriving)} at ${credited} (the amount less the import fee${all ? ', plus everything else waiting' : ''})`,
      'If the import fails, the exported funds wait on the destination chain and can be imported later with its txID; nothing is retried automatically.',
    ],
    fee: fees[0]! + fees[1]!,
    // Nothing to add: `to` is the key's own (refused above otherwise); a given evmAddress is in the tool's own limits.
    own: [],
    details: { route: `${from}->${to.chain}`, exportTxID: exportID, arrives: arriving.toString(), fees: fees.map(String), unsignedSha256: steps.map((s) => Buffer.from(s.built!.hash).toString('hex')) },
    done: (ids) => `Transfer complete (${from}->${to.chain}): export ${ids[0]}, import ${ids[1]}, each issued once. Follow them with wait_for_tx or tx_status.`,
    // Asked for once step 1 is issued; a transfer stopped before its import is answered through
    // stoppedResult, which says what became of step 2 (its txID here then undefined, left out of JSON).
    result: (ids, complete) => ({
      route: `${from}->${to.chain}`,
      complete,
      txID: ids.at(-1) ?? '',
      steps: [
        { step: 1, action: 'export', chain: from, status: 'issued', txID: ids[0] },
        { step: 2, action: 'import', chain: to.chain, status: 'issued', txID: ids[1] },
      ],
    }),
  };
}

/**
 * An EVM value transfer on C from the key's 0x address: chain ID, nonce, base fee and tip from the
 * node, an EIP-1559 transaction (src/codec/evm-tx.ts, proven against viem); the preview is read back from those bytes, and
 * the fee shown and counted is the most it can cost (gas limit × the signed maximum fee per gas).
 */
async function evmSend(args: Args, ctx: ToolContext, env: LocalEnv): Promise<LocalSpend> {
  const { parseEvmTx, serializeEip1559 } = await import('../codec/evm-tx.js');
  const to = String(args.to) as `0x${string}`;
  const value = (args.amount as bigint) * WEI_PER_UNIT;
  const [chainId, nonce, baseFee, tip, balance] = await Promise.all([
    evmNumber(ctx, 'eth_chainId', []),
    evmNumber(ctx, 'eth_getTransactionCount', [env.own.evm, 'latest']),
    evmNumber(ctx, 'eth_baseFee', []),
    evmNumber(ctx, 'eth_maxPriorityFeePerGas', []),
    evmNumber(ctx, 'eth_getBalance', [env.own.evm, 'latest']),
  ]);
  // Before anything is built or signed: the chain the signature is valid on is the network's own.
  checkEvmChainId(ctx.config.expectNetworkId ?? env.network.networkID, chainId);
  const gas = await evmNumber(ctx, 'eth_estimateGas', [{ from: env.own.evm, to, value: `0x${value.toString(16)}` }]);
  // Room for the base fee to double before the tx is mined; never more than this is paid.
  const maxFeePerGas = baseFee * 2n + tip;
  const bytes = serializeEip1559({ chainId, nonce, to, value, gas, maxFeePerGas, maxPriorityFeePerGas: tip, data: new Uint8Array() });
  const back = parseEvmTx(bytes).fields;
  const show = (wei: bigint) => nativeAmount(wei / WEI_PER_UNIT, env.network).display;
  const maxFeeWei = back.gas * back.maxFeePerGas;
  const feeUnits = (maxFeeWei + WEI_PER_UNIT - 1n) / WEI_PER_UNIT;
  const mark = back.to?.toLowerCase() === env.own.evm.toLowerCase() ? ' (your address)' : '';
  const lines = [
    ...headLines(env, back.chainId),
    `Tx: C-Chain EVM send (EIP-1559), chain ID ${back.chainId}, from ${env.own.evm}, nonce ${back.nonce}`,
    `Tx to: ${back.to}${mark}`,
    `Tx value: ${show(back.value)} (${back.value} wei)`,
    `Tx fee: at most ${show(maxFeeWei)} (gas limit ${back.gas} x at most ${back.maxFeePerGas} wei per gas, tip ${back.maxPriorityFeePerGas} wei); the unused part is not charged`,
    `Balance after: at least ${show(balance - back.value - maxFeeWei)} (now ${show(balance)})`,
    `Tx approves exactly: sha256 0x${Buffer.from(sha256(bytes)).toString('hex')} of ${bytes.length} unsigned bytes`,
  ];
  return {
    steps: [{ chain: 'EVM', bytes }],
    lines,
    fee: feeUnits,
    own: [],
    details: { fee: feeUnits.toString(), chainId: String(back.chainId), nonce: String(back.nonce), maxFeeWei: maxFeeWei.toString() },
    done: (ids) => `Sent on C: issued once, transaction hash ${ids[0]}. Follow it with eth_getTransactionReceipt {"txHash": "${ids[0]}"}.`,
    result: (ids) => ({ route: 'C->C', complete: true, txID: ids[0] ?? '', steps: [{ step: 1, action: 'send', chain: 'C', status: 'issued', txID: ids[0] }] }),
  };
}
