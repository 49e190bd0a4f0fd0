import { formatAmount, formatChainAddress } from '../../src/codec/index.js';
import { type DevnetState, registeredId, type UserKey, utxosOf } from '../../src/devnet/state/index.js';
import type { RawApi } from './raw.js';

/** What the node and the indexer say, asked directly before the question (empty when the docs are written). */
// biome-ignore lint/suspicious/noExplicitAny: raw JSON answers, read field by field
export type Truth = Record<string, any>;

/**
 * Everyday questions a person asks an assistant, each with the tool calls an assistant should
 * make and the facts its answer must contain. The facts come from the simulator's own state, never
 * from the server, so a tool that shows a wrong number or leaves a part out fails its question.
 */
export interface EvalQuestion {
  id: string;
  /** As a person would ask it. */
  question: string;
  /** Server settings the question needs beyond the default (read tier, node and indexer URLs). */
  env?: Record<string, string>;
  /** The node's and indexer's own answers the facts are computed from (not the server's). */
  raw?(api: RawApi, world: EvalWorld): Promise<Truth>;
  /** The calls an assistant should make, in order. */
  calls(world: EvalWorld, truth: Truth): EvalCall[];
  /** What the answer must say: each fact must appear in the text of some call (what a model repeats). */
  facts(world: EvalWorld, truth: Truth): Fact[];
  /** Every fact must be in an answer's first line. */
  firstLine?: boolean;
  /** The server holds a key file beside the keystore user, as `--devnet` with a key file. */
  localKey?: boolean;
  /** The answer is a refusal (isError) that still carries the facts. */
  refusal?: boolean;
  /** Only nodes of these dialects can answer it (Camino's own methods); default both. */
  dialects?: ReadonlyArray<'spec' | 'camino'>;
}

export interface EvalCall {
  tool: string;
  args: Record<string, unknown>;
}

/** A fact: the exact text, or a pattern, with what it stands for (shown when it is missing). */
export interface Fact {
  what: string;
  text: string | RegExp;
  /** This fact must be in an answer's first line. */
  firstLine?: boolean;
}

export interface EvalWorld {
  state: DevnetState;
  /** The devnet keystore user's keys, then alice's. */
  devnet: UserKey[];
  alice: UserKey[];
}

const DAY = 86_400;
const WEI_PER_NCAM = 1_000_000_000n;

export function worldOf(state: DevnetState): EvalWorld {
  const keys = (name: string) => state.users.get(name)?.keys ?? [];
  return { state, devnet: keys(state.devnetUser), alice: keys('alice') };
}

/** The native asset in display units, the way a person writes it: `6,619.999 CAM`. */
export function cam(world: EvalWorld, value: bigint): string {
  return formatAmount(value, { decimals: 9, symbol: world.state.assetSymbol });
}

function nativeUtxoSum(world: EvalWorld, chain: 'X' | 'P' | 'C', addresses: string[], sourceChain?: 'X' | 'P' | 'C'): bigint {
  return utxosOf(world.state, chain, addresses, sourceChain ? { sourceChain } : {})
    .filter((u) => u.assetID === world.state.nativeAssetID)
    .reduce((sum, u) => sum + u.amount, 0n);
}

/** Everything of the native asset a key controls: X, P (every lock state), imports waiting on X and C, and its C-Chain EVM balance when asked. */
export function nativeHoldings(world: EvalWorld, key: UserKey, withEvm: boolean): { x: bigint; p: bigint; waiting: bigint; evm: bigint; total: bigint } {
  const x = nativeUtxoSum(world, 'X', [key.x]);
  const p = nativeUtxoSum(world, 'P', [key.p]);
  const waiting =
    nativeUtxoSum(world, 'X', [key.x], 'P') + nativeUtxoSum(world, 'X', [key.x], 'C') + nativeUtxoSum(world, 'C', [`C-${key.bech32}`], 'X') + nativeUtxoSum(world, 'C', [`C-${key.bech32}`], 'P');
  const evm = withEvm ? (world.state.cBalances.get(key.c) ?? 0n) / WEI_PER_NCAM : 0n;
  return { x, p, waiting, evm, total: x + p + waiting + evm };
}

