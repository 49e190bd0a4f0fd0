/** transfer: one spend moving the native asset between X, P and C, export and import included. */
import { z } from 'zod';
import { isHexAddress, parseChainAddress } from '../../codec/index.js';
import { amount, hexAddress } from '../../core/fields.js';
import { defineTool, type SpendPlan, type ToolContext } from '../../core/tool.js';
import { ChainMcpError, InputError, toChainMcpError } from '../../errors.js';
import { atomicFee, boundedBaseFee, exportGas, importGas } from '../../spend/atomic-fee.js';
import { type AtomicWaiting, atomicWaiting, credentials, onChain, ownMark, pUnlocked, txFees, userXAddresses, xBalance } from '../../spend/plan.js';
import { nativeAmount } from '../../summarize/format.js';
import { arr, bareOf, FINAL, rec, sleep, str } from './shared.js';

type Chain = 'X' | 'P' | 'C';
interface Route {
  from: Chain;
  to: Chain;
  steps: Array<{ action: 'send' | 'export' | 'import'; chain: Chain }>;
}

const transferInput = z.strictObject({
  to: z
    .string()
    .max(200)
    .superRefine((v, c) => {
      if (isHexAddress(v)) return;
      try {
        parseChainAddress(v, { chains: ['X', 'P', 'C'] });
      } catch (err) {
        c.addIssue({ code: 'custom', message: (err as Error).message });
      }
    })
    .describe('Recipient: X-... (any owner from X; your own from P or C), C-... of your own key, or a 0x address (an EVM send from C; local signer).'),
  amount: amount(undefined, 'native'),
  sourceChain: z.enum(['X', 'P', 'C']).default('X').describe('Chain the funds leave: X (default), P (unlocked funds) or C.'),
  evmAddress: hexAddress('To C only: the 0x address the import credits; default with the local signer: the key\'s own.').optional(),
  all: z.boolean().optional().describe('Local signer, cross-chain: also import everything else waiting for the key (default: only this export).'),
});
type TransferInput = z.output<typeof transferInput>;

const StepOut = z.object({
  step: z.number(),
  action: z.enum(['send', 'export', 'import']),
  chain: z.enum(['X', 'P', 'C']),
  status: z.enum(['issued', 'failed', 'unknown', 'not_run']),
  txID: z.string().optional(),
  error: z.string().optional(),
});
type StepOut = z.infer<typeof StepOut>;

function routeOf(i: TransferInput): Route {
  if (isHexAddress(i.to)) {
    if (i.sourceChain !== 'C') throw new InputError('sourceChain', 'a 0x recipient is paid on the C-Chain: set sourceChain "C"');
    if (i.evmAddress !== undefined) throw new InputError('evmAddress', 'only for a transfer to a C- address; remove it');
    return { from: 'C', to: 'C', steps: [{ action: 'send', chain: 'C' }] };
  }
  const dest = parseChainAddress(i.to).chain;
  if (dest === 'P') {
    throw new InputError('to', 'a transfer cannot end on the P-Chain: the spec has no P-Chain import; send to an X address');
  }
  if (i.evmAddress !== undefined && dest !== 'C') throw new InputError('evmAddress', 'only for a transfer to C; remove it');
  if (dest === 'X') {
    if (i.sourceChain === 'X') return { from: 'X', to: 'X', steps: [{ action: 'send', chain: 'X' }] };
    return { from: i.sourceChain, to: 'X', steps: [{ action: 'export', chain: i.sourceChain }, { action: 'import', chain: 'X' }] };
  }
  if (i.sourceChain !== 'X') {
    throw new InputError('sourceChain', `a transfer to C must start on X (got ${i.sourceChain}); for C to C use the EVM tools`);
  }
  return { from: 'X', to: 'C', steps: [{ action: 'export', chain: 'X' }, { action: 'import', chain: 'C' }] };
}

/** The native asset's ID: from the network configuration, else xvm.getAssetDescription with no assetID (spec: returns the native asset). */
async function nativeAlias(ctx: ToolContext): Promise<string> {
  const network = await ctx.network();
  if (network.assetID) return network.assetID;
  const described = await ctx.call('xvm_getAssetDescription', {}).catch(() => undefined);
  const id = str(described?.assetID);
  if (id) return id;
  if (network.assetSymbol) return network.assetSymbol;
  throw new ChainMcpError('not_configured', 'The node did not say which asset is native.', { hint: 'Use xvm_send or xvm_export with an explicit assetID.' });
}

