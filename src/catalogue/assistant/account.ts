/** account_overview: balances, locks, atomic funds waiting and EVM balances of one address. */
import { z } from 'zod';
import { isHexAddress, parseChainAddress } from '../../codec/index.js';
import { checkAddressNetworks } from '../../context/network.js';
import { defineTool } from '../../core/tool.js';
import { ChainMcpError, InputError } from '../../errors.js';
import { networkOrBlank } from '../../summarize/chain.js';
import { relativeTime } from '../../codec/index.js';
import { AmountOut, big, nativeAmount, weiAmount } from '../../summarize/format.js';
import { Claim, Lock, pLocks } from './locks.js';
import { arr, bareOf, nowUnix, type Out, type Problem, problemLines, problemsField, rec, step, str, units, WEI_PER_UNIT } from './shared.js';

const anyAddress = z
  .string()
  .max(200)
  .superRefine((v, c) => {
    if (isHexAddress(v)) return;
    try {
      parseChainAddress(v);
    } catch (err) {
      c.addIssue({ code: 'custom', message: `${(err as Error).message}; expected X-..., P-..., C-... or 0x...` });
    }
  });

const AssetLine = z.object({ assetID: z.string(), native: z.boolean(), amount: AmountOut });
const Waiting = z.object({
  on: z.enum(['X', 'C']),
  from: z.enum(['X', 'P', 'C']),
  amount: AmountOut,
  utxos: z.number(),
  nextStep: z.string().describe('The import that makes it spendable, and the tool that does it.'),
});
const Account = z.object({
  address: z.string().describe('Bech32 address without chain prefix; one key, seen on X, P and C.'),
  x: z.array(AssetLine).describe('X-Chain balances, every asset.'),
  p: z.object({ total: AmountOut, unlocked: AmountOut, bonded: AmountOut, deposited: AmountOut, bondedDeposited: AmountOut }).optional().describe('P-Chain, native asset.'),
  waiting: z.array(Waiting).describe('Native funds exported to X or C and not imported yet.'),
  locks: z.array(Lock).optional().describe('P: why each locked amount is locked (deposit, bond) and until when.'),
  lockTimesUnknown: z.boolean().optional().describe("true: this node lacks Camino's deposit and bond methods, so when the locked amounts unlock is unknown."),
  claimable: Claim.optional().describe('P: rewards this address can claim now.'),
});
const EvmBalance = z.object({
  address: z.string(),
  balance: AmountOut.describe('Wei, exact.'),
  assets: z.array(z.object({ assetID: z.string(), amount: AmountOut })).describe('Other assets this address holds on C (X assets moved there).'),
});


/** Native part of a UTXO page (xvm_getUTXOs / cx_getUTXOs output: totals per asset). */
function nativeUtxoTotal(out: Out | undefined, nativeID: string): { total: bigint; count: number } {
  let total = 0n;
  let count = 0;
  for (const t of arr(out?.totals)) {
    const r = rec(t);
    if (nativeID && str(r.assetID) !== nativeID) continue;
    total += units(r.amount);
    count += Number(r.count ?? 0);
  }
  return { total, count };
}

/** Every page (bounded by the UTXO tools' own page cap), totals only. */
const ALL_UTXOS = { fetchAll: true, items: 0 };

