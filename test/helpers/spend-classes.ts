import type { ToolDef } from '../../src/core/tool.js';
import { type ChainLetter, formatChainAddress, parseChainAddress } from '../../src/codec/index.js';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { EXAMPLES } from '../contract/examples/index.js';

/**
 * What each spend tool moves and pays, written down here independently of the tools' own
 * `limits` (test/integration/limits.test.ts drives them over MCP, test/unit/spend-limits.test.ts
 * calls them directly), so a tool that forgets an amount or a recipient field fails.
 */
export type Args = Record<string, unknown>;

/** EIP-155 example: to 0x3535...35, value 1 ether = 10^9 native smallest units. */
export const RAW_TO = '0x3535353535353535353535353535353535353535';

/** Fund-moving tools: the amount leaving the user's control, from the arguments (docs/choices.md). */
export const MOVES: Record<string, (a: Args) => bigint> = {
  xvm_send: (a) => BigInt(a.amount as string),
  wallet_send: (a) => BigInt(a.amount as string),
  xvm_sendMultiple: (a) => (a.outputs as Args[]).reduce((s, o) => s + BigInt(o.amount as string), 0n),
  xvm_export: (a) => BigInt(a.amount as string),
  cx_export: (a) => BigInt(a.amount as string),
  platform_exportNative: (a) => BigInt(a.amount as string),
  platform_addValidator: (a) => BigInt(a.stakeAmount as string),
  platform_addDelegator: (a) => BigInt(a.stakeAmount as string),
  transfer: (a) => BigInt(a.amount as string),
  // Value 1 ether (10^9 units) plus the maximum fee: 21,000 gas x 20 gwei = 4.2 x 10^14 wei = 420,000 units.
  eth_sendRawTransaction: () => 1_000_000_000n + 420_000n,
};
/** Spend tools where only the fee leaves the user (creations, mints, NFT moves, imports, subnet admin). */
export const FEE_ONLY = [
  'xvm_createFixedCapAsset',
  'xvm_createVariableCapAsset',
  'xvm_createNFTAsset',
  'xvm_mint',
  'xvm_mintNFT',
  'xvm_sendNFT',
  'xvm_import',
  'cx_import',
  'platform_addSubnetValidator',
  'platform_createSubnet',
  'platform_createBlockchain',
  'platform_setAddressState',
  // Rewards come in to `to`; only the fee leaves.
  'platform_claim',
];
/** Signed bytes the server cannot read: refused under any amount or recipient limit. */
export const OPAQUE = ['xvm_issueTx', 'wallet_issueTx', 'cx_issueTx'];
/** Address fields that receive nothing: who pays, who controls, who may mint. */
// nodeOwnerAddress: the key that signs for the node in platform.addValidator; nothing moves to it (docs/real-nodes.md).
// owner: the reward owner a claim draws on (platform_claim); the rewards go to `to`.
export const NOT_RECIPIENTS = new Set(['from', 'controlKeys', 'minters', 'nodeOwnerAddress', 'owner']);
/** Recipients hidden inside bytes, decoded by the tool. */
export const DECODED_RECIPIENTS: Record<string, string[]> = { eth_sendRawTransaction: [RAW_TO] };

/**
 * Spends caminogo has no keystore method for (a deposit, an unlock): under the keystore signer they
 * refuse before any request, whatever the limits (test/integration/camino.test.ts).
 */
export const LOCAL_SIGNER_ONLY = ['platform_deposit', 'platform_unlockDeposit'];

export const SPEND = CATALOGUE.filter((t) => t.tier === 'spend' && !LOCAL_SIGNER_ONLY.includes(t.name));

/** The argument sets tried per tool: the contract example (with a change address where the tool takes one) and extra routes. */
export function argSets(tool: ToolDef): Args[] {
  const base = structuredClone(EXAMPLES[tool.name]!.args);
  if ('changeAddr' in tool.input.shape && base.changeAddr === undefined) {
    const hrp = hrpOf(base);
    const candidates = (['X', 'P'] as ChainLetter[]).map((c) => formatChainAddress(c, hrp, new Uint8Array(20).fill(0x33)));
    base.changeAddr = candidates.find((c) => tool.input.safeParse({ ...base, changeAddr: c }).success);
  }
  if (tool.name !== 'transfer') return [base];
  // X -> C credits evmAddress on C: a recipient field the C -> X example does not have.
  const bare = (base.to as string).slice(2);
  return [base, { to: `C-${bare}`, amount: base.amount, sourceChain: 'X', evmAddress: '0x2222222222222222222222222222222222222222' }];
}

/** Every address string in the arguments outside NOT_RECIPIENTS, with its path. */
export function recipientPaths(value: unknown, path: Array<string | number> = []): Array<{ path: Array<string | number>; address: string }> {
  if (typeof value === 'string') return isAddress(value) ? [{ path, address: value }] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => recipientPaths(v, [...path, i]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => (NOT_RECIPIENTS.has(k) ? [] : recipientPaths(v, [...path, k])));
  }
  return [];
}

export function isAddress(v: string): boolean {
  if (/^0x[0-9a-fA-F]{40}$/.test(v)) return true;
  try {
    parseChainAddress(v);
    return true;
  } catch {
    return false;
  }
}

export function hrpOf(args: Args): string {
  const bech = recipientPaths(args).find((r) => /^[XPC]-/.test(r.address));
  return bech ? parseChainAddress(bech.address).hrp : 'camino';
}

export function setAt(args: Args, path: Array<string | number>, value: string): Args {
  const copy = structuredClone(args);
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1)!] = value;
  return copy;
}

/** Another address of the same kind (chain letter or hex) under `hrp`, not in the example. */
export function another(address: string, hrp: string, fill: number): string {
  if (address.startsWith('0x')) return `0x${fill.toString(16).padStart(2, '0').repeat(20)}`;
  return formatChainAddress(address[0] as ChainLetter, hrp, new Uint8Array(20).fill(fill));
}