/** A cross-chain import must be signed by the destination key: it must be one of the keystore user's. */
async function requireOwnDestination(ctx: ToolContext, i: TransferInput): Promise<void> {
  const own = new Set((await userXAddresses(ctx)).map(bareOf));
  if (!own.has(bareOf(i.to))) {
    throw new InputError(
      'to',
      `a cross-chain transfer ends with an import that the destination key signs, and ${i.to} is not an address of the keystore user; move to your own address first, then send on that chain`,
    );
  }
}

function stepLine(route: Route, n: number, i: TransferInput, fee: string, atomicFee: string, amountText: string): string {
  const s = route.steps[n]!;
  if (s.action === 'send') return `Step 1: xvm.send ${amountText} to ${i.to} on X (fee ${fee})`;
  if (s.action === 'export') {
    const method = s.chain === 'X' ? 'xvm.export' : s.chain === 'P' ? 'platform.exportNative' : 'cx.export';
    return `Step 1: ${method} ${amountText} from ${s.chain} to ${i.to} (fee ${s.chain === 'C' ? atomicFee : fee})`;
  }
  const method = s.chain === 'X' ? 'xvm.import' : 'cx.import';
  return `Step 2: ${method} on ${s.chain} from ${route.from} to ${s.chain === 'C' ? i.evmAddress : i.to} (fee ${s.chain === 'C' ? atomicFee : fee}, taken from the imported funds)`;
}

const transferPlan = async (i: TransferInput, ctx: ToolContext): Promise<SpendPlan> => {
  const route = routeOf(i);
  if (route.from === 'C' && route.to === 'C') {
    throw new InputError('to', 'an EVM send (to a 0x address) is signed by the local signer (CHAIN_MCP_SIGNER=local); the keystore signer cannot sign it');
  }
  // The keystore signer cannot tell the key's 0x address; the local signer defaults to it.
  if (route.to === 'C' && i.evmAddress === undefined) throw new InputError('evmAddress', 'required for a transfer to C: the 0x address the import credits');
  const network = await ctx.network();
  const show = (v: bigint) => nativeAmount(v, network).display;
  const { txFee } = await txFees(ctx);
  if (route.steps.length > 1) await requireOwnDestination(ctx, i);
  // A C step burns gas x base fee (the node's current one, sent explicitly): bounded here by the
  // largest transaction the node can build, one input per key for an export, every output
  // waiting for the key plus this export's for an import.
  let cFee = 0n;
  let cFeeText = '';
  let baseFee: bigint | undefined;
  // What already waits for the key on the destination: the node's import takes all of it, not only this amount.
  let waitingNow: AtomicWaiting | undefined;
  if (route.steps.some((st) => st.chain === 'C')) {
    const bounded = await boundedBaseFee(ctx, undefined);
    baseFee = bounded.baseFee;
    const keys = await userXAddresses(ctx);
    let gas: bigint;
    if (route.from === 'C') gas = exportGas(Math.max(1, keys.length), [1]);
    else {
      const waiting = await atomicWaiting(ctx, 'cx', keys.map((a) => onChain(a, 'C')), route.from, network);
      waitingNow = waiting;
      if (!waiting) {
        throw new ChainMcpError('policy', 'The node did not list the outputs waiting on C, so the import fee has no bound; nothing was sent.', {
          hint: 'Try again when cx_getUTXOs answers for your addresses.',
        });
      }
      gas = importGas([...waiting.signatures, 1], Math.max(1, waiting.assets));
    }
    cFee = atomicFee(gas, baseFee);
    cFeeText = `at most ${show(cFee)}: gas at most ${gas} x base fee ${baseFee} wei`;
  }
  const atomicFeeText = cFeeText;
  let before: bigint | undefined;
  if (route.from === 'X') before = await xBalance(ctx, await userXAddresses(ctx), await nativeAlias(ctx));
  else if (route.from === 'P') before = await pUnlocked(ctx, (await userXAddresses(ctx)).map((a) => `P-${bareOf(a)}`), network.assetID);
  const leaving = i.amount + (route.from === 'C' ? cFee : txFee);
  if (route.steps.length > 1 && route.to === 'X') waitingNow = await atomicWaiting(ctx, 'xvm', await userXAddresses(ctx), route.from, network);
  const importFee = route.to === 'C' ? cFee : txFee;
  const arriving = i.amount + (waitingNow?.native ?? 0n);
  const arrives = route.steps.length > 1 ? (arriving > importFee ? arriving - importFee : 0n) : undefined;
  // Shown after the Arrives line, so only for a cross-chain route.
  const sweep = !waitingNow
    ? [`The node's import takes everything waiting for your key from ${route.from} on ${route.to}, not only this amount (the node did not list what waits there now).`]
    : waitingNow.native > 0n
      ? [`The node's import takes everything waiting for your key from ${route.from} on ${route.to}: ${show(waitingNow.native)} already waits there besides this ${show(i.amount)}, so more than the amount arrives.`]
      : [];
  // X and P steps pay txFee each, a C step its atomic fee.
  const fee = txFee * BigInt(route.steps.filter((st) => st.chain !== 'C').length) + cFee;
  const lines = [
    `Network: ${network.networkID} (prefix ${network.hrp})`,
    `Route: ${route.from} -> ${route.to}, ${route.steps.length === 1 ? 'one transaction' : 'two transactions (export, then import), run in order after one confirmation'}`,
    `Amount: ${show(i.amount)} to ${i.to}${route.to === 'C' ? ` (credited to ${await ownMark(ctx, i.evmAddress!)})` : ''}`,
    `Fees: at most ${show(fee)} in all, counted against the limits`,
    ...route.steps.map((_, n) => stepLine(route, n, i, show(txFee), atomicFeeText, show(i.amount))),
    "Change to: one of your addresses (the node picks)",
    ...(arrives !== undefined ? [`Arrives: ${route.to === 'C' ? 'at least' : 'about'} ${show(arrives)} after the import fee`, ...sweep] : []),
    route.from === 'C' ? 'Balance after on C: check eth_getBalance' : before === undefined ? 'Balance after: unknown' : before < leaving ? `Balance: NOT ENOUGH, you hold ${show(before)} unlocked on ${route.from} and this needs ${show(leaving)}` : `Balance after on ${route.from}: ${show(before - leaving)} (now ${show(before)})`,
    ...(route.steps.length > 1 ? ['If the import fails, the exported funds wait on the destination chain and can be imported later; nothing is retried automatically.'] : []),
  ];
  return {
    lines,
    details: {
      to: i.to,
      amount: i.amount.toString(),
      ...(route.to === 'C' ? { evmAddress: i.evmAddress } : {}),
      route: `${route.from}->${route.to}`,
      steps: route.steps.map((s, n) => ({ step: n + 1, action: s.action, chain: s.chain })),
      txFee: txFee.toString(),
      maxFee: fee.toString(),
    },
    fee,
    ...(baseFee !== undefined ? { send: { baseFee } } : {}),
  };
};