/** "500 CAM deposited (deposit …) until 2027-02-14 (in about 80 days), …". */
function lockLine(l: z.infer<typeof Lock>, now: bigint): string {
  const what = l.reason === 'deposit' ? 'deposited' : l.reason === 'bond' ? `bonded${l.nodeID ? ` to ${l.nodeID}` : ''}` : `deposited and bonded${l.nodeID ? ` to ${l.nodeID}` : ''}`;
  const at = (t: { iso: string; unix: string }) => `${t.iso.slice(0, 10)} (${relativeTime(BigInt(t.unix), now)})`;
  // A validator that has not started yet (pending): its stake is locked from now, its period starts later.
  const pending = l.bondStart && BigInt(l.bondStart.unix) > now ? `, staking starts ${at(l.bondStart)}` : '';
  const until =
    l.depositUnlockTime && l.bondEnd
      ? ` until ${at(l.until!)}: the deposit unlocks ${l.depositUnlockTime.iso.slice(0, 10)}${pending}, the staking period ends ${l.bondEnd.iso.slice(0, 10)}`
      : l.until
        ? `${pending} until ${at(l.until)}`
        : ` (end unknown: the node lists no ${l.bondTxID ? 'validator for this bond' : 'deposit for this lock'})`;
  const gradual = l.unlockPeriodStart && BigInt(l.unlockPeriodStart.unix) > now ? `, unlocking gradually from ${l.unlockPeriodStart.iso.slice(0, 10)}` : '';
  const unlockable = l.unlockableNow && l.unlockableNow.value !== '0' ? `, ${l.unlockableNow.display} unlockable now` : '';
  const reward = l.depositReward ? `, deposit reward ${l.depositReward.display} claimable now${l.depositRewardOwner ? ` by its reward owner ${l.depositRewardOwner}, not this address alone` : ''}` : '';
  const ids = [l.depositTxID && `deposit ${l.depositTxID}`, l.bondTxID && `bond ${l.bondTxID}`].filter(Boolean).join(', ');
  return `${l.amount.display} ${what}${until}${gradual}${unlockable}${reward} (${ids})`;
}

/** The next step for deposits with something to unlock: ended ones and running ones apart (the node refuses them mixed). */
function unlockHints(locks: readonly z.infer<typeof Lock>[], now: bigint): string[] {
  const ready = locks.filter((l) => l.depositTxID && l.unlockableNow && l.unlockableNow.value !== '0');
  const ended = ready.filter((l) => l.depositUnlockTime && BigInt(l.depositUnlockTime.unix) <= now);
  const running = ready.filter((l) => !ended.includes(l));
  return [ended, running]
    .filter((group) => group.length > 0)
    .map((group) => `  - to unlock: platform_unlockDeposit {"depositTxIDs": ${JSON.stringify(group.map((l) => l.depositTxID))}}`);
}