function primaryValidators(world: EvalWorld) {
  return world.state.validators.filter((v) => v.subnetID === world.state.primaryNetworkID);
}

function isoDay(unix: number): string {
  return new Date(unix * 1000).toISOString().slice(0, 10);
}

/** A seeded deposit's reward claimable at `at` (caminogo deposit.ClaimableReward). */
function depositReward(world: EvalWorld, label: string, at: number): { amount: bigint; end: number; reward: bigint } {
  const d = world.state.deposits.get(registeredId(label))!;
  const offer = world.state.depositOffers.find((o) => o.id === d.offerID)!;
  const until = Math.min(at, d.start + d.duration - offer.noRewardsPeriodDuration);
  const earned = (d.amount * BigInt(Math.max(0, until - d.start)) * offer.interestRateNominator) / (1_000_000n * 31_536_000n);
  return { amount: d.amount, end: d.start + d.duration, reward: earned - d.claimedRewardAmount };
}

export const QUESTIONS: readonly EvalQuestion[] = [
  {
    id: 'balance-everywhere',
    question: 'What does my address hold across all chains (X, P and the C-Chain EVM account)?',
    calls: (w) => [{ tool: 'account_overview', args: { addresses: [w.devnet[0]!.x, w.devnet[0]!.c] } }],
    facts: (w) => {
      const h = nativeHoldings(w, w.devnet[0]!, true);
      return [
        { what: 'the native total, every part counted', text: cam(w, h.total) },
        { what: 'the X-Chain native balance', text: cam(w, h.x) },
        { what: 'the P-Chain total', text: cam(w, h.p) },
      ];
    },
  },
  {
    id: 'balance-x-address',
    question: "What's the balance of this X- address across all chains?",
    calls: (w) => [{ tool: 'account_overview', args: { addresses: [w.alice[0]!.x] } }],
    facts: (w) => {
      const h = nativeHoldings(w, w.alice[0]!, false);
      return [
        { what: 'the native total of X, P and waiting imports', text: cam(w, h.total) },
        { what: 'that the C-Chain EVM balance was not read and how to get it', text: /EVM[^\n]*(not read|0x)/i },
      ];
    },
  },
  {
    id: 'balance-other-network',
    question: 'What does this columbus1… address hold? (asked of a node on another network)',
    refusal: true,
    calls: (w) => [{ tool: 'account_overview', args: { addresses: [formatChainAddress('X', 'columbus', w.alice[0]!.shortId)] } }],
    facts: (w) => [
      { what: "the address's network", text: /columbus/i },
      { what: "the node's network", text: new RegExp(w.state.hrp, 'i') },
    ],
  },
  {
    id: 'validators-ending-soon',
    question: 'Which validators stop validating in the next 7 days?',
    calls: () => [{ tool: 'platform_getCurrentValidators', args: {} }],
    facts: (w) => {
      const soon = primaryValidators(w).filter((v) => v.endTime - w.state.now() <= 7 * DAY);
      return soon.flatMap((v) => [
        { what: `validator ${v.nodeID} ending soon`, text: v.nodeID },
        { what: `its end date`, text: isoDay(v.endTime) },
      ]);
    },
  },
  {
    id: 'validator-lookup',
    question: 'Tell me about this validator: stake, uptime, delegators.',
    calls: (w) => [{ tool: 'validator_lookup', args: { nodeID: primaryValidators(w)[2]!.nodeID } }],
    facts: (w) => {
      const v = primaryValidators(w)[2]!;
      return [
        { what: 'its stake', text: cam(w, v.stakeAmount) },
        { what: 'its uptime', text: String(Number(v.uptime)) },
        { what: 'its delegator count', text: new RegExp(`${v.delegators.length} delegator`) },
      ];
    },
  },
  {
    id: 'deposit-offers-open',
    question: 'What deposit offers can I put money into right now?',
    calls: () => [{ tool: 'platform_getAllDepositOffers', args: {} }],
    facts: (w) => {
      const now = w.state.now();
      const open = w.state.depositOffers.filter((o) => (o.flags & 1n) === 0n && o.start <= now && now < o.end);
      const locked = w.state.depositOffers.filter((o) => (o.flags & 1n) === 1n);
      return [
        { what: 'how many take new deposits now', text: new RegExp(`${open.length} open`) },
        ...open.map((o) => ({ what: `the open offer's rate`, text: `${Number(o.interestRateNominator) / 10_000} %` })),
        ...locked.map(() => ({ what: 'why a locked offer takes no deposits', text: /locked[^\n]*(refuses new deposits|no new deposits|takes no)/i })),
      ];
    },
  },
  {
    id: 'staking-totals',
    question: 'How much is staked on the network, and how many validators are there?',
    calls: () => [{ tool: 'network_overview', args: {} }],
    facts: (w) => {
      const vs = primaryValidators(w);
      const delegated = vs.reduce((s, v) => s + v.delegators.reduce((d, x) => d + x.stakeAmount, 0n), 0n);
      const own = vs.reduce((s, v) => s + v.stakeAmount, 0n);
      return [
        { what: 'the total stake', text: cam(w, own + delegated) },
        { what: 'the delegated stake', text: cam(w, delegated) },
        { what: 'the validator count', text: new RegExp(`${vs.length} validator`) },
        { what: 'the minimum validator stake', text: cam(w, w.state.config.minValidatorStake) },
      ];
    },
  },
  {
    id: 'fees',
    question: 'What does a transaction cost, and creating an asset?',
    calls: () => [{ tool: 'info_getTxFee', args: {} }],
    facts: (w) => [
      { what: 'the transaction fee', text: cam(w, w.state.fees.txFee) },
      { what: 'the asset creation fee', text: cam(w, w.state.fees.creationTxFee) },
    ],
  },
  {
    id: 'supply',
    question: "What's the current supply?",
    calls: () => [{ tool: 'platform_getCurrentSupply', args: {} }],
    facts: (w) => [{ what: 'the supply', text: cam(w, w.state.supply) }],
  },
  {
    id: 'peers',
    question: 'How many peers does my node have, and is any of them benched?',
    calls: () => [{ tool: 'info_peers', args: {} }],
    facts: (w) => {
      const benched = w.state.peers.filter((p) => p.benched.length > 0);
      return [
        { what: 'the peer count', text: new RegExp(`${w.state.peers.length} peer`) },
        ...benched.map((p) => ({ what: `the benched peer ${p.nodeID}`, text: p.nodeID })),
        ...benched.map(() => ({ what: 'the chain it is benched on, by name', text: /benched[^\n]*C-Chain/ })),
      ];
    },
  },
  {
    id: 'node-version',
    question: 'Which version is my node running?',
    calls: () => [{ tool: 'info_getNodeVersion', args: {} }],
    facts: (w) => [{ what: 'the node version', text: w.state.version.version }],
  },
  {
    id: 'history',
    question: "Show the recent transactions of alice's X address: what came in, what went out?",
    calls: (w) => [{ tool: 'indexer_listTransactions', args: { chainID: [w.state.chains.X], address: [w.alice[0]!.x], sort: 'timestamp-desc' } }],
    facts: (w) => [
      { what: 'the memo of the rent payment she received', text: 'rent for November' },
      { what: 'that it came in', text: /received/i },
      { what: 'its amount', text: cam(w, 50_000_000_000n) },
    ],
  },
  {
    id: 'tx-status-rejected',
    question: 'Did this transaction go through?',
    calls: (w) => [{ tool: 'tx_status', args: { txID: [...w.state.txs.values()].find((t) => t.status === 'Rejected')!.id } }],
    facts: () => [{ what: 'that it was rejected', text: /Rejected/ }],
  },
  {
    id: 'deposit-unlock',
    question: 'When does my deposited CAM unlock, and what reward can I claim from it?',
    dialects: ['camino'],
    calls: (w) => [{ tool: 'account_overview', args: { addresses: [w.devnet[0]!.p] } }],
    facts: (w) => {
      const running = depositReward(w, 'deposit:0', w.state.now());
      // The second deposit's rewards stopped (no-rewards period): its claimable figure is fixed.
      const ended = depositReward(w, 'deposit:1', w.state.now());
      return [
        { what: 'the deposited amount', text: cam(w, running.amount) },
        { what: 'its unlock date', text: isoDay(running.end) },
        { what: 'the other deposit\'s unlock date', text: isoDay(ended.end) },
        { what: 'the reward claimable now of the deposit whose rewards ended', text: cam(w, ended.reward) },
      ];
    },
  },
  {
    id: 'claimable-rewards',
    question: 'What rewards can I claim on the P-Chain?',
    dialects: ['camino'],
    calls: (w) => [{ tool: 'platform_getClaimables', args: { addresses: [w.devnet[0]!.p] } }],
    facts: (w) => {
      const c = w.state.claimables[0]!;
      // The key's own deposits' rewards are claimable too (issue 42 item 6); the running one's grows
      // each second, so the total is taken at the node's clock now or the two seconds before.
      const now = w.state.now();
      const total = (at: number) => c.validatorRewards + c.expiredDepositRewards + depositReward(w, 'deposit:0', at).reward + depositReward(w, 'deposit:1', at).reward;
      const literal = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return [
        { what: 'the total claimable', text: new RegExp([now, now - 1, now - 2].map((at) => literal(cam(w, total(at)))).join('|')) },
        { what: 'the validator rewards', text: cam(w, c.validatorRewards) },
        { what: 'the expired deposit rewards', text: cam(w, c.expiredDepositRewards) },
        { what: 'the reward of the deposit whose rewards ended, by its ID', text: `${cam(w, depositReward(w, 'deposit:1', now).reward)} of deposit ${registeredId('deposit:1')}` },
      ];
    },
  },
  {
    id: 'fees-paid-by-address',
    question: 'How much have I paid in fees from this address?',
    calls: (w) => [{ tool: 'indexer_getTxfeeAggregates', args: { address: [w.devnet[1]!.bech32] } }],
    facts: (w) => {
      const key = w.devnet[1]!;
      const paid = [...w.state.txs.values()].filter((t) => t.status === 'Accepted' && t.chain !== 'C' && t.inputs.some((i) => i.addresses.some((a) => a.endsWith(key.bech32))));
      return [
        { what: 'the fees this address paid', text: cam(w, paid.reduce((s, t) => s + t.fee, 0n)) },
        { what: 'that the figure is this address\'s, not the network\'s', text: `Fees paid by ${key.bech32}` },
      ];
    },
  },
  {
    id: 'asset-by-symbol',
    question: 'How much GLD does my X address hold?',
    calls: (w) => [{ tool: 'xvm_getBalance', args: { address: w.devnet[0]!.x, assetID: 'GLD' } }],
    facts: (w) => {
      const gld = [...w.state.assets.values()].find((a) => a.symbol === 'GLD')!;
      const held = utxosOf(w.state, 'X', [w.devnet[0]!.x]).filter((u) => u.assetID === gld.id).reduce((s, u) => s + u.amount, 0n);
      return [{ what: 'the GLD balance', text: `${formatAmount(held, { decimals: gld.denomination })} "GLD"` }];
    },
  },
  {
    id: 'waiting-import',
    question: "I moved CAM from the P-Chain to X and don't see it. Where is it?",
    calls: (w) => [{ tool: 'account_overview', args: { addresses: [w.devnet[0]!.x] } }],
    facts: (w) => [
      { what: 'the amount waiting for import on X', text: cam(w, nativeUtxoSum(w, 'X', [w.devnet[0]!.x], 'P')) },
      { what: 'the next step and the tool that does it', text: /not spendable until imported: import it with xvm_import/ },
    ],
  },
  {
    id: 'transfer-preview',
    question: 'Send 1.5 CAM to alice (up to the approval).',
    env: { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id' },
    calls: (w) => [{ tool: 'xvm_send', args: { to: w.alice[0]!.x, amount: `1.5 ${w.state.assetSymbol}`, assetID: w.state.assetSymbol } }],
    facts: (w) => [
      { what: 'the recipient', text: w.alice[0]!.x },
      { what: 'the amount in display units', text: cam(w, 1_500_000_000n) },
      { what: 'the fee', text: cam(w, w.state.fees.txFee) },
      { what: 'where the change goes', text: /change/i },
      { what: 'that nothing was sent yet', text: /nothing sent/i },
    ],
  },
  // Issue 42: answers a person can repeat. Each truth is what the node or the indexer itself says.
  {
    id: 'native-supply-indexer',
    question: 'How much CAM is there? (asked of the indexer\'s asset list)',
    raw: async (api) => ({ supply: await api.rpc('P', 'platform.getCurrentSupply') }),
    calls: () => [{ tool: 'indexer_listAssets', args: {} }],
    facts: (w, t) => [
      { what: "the network's supply, the node's figure, first", text: `network supply at most ${cam(w, BigInt(t.supply?.supply ?? 0))}`, firstLine: true },
      { what: "that the indexer's figure is not the network's", text: /indexer's "currentSupply" [^\n]* not the network's supply/, firstLine: true },
    ],
  },
  {
    id: 'offer-reward',
    question: 'What would 100,000 CAM earn in the open deposit offer?',
    raw: async (api, w) => ({ offers: ((await api.rpc('P', 'platform.getAllDepositOffers', { timestamp: String(w.state.now()) })) as Truth).depositOffers ?? [] }),
    calls: () => [{ tool: 'network_overview', args: {} }],
    facts: (w, t) => {
      const open = (t.offers ?? []).find((o: Truth) => (BigInt(offerField(o, 'flags')) & 1n) === 0n) ?? {};
      const max = BigInt(offerField(open, 'maxDuration'));
      const noRewards = BigInt(offerField(open, 'noRewardsPeriodDuration'));
      // caminogo deposit.TotalReward (docs/real-nodes.md).
      const reward = max > noRewards ? (100_000_000_000_000n * BigInt(offerField(open, 'interestRateNominator')) * (max - noRewards)) / (1_000_000n * 31_536_000n) : 0n;
      return [
        { what: "the reward by the node's terms over the longest duration", text: `100,000 CAM for ${max / 86_400n} days earns ${cam(w, reward)}` },
        { what: 'the no-rewards period', text: `no rewards in the last ${noRewards / 86_400n} days` },
      ];
    },
  },
  {
    id: 'block-facts',
    question: 'What happened in the P-Chain block with the export?',
    dialects: ['camino'],
    raw: async (api, w) => ({ block: await api.rpc('P', 'platform.getBlockAtHeight', { height: exportBlock(w), encoding: 'json' }), x: await xChainID(api) }),
    calls: (w) => [{ tool: 'platform_getBlockAtHeight', args: { height: exportBlock(w) } }],
    facts: (w, t) => exportFacts(w, t.block?.block?.txs?.[0] ?? {}, t.x),
  },
  {
    id: 'block-spec-node',
    question: 'What happened in the P-Chain block with the export? (asked of a spec-API node)',
    dialects: ['spec'],
    refusal: true,
    calls: (w) => [{ tool: 'platform_getBlockAtHeight', args: { height: exportBlock(w) } }],
    facts: () => [{ what: 'that this node lacks the method, first', text: /^This node does not offer platform\.getBlockAtHeight/, firstLine: true }],
  },
  {
    id: 'p-tx-text',
    question: 'What does this P-Chain transaction do? (json, a host that passes only text)',
    raw: async (api, w) => ({ tx: ((await api.rpc('P', 'platform.getTx', { txID: pExport(w), encoding: 'json' })) as Truth).tx, x: await xChainID(api) }),
    calls: (w) => [{ tool: 'platform_getTx', args: { txID: pExport(w), encoding: 'json' } }],
    facts: (w, t) => exportFacts(w, t.tx ?? {}, t.x),
  },
  {
    id: 'p-export-indexer',
    question: 'Where did this P-Chain export go? (from the indexer)',
    raw: async (api, w) => ({ record: await api.rest(`/v2/transactions/${pExport(w)}`), x: await xChainID(api) }),
    calls: (w) => [{ tool: 'indexer_getTransaction', args: { id: pExport(w) } }],
    facts: (w, t) => {
      const left = ((t.record?.outputs ?? []) as Truth[]).find((o) => o.chainID !== t.record?.chainID) ?? {};
      const to = left.chainID && left.chainID === t.x ? 'X-Chain' : `chain ${left.chainID ?? '?'}`;
      return [
        { what: 'the destination chain, first', text: `exported to the ${to}`, firstLine: true },
        { what: 'the exported output, as having left P', text: `${cam(w, BigInt(left.amount ?? 0))} exported to the ${to} for ${left.addresses?.[0] ?? '?'} (left this chain` },
      ];
    },
  },
  {
    id: 'tx-status-evm-hash',
    question: 'Did my C-Chain transaction 0x… go through?',
    refusal: true,
    calls: () => [{ tool: 'tx_status', args: { txID: `0x${'5e'.repeat(32)}` } }],
    facts: () => [{ what: 'the tool that takes a 0x hash', text: /eth_getTransactionReceipt/, firstLine: true }],
  },
  {
    id: 'history-sender',
    question: 'Who sent alice the rent for November?',
    raw: async (api, w) => ({ record: await api.rest(`/v2/transactions/${rentTx(w)}`) }),
    calls: (w) => [{ tool: 'indexer_listTransactions', args: { chainID: [w.state.chains.X], address: [w.alice[0]!.x], sort: 'timestamp-desc' } }],
    facts: (w, t) => {
      const alice = w.alice[0]!.x.slice(2);
      const sender = ((t.record?.inputs ?? []) as Truth[]).flatMap((i) => (i.output?.addresses ?? []) as string[]).find((a) => a !== alice) ?? '?';
      return [{ what: 'the sender, in full', text: `received ${cam(w, 50_000_000_000n)} from ${sender}` }];
    },
  },
  {
    id: 'gas-cost',
    question: 'What does a plain C-Chain transfer cost in gas right now?',
    raw: async (api) => ({ price: await api.rpc('C', 'eth_gasPrice', []) }),
    calls: () => [{ tool: 'eth_gasPrice', args: {} }],
    facts: (w, t) => [
      { what: 'the cost of 21,000 gas at the price, in CAM', text: `costs ${formatAmount(BigInt(t.price ?? 0) * 21_000n, { decimals: 18, symbol: w.state.assetSymbol })}` },
    ],
  },
  {
    id: 'unlock-unknown-spec',
    question: 'When do my deposited and bonded CAM unlock? (asked of a spec-API node)',
    dialects: ['spec'],
    calls: (w) => [{ tool: 'account_overview', args: { addresses: [w.devnet[0]!.p] } }],
    facts: () => [{ what: 'that this node cannot say when, first', text: /^This node cannot say when the deposited or bonded amounts unlock/, firstLine: true }],
  },
  {
    id: 'my-addresses-local-key',
    question: 'What are my addresses? (--devnet with a key file)',
    localKey: true,
    calls: () => [{ tool: 'xvm_listAddresses', args: {} }],
    facts: (w) => [
      { what: "the key's X address", text: `X ${w.state.localKey?.x ?? '?'}`, firstLine: true },
      { what: "the key's P address", text: `P ${w.state.localKey?.p ?? '?'}`, firstLine: true },
    ],
  },
  {
    id: 'transfer-sweep',
    question: 'Move 2 CAM from my X account to my C account (up to the approval; keystore signer).',
    env: { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id' },
    calls: (w) => [{ tool: 'transfer', args: { to: `C-${w.devnet[0]!.bech32}`, evmAddress: w.devnet[0]!.c, amount: `2 ${w.state.assetSymbol}` } }],
    facts: (w) => {
      const own = new Set(w.devnet.map((k) => `C-${k.bech32}`));
      const waiting = utxosOf(w.state, 'C', [...own], { sourceChain: 'X' })
        .filter((u) => u.assetID === w.state.nativeAssetID)
        .reduce((sum, u) => sum + u.amount, 0n);
      return [
        { what: "that the node's import takes everything waiting, with the amount", text: `${cam(w, waiting)} already waits there besides this ${cam(w, 2_000_000_000n)}, so more than the amount arrives` },
        { what: 'what arrives', text: /Arrives: at least [\d,.]+ CAM after the import fee/ },
      ];
    },
  },
  {
    id: 'platform-toolset',
    question: 'Which tools cover deposits, claimable rewards, multisig aliases, registered nodes, blocks and upgrades?',
    calls: () => [{ tool: 'list_toolsets', args: {} }],
    facts: () => [{ what: "the platform toolset's line naming them", text: /- platform [^\n]*deposits[^\n]*claimable rewards[^\n]*multisig aliases[^\n]*registered nodes[^\n]*blocks[^\n]*upgrades/ }],
  },
];

/** An offer field in a Camino node's spelling (`maxDuration`) or the spec's (`MaxDuration`); 0 when absent. */
function offerField(o: Truth, name: string): string {
  return String(o[name] ?? o[name[0]!.toUpperCase() + name.slice(1)] ?? 0);
}

function pExport(w: EvalWorld): string {
  return [...w.state.txs.values()].find((t) => t.chain === 'P' && t.type === 'export')?.id ?? '';
}

function exportBlock(w: EvalWorld): number {
  const id = pExport(w);
  return w.state.pBlocks.find((b) => b.txIDs.includes(id))?.height ?? 0;
}

function rentTx(w: EvalWorld): string {
  const memo = `0x${Buffer.from('rent for November').toString('hex')}`;
  return [...w.state.txs.values()].find((t) => t.memo === memo)?.id ?? '';
}

async function xChainID(api: RawApi): Promise<string> {
  return String(((await api.rpc('info', 'info.getBlockchainID', { alias: 'X' })) as Truth).blockchainID ?? '');
}

/** A P export as the node's json shows it: where it went, what left, the fee (inputs less every output). */
function exportFacts(w: EvalWorld, tx: Truth, xID: string | undefined): Fact[] {
  const u = (tx.unsignedTx ?? {}) as Truth;
  const to = u.destinationChain && u.destinationChain === xID ? 'X-Chain' : `chain ${u.destinationChain ?? '?'}`;
  const sum = (list: Truth[] | undefined, key: 'input' | 'output') => (list ?? []).reduce((s, x) => s + BigInt(x[key]?.amount ?? 0), 0n);
  const out = (u.exportedOutputs ?? [])[0]?.output ?? {};
  return [
    { what: 'its kind and destination', text: `export to the ${to}` },
    { what: 'what left the P-Chain, for whom', text: `${cam(w, BigInt(out.amount ?? 0))} for ${out.addresses?.[0] ?? '?'} left the P-Chain` },
    { what: 'its fee', text: `fee ${cam(w, sum(u.inputs, 'input') - sum(u.outputs, 'output') - sum(u.exportedOutputs, 'output'))}` },
  ];
}