/** Issues one step through the node; the caller decides what a failure means. */
async function issueStep(ctx: ToolContext, route: Route, n: number, i: TransferInput & { baseFee?: bigint }): Promise<string> {
  const s = route.steps[n]!;
  const cred = credentials(ctx);
  const asset = await nativeAlias(ctx);
  const amountWire = i.amount;
  let raw: unknown;
  if (s.action === 'send') raw = await ctx.rpc('xvm', 'xvm.send', { amount: amountWire, assetID: asset, to: i.to, ...cred }, { retry: false });
  else if (s.action === 'export' && s.chain === 'X') raw = await ctx.rpc('xvm', 'xvm.export', { to: i.to, amount: amountWire, assetID: asset, ...cred }, { retry: false });
  else if (s.action === 'export' && s.chain === 'P') raw = await ctx.rpc('platform', 'platform.exportNative', { amount: amountWire, to: i.to, ...cred }, { retry: false });
  else if (s.action === 'export') raw = await ctx.rpc('cx', 'cx.export', { to: i.to, amount: amountWire, assetID: asset, baseFee: i.baseFee, ...cred }, { retry: false });
  else if (s.chain === 'X') raw = await ctx.rpc('xvm', 'xvm.import', { to: i.to, sourceChain: route.from, ...cred }, { retry: false });
  else raw = await ctx.rpc('cx', 'cx.import', { to: i.evmAddress, sourceChain: route.from, baseFee: i.baseFee, ...cred }, { retry: false });
  const txID = str(rec(raw).txID);
  if (!txID) throw new ChainMcpError('malformed', `The node answered ${s.action} on ${s.chain} without a txID.`);
  return txID;
}

const EXPORT_WAIT_MS = 60_000;