export const accountOverview = defineTool({
  name: 'account_overview',
  title: 'Account overview',
  description:
    'Everything addresses hold in one call: X assets, P (unlocked; deposits and bonds with unlock dates; claimable rewards), C (0x), imports waiting, native total.',
  tier: 'read',
  toolset: 'assistant',
  input: z.strictObject({
    addresses: z
      .array(anyAddress)
      .min(1)
      .max(16)
      .optional()
      .describe("1-16 addresses: X-/P-/C-... (one covers its key on X, P and C) or 0x... (C-Chain EVM balance). Default: the local signer's key."),
  }),
  output: z.object({
    accounts: z.array(Account),
    evm: z.array(EvmBalance),
    nativeTotal: AmountOut.describe('Sum of the native parts shown, nCAM (C wei below 1 nCAM in nativeTotalWei).'),
    nativeTotalWei: AmountOut.optional().describe('With a 0x address: the same sum in wei, every digit kept.'),
    notRead: z.array(z.string()).describe('Parts not read, so not in the total.'),
    problems: problemsField,
  }),
  run: async (given, ctx) => {
    // With the local signer the user's own addresses are the key's: X (P and C share it) and its 0x address.
    const key = given.addresses ? undefined : await ctx.keyAddresses?.();
    if (!given.addresses && !key) throw new InputError('addresses', 'required: this server has no local key whose addresses it could read');
    const input = { addresses: given.addresses ?? [key!.x, key!.evm] };
    const network = await networkOrBlank(ctx);
    // Another network's address is a mistake to name, not a zero balance (only the network lookup went out).
    // The whole list, so the index named is the address's own (a 0x address never has a network prefix).
    checkAddressNetworks(input.addresses, network, 'addresses');
    const nativeID = network.assetID;
    const problems: Problem[] = [];
    const bares = [...new Set(input.addresses.filter((a) => !isHexAddress(a)).map(bareOf))];
    const hexes = [...new Set(input.addresses.filter((a) => isHexAddress(a)).map((a) => a.toLowerCase()))];
    const show = (v: bigint) => nativeAmount(v, network);
    // Every step starts in the same turn, so the node reads go out side by side.
    const evmPending = Promise.all(
      hexes.map(async (address) => {
        const out = await step(ctx, problems, `C balance of ${address}`, 'eth_getBalance', { address });
        return out ? { address, balance: weiAmount(units(out.balance), network.assetSymbol) } : undefined;
      }),
    );
    const accounts = await Promise.all(
      bares.map(async (bare) => {
        const [x, p, fromP, fromC, toC] = await Promise.all([
          step(ctx, problems, `X balances of ${bare}`, 'xvm_getAllBalances', { address: `X-${bare}` }),
          step(ctx, problems, `P balance of ${bare}`, 'platform_getBalance', { addresses: [`P-${bare}`] }),
          step(ctx, problems, `P->X imports of ${bare}`, 'xvm_getUTXOs', { addresses: [`X-${bare}`], sourceChain: 'P', ...ALL_UTXOS }),
          step(ctx, problems, `C->X imports of ${bare}`, 'xvm_getUTXOs', { addresses: [`X-${bare}`], sourceChain: 'C', ...ALL_UTXOS }),
          step(ctx, problems, `X->C imports of ${bare}`, 'cx_getUTXOs', { addresses: [`C-${bare}`], sourceChain: 'X', ...ALL_UTXOS }),
        ]);
        const xLines = arr(x?.balances).map((b) => {
          const r = rec(b);
          const a = rec(r.balance ?? r.amount);
          const assetID = str(r.assetID ?? r.asset);
          // xvm_getAllBalances resolves the node's alias ("CAM") to the ID and says which line is native.
          const native = r.native === true;
          return { assetID, native, amount: { value: str(a.value ?? r.balance), display: str(a.display ?? r.balance) } };
        });
        const pAssets = arr(p?.assets).map(rec);
        const pNative = pAssets.find((a) => str(a.assetID) === nativeID) ?? (pAssets.length === 1 ? pAssets[0] : undefined);
        const zero = show(0n);
        const pPart = p
          ? {
              total: (pNative?.total as AmountOut) ?? zero,
              unlocked: (pNative?.unlocked as AmountOut) ?? zero,
              bonded: (pNative?.bonded as AmountOut) ?? zero,
              deposited: (pNative?.deposited as AmountOut) ?? zero,
              bondedDeposited: (pNative?.bondedDeposited as AmountOut) ?? zero,
            }
          : undefined;
        const waiting: z.infer<typeof Waiting>[] = [];
        for (const [out, on, from] of [
          [fromP, 'X', 'P'],
          [fromC, 'X', 'C'],
          [toC, 'C', 'X'],
        ] as const) {
          const { total, count } = nativeUtxoTotal(out, nativeID);
          const nextStep =
            on === 'X'
              ? `import it with xvm_import {"to": "X-${bare}", "sourceChain": "${from}"}`
              : `import it with cx_import {"to": "<this key's 0x address>", "sourceChain": "X"}`;
          if (count > 0) waiting.push({ on, from, amount: show(total), utxos: count, nextStep });
        }
        // Locked P funds: why and until when, from the UTXOs' lock IDs (a Camino node's own methods).
        let pExtra: { locks?: z.infer<typeof Lock>[]; claimable?: z.infer<typeof Claim>; lockTimesUnknown?: boolean } = {};
        if (pPart && big(pPart.total.value) !== big(pPart.unlocked.value)) {
          try {
            const { locks, claim } = await pLocks(ctx, `P-${bare}`, network);
            pExtra = { locks, claimable: claim };
          } catch (err) {
            // A node of the spec's API has no lock IDs to read: the P line above is all it can tell, and the answer says so first.
            if (err instanceof ChainMcpError && err.message.startsWith('This node does not offer')) pExtra = { lockTimesUnknown: true };
            else problems.push({ step: `P locks of ${bare}`, error: (err as Error).message.split('\n')[0]! });
          }
        }
        return { address: bare, x: xLines, ...(pPart ? { p: pPart } : {}), waiting, ...pExtra };
      }),
    );
    const evmNative = (await evmPending).filter((e) => e !== undefined);
    // Other assets on C: those the accounts hold on X, and the indexer's asset list when there is one.
    const candidates = new Set(accounts.flatMap((a) => a.x.filter((l) => !l.native).map((l) => l.assetID)));
    if (hexes.length > 0 && ctx.config.indexerUrl) {
      const listed = await step(ctx, problems, 'asset list', 'indexer_listAssets', { limit: 100 }).catch(() => undefined);
      for (const a of arr(listed?.assets)) {
        const id = str(rec(a).id);
        if (id && id !== nativeID) candidates.add(id);
      }
    }
    const evm = await Promise.all(
      evmNative.map(async (e) => {
        const read = await Promise.all(
          [...candidates].map(async (assetID) => {
            const out = await step(ctx, problems, `C ${assetID} balance of ${e.address}`, 'eth_getAssetBalance', { address: e.address, assetID });
            return out && units(out.balance) > 0n ? [{ assetID, amount: out.balance as AmountOut }] : [];
          }),
        );
        return { ...e, assets: read.flat() };
      }),
    );
    let total = 0n;
    for (const a of accounts) {
      for (const line of a.x) if (line.native) total += big(line.amount.value);
      if (a.p) total += big(a.p.total.value);
      for (const w of a.waiting) total += big(w.amount.value);
    }
    // Wei on C are kept to the last digit: the nCAM total counts whole nCAM, the wei total everything.
    const wei = evm.reduce((s, e) => s + big(e.balance.value), 0n);
    const totalWei = total * WEI_PER_UNIT + wei;
    total += wei / WEI_PER_UNIT;
    // The EVM balance lives at a 0x address that cannot be derived from a bech32 one.
    const notRead = bares.length > 0 && hexes.length === 0 ? ['C-Chain EVM balance: not read (give the 0x address to include it)'] : [];
    return { accounts, evm, nativeTotal: show(total), ...(evm.length ? { nativeTotalWei: weiAmount(totalWei, network.assetSymbol) } : {}), notRead, problems };
  },
  summarize: (o, _i, ctx) => {
    const now = nowUnix(ctx);
    const lines: string[] = [];
    const unknown = o.accounts.filter((a) => a.lockTimesUnknown && a.p);
    if (unknown.length) {
      const locked = unknown.map((a) => `${a.address}: bonded ${a.p!.bonded.display}, deposited ${a.p!.deposited.display}, bonded+deposited ${a.p!.bondedDeposited.display}`);
      lines.push(
        `This node cannot say when the deposited or bonded amounts unlock: it serves the spec's API, without Camino's platform.getDeposits and validator lock reads (${locked.join('; ')}). A Camino node answers it.`,
      );
    }
    for (const a of o.accounts) {
      lines.push(`${a.address}:`);
      lines.push(`- X: ${a.x.length ? a.x.map((l) => l.amount.display + (l.native ? ' (native)' : '')).join(', ') : 'nothing'}`);
      if (a.p) {
        lines.push(`- P: ${a.p.total.display} (unlocked ${a.p.unlocked.display}, bonded ${a.p.bonded.display}, deposited ${a.p.deposited.display}, bonded+deposited ${a.p.bondedDeposited.display})`);
      }
      for (const l of a.locks ?? []) lines.push(`  - ${lockLine(l, now)}`);
      lines.push(...unlockHints(a.locks ?? [], now));
      if (a.claimable && a.claimable.total.value !== '0') {
        lines.push(
          `  - claimable now: ${a.claimable.total.display} (deposit rewards ${a.claimable.depositRewards.display}, validator rewards ${a.claimable.validatorRewards.display}, expired deposit rewards ${a.claimable.expiredDepositRewards.display}); claim with platform_claim`,
        );
      }
      for (const w of a.waiting) lines.push(`- waiting for import on ${w.on} (exported from ${w.from}): ${w.amount.display} in ${w.utxos} UTXO(s); not spendable until imported: ${w.nextStep}`);
    }
    for (const e of o.evm) lines.push(`${e.address} on C: ${e.balance.display}${e.assets.length ? `; also ${e.assets.map((x) => x.amount.display).join(', ')}` : ''}`);
    lines.push(
      `Native total: ${(o.nativeTotalWei ?? o.nativeTotal).display} (X native + P total + waiting imports${o.evm.length ? ' + C EVM' : ''}).`,
      ...o.notRead,
      ...problemLines(o.problems),
    );
    return lines.join('\n');
  },
});