/** Waits (bounded) until the export is accepted, so the import finds the funds. */
async function awaitExport(ctx: ToolContext, route: Route, txID: string, i: TransferInput): Promise<'Accepted' | string> {
  const deadline = ctx.now() + EXPORT_WAIT_MS;
  for (let polls = 1; ; polls++) {
    let status = 'Unknown';
    if (route.from === 'X') status = str((await ctx.call('xvm_getTxStatus', { txID })).status);
    else if (route.from === 'C') status = str((await ctx.call('cx_getAtomicTxStatus', { txID })).status);
    else {
      // The P-Chain has no status method in the spec: the export is accepted once its own outputs
      // wait on X (outputs of earlier exports may wait there already, and prove nothing).
      const waiting = await ctx.call('xvm_getUTXOs', { addresses: [i.to], sourceChain: 'P', items: 1024 });
      status = arr(waiting.utxos).some((u) => str(rec(u).txID) === txID) ? 'Accepted' : 'Processing';
    }
    await ctx.progress(polls, undefined, `export ${txID}: ${status}`);
    if (FINAL.has(status) || ctx.now() >= deadline) return status;
    await sleep(500, ctx.signal);
  }
}

export const transfer = defineTool({
  name: 'transfer',
  title: 'Transfer the native asset',
  description:
    'Move the native asset from your own addresses (the signing key: the local key or the keystore user) to an X or C address, same chain (one send) or cross-chain (export then import, one confirmation). Returns a preview first; run again with confirm.',
  tier: 'spend',
  toolset: 'assistant',
  input: transferInput,
  output: z.object({
    route: z.string(),
    complete: z.boolean(),
    txID: z.string().describe('The last transaction issued.'),
    steps: z.array(StepOut),
    next: z.string().optional().describe('What to do when the transfer stopped part way.'),
  }),
  validate: (i) => void routeOf(i),
  plan: transferPlan,
  // The C import credits evmAddress: it is a recipient too, and like cx_import's destination it
  // must be the user's own (marked, and refused under any limit when that cannot be told).
  limits: (i) => ({ amount: i.amount, recipients: i.evmAddress === undefined ? [i.to] : [i.to, i.evmAddress], own: i.evmAddress === undefined ? [] : [i.evmAddress] }),
  run: async (i, ctx) => {
    const route = routeOf(i);
    const steps: StepOut[] = route.steps.map((s, n) => ({ step: n + 1, action: s.action, chain: s.chain, status: 'not_run' }));
    // Step 1: a failure here propagates; nothing moved (or the outcome is unknown, reported by the spend layer).
    const first = await issueStep(ctx, route, 0, i);
    steps[0] = { ...steps[0]!, status: 'issued', txID: first };
    const done = (complete: boolean, next?: string) => ({ route: `${route.from}->${route.to}`, complete, txID: steps.filter((s) => s.txID).at(-1)!.txID!, steps, ...(next ? { next } : {}) });
    if (route.steps.length === 1) return done(true);
    const importTool = route.to === 'C' ? 'cx_import' : 'xvm_import';
    const importArgs = JSON.stringify({ to: route.to === 'C' ? i.evmAddress : i.to, sourceChain: route.from });
    const later = `The exported funds wait on ${route.to}; import them with ${importTool} ${importArgs} once the export is Accepted (tx_status ${first}).`;
    let exportStatus: string;
    try {
      exportStatus = await awaitExport(ctx, route, first, i);
    } catch (err) {
      steps[1] = { ...steps[1]!, error: `not run: could not confirm the export (${toChainMcpError(err).message})` };
      return done(false, later);
    }
    if (exportStatus !== 'Accepted') {
      steps[1] = { ...steps[1]!, error: `not run: the export is ${exportStatus}` };
      return done(false, exportStatus === 'Rejected' || exportStatus === 'Dropped' ? 'The export did not go through; nothing left the source chain.' : later);
    }
    try {
      steps[1] = { ...steps[1]!, status: 'issued', txID: await issueStep(ctx, route, 1, i) };
    } catch (err) {
      const e = toChainMcpError(err);
      const unknown = e.kind === 'timeout' || e.kind === 'connection' || e.kind === 'malformed' || e.kind === 'cancelled';
      steps[1] = { ...steps[1]!, status: unknown ? 'unknown' : 'failed', error: e.message };
      return done(false, unknown ? `The import's outcome is unknown; do not repeat it blindly: check account_overview for ${i.to} first. ${later}` : later);
    }
    return done(true);
  },
  summarize: (o) =>
    [
      `${o.complete ? 'Transfer complete' : 'Transfer stopped part way'} (${o.route}):`,
      ...o.steps.map((s) => `- step ${s.step} ${s.action} on ${s.chain}: ${s.status}${s.txID ? `, txID ${s.txID}` : ''}${s.error ? ` (${s.error})` : ''}`),
      ...(o.next ? [o.next] : []),
      'Follow it with wait_for_tx or tx_status.',
    ].join('\n'),
});
