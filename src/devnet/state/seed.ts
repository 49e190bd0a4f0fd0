/** The seeded network: validators, users, assets, offers and history, and `createState`. */
import { addCBlock, addPBlock } from './blocks.js';
import { addressFor, hexAddressFor, nodeIdFor, registeredId } from './ids.js';
import { addAsset, addManyUtxos, addTx, addUser, fund, utxosOf } from './ledger.js';
import { seedLocalAccount } from './local-account.js';
import { ADDRESS_STATE, type Asset, type Delegator, type DepositOffer, type DevnetState, type Subnet, type UserKey, type Validator } from './types.js';

const DAY = 86_400;

function makeValidator(state: DevnetState, i: number, opts: { start: number; end: number; stake: bigint; delegators: number; subnetID?: string; label?: string }): Validator {
  const label = opts.label ?? `validator-${i}`;
  const reward = addressFor(state, 'P', `${label}-reward`);
  const delegators: Delegator[] = Array.from({ length: opts.delegators }, (_, d) => ({
    txID: registeredId(`${label}:delegator:${d}`),
    nodeID: nodeIdFor(label),
    startTime: opts.start + DAY * (d + 1),
    endTime: opts.end - DAY * (d + 1),
    stakeAmount: 25_000_000_000n * BigInt(d + 1),
    rewardOwner: { locktime: 0n, threshold: 1, addresses: [addressFor(state, 'P', `${label}-delegator-${d}`)] },
    potentialReward: 120_000_000n * BigInt(d + 1),
  }));
  return {
    txID: registeredId(`${label}:tx`),
    nodeID: nodeIdFor(label),
    subnetID: opts.subnetID ?? state.primaryNetworkID,
    startTime: opts.start,
    endTime: opts.end,
    stakeAmount: opts.stake,
    rewardOwner: { locktime: 0n, threshold: 1, addresses: [reward] },
    potentialReward: (opts.stake * 8n) / 100n,
    delegationFee: (2 + (i % 5)).toFixed(4),
    uptime: (100 - ((i * 7) % 13) * 0.75).toFixed(4),
    connected: i % 6 !== 5,
    delegators,
  };
}

/** Adds `count` more current primary-network validators (for output-budget tests). */
export function addManyValidators(state: DevnetState, count: number, delegatorsEach = 2): void {
  const base = state.validators.length;
  const t0 = state.genesisTime;
  for (let k = 0; k < count; k++) {
    const i = base + k;
    state.validators.push(
      makeValidator(state, i, {
        start: t0 - 30 * DAY - (i % 50) * 3600,
        end: t0 + (10 + (i % 300)) * DAY + (i % 24) * 3600,
        stake: 2_000_000_000_000n + BigInt(i) * 10_000_000_000n,
        delegators: delegatorsEach,
        label: `bulk-validator-${i}`,
      }),
    );
  }
}

function seed(state: DevnetState): void {
  const t0 = state.genesisTime;

  // Keystore users: devnet (3 keys) and alice (2 keys).
  const devnet = addUser(state, 'devnet', 'Devnet-Passw0rd!', 3);
  const alice = addUser(state, 'alice', 'Alice-Passw0rd!', 2);
  const [d0, d1, d2] = devnet.keys as [UserKey, UserKey, UserKey];
  const [a0, a1] = alice.keys as [UserKey, UserKey];

  // Assets. The native asset exists from genesis; the others are created by X txs.
  const native: Asset = {
    id: state.nativeAssetID,
    name: 'Camino',
    symbol: state.assetSymbol,
    denomination: 9,
    kind: 'native',
    alias: state.nativeAssetAlias,
    minterSets: [],
    createdBy: state.nativeAssetID,
    timestamp: t0 - 400 * DAY,
    supply: 0n,
  };
  state.assets.set(native.id, native);

  // Genesis P block.
  addPBlock(state, [], t0 - 400 * DAY);

  // X balances: devnet key 0 holds big UTXOs and 300 small ones (paging), key 1 some.
  fund(state, 'X', d0.x, [5_000_000_000_000n, 1_250_000_000_000n, 42_000_000_000n]);
  addManyUtxos(state, 'X', d0.x, 300, 10_000_000n);
  fund(state, 'X', d1.x, [750_000_000_000n]);
  fund(state, 'X', a0.x, [200_000_000_000n, 3_500_000_000n]);

  // Fixed-cap asset with initial holders.
  const gldID = registeredId('asset:GLD');
  const gldTx = addTx(state, {
    chain: 'X',
    type: 'create_asset',
    label: 'asset:GLD',
    inputs: [],
    outputs: [
      { assetID: gldID, amount: 100_000n, addresses: [d0.x], chain: 'X' },
      { assetID: gldID, amount: 25_050n, addresses: [a0.x], chain: 'X' },
    ],
    fee: state.fees.creationTxFee,
    timestamp: t0 - 200 * DAY,
    details: { name: 'Gold Bar', symbol: 'GLD', denomination: 2 },
  });
  const gld = addAsset(state, { name: 'Gold Bar', symbol: 'GLD', denomination: 2, kind: 'fixedCap', txID: gldTx.id, alias: 'gold' });
  gld.supply = 125_050n;

  // Variable-cap asset with two minter sets; minted once.
  const slvTx = addTx(state, {
    chain: 'X',
    type: 'create_asset',
    label: 'asset:SLV',
    inputs: [],
    outputs: [],
    fee: state.fees.creationTxFee,
    timestamp: t0 - 150 * DAY,
    details: { name: 'Silver Coin', symbol: 'SLV', denomination: 6 },
  });
  const slv = addAsset(state, {
    name: 'Silver Coin',
    symbol: 'SLV',
    denomination: 6,
    kind: 'variableCap',
    txID: slvTx.id,
    minterSets: [
      { minters: [d0.x], threshold: 1 },
      { minters: [d1.x, d2.x, a0.x], threshold: 2 },
    ],
  });
  addTx(state, {
    chain: 'X',
    type: 'operation',
    inputs: [],
    outputs: [{ assetID: slv.id, amount: 7_500_000_000n, addresses: [d0.x], chain: 'X' }],
    timestamp: t0 - 140 * DAY,
  });
  slv.supply = 7_500_000_000n;

  // NFT asset with two tokens minted in groups 0 and 1.
  const nftTx = addTx(state, {
    chain: 'X',
    type: 'create_asset',
    label: 'asset:ART',
    inputs: [],
    outputs: [],
    fee: state.fees.creationTxFee,
    timestamp: t0 - 100 * DAY,
    details: { name: 'Devnet Art', symbol: 'ART', denomination: 0 },
  });
  const art = addAsset(state, { name: 'Devnet Art', symbol: 'ART', denomination: 0, kind: 'nft', txID: nftTx.id, minterSets: [{ minters: [d0.x], threshold: 1 }] });
  addTx(state, {
    chain: 'X',
    type: 'operation',
    inputs: [],
    outputs: [
      { assetID: art.id, amount: 0n, addresses: [d0.x], chain: 'X', groupID: 0, payload: '0x68656c6c6f' },
      { assetID: art.id, amount: 0n, addresses: [a0.x], chain: 'X', groupID: 1, payload: '0x776f726c64' },
    ],
    timestamp: t0 - 90 * DAY,
  });
  art.supply = 2n;

  // A send from devnet key 1 to alice with a memo, then a processing and a rejected tx.
  const d1Utxo = utxosOf(state, 'X', [d1.x])[0]!;
  addTx(state, {
    chain: 'X',
    type: 'base',
    inputs: [d1Utxo.id],
    outputs: [
      { assetID: native.id, amount: 50_000_000_000n, addresses: [a0.x], chain: 'X' },
      { assetID: native.id, amount: d1Utxo.amount - 50_000_000_000n - state.fees.txFee, addresses: [d1.x], chain: 'X' },
    ],
    memo: `0x${Buffer.from('rent for November').toString('hex')}`,
    fee: state.fees.txFee,
    timestamp: t0 - 10 * DAY,
  });
  const a0Small = utxosOf(state, 'X', [a0.x]).find((u) => u.amount === 3_500_000_000n)!;
  addTx(state, {
    chain: 'X',
    type: 'base',
    inputs: [a0Small.id],
    outputs: [
      { assetID: native.id, amount: 1_000_000_000n, addresses: [a1.x], chain: 'X' },
      { assetID: native.id, amount: 2_500_000_000n - state.fees.txFee, addresses: [a0.x], chain: 'X' },
    ],
    fee: state.fees.txFee,
    status: 'Processing',
    timestamp: t0 - 60,
  });
  addTx(state, {
    chain: 'X',
    type: 'base',
    inputs: [],
    outputs: [{ assetID: native.id, amount: 1n, addresses: [a1.x], chain: 'X' }],
    fee: state.fees.txFee,
    status: 'Rejected',
    timestamp: t0 - 3600,
    label: 'tx:rejected',
  });

  // P balances of devnet key 0 in every lock state; alice unlocked.
  fund(state, 'P', d0.p, [3_000_000_000_000n, 100_000_000_000n]);
  // Locked outputs carry the IDs of what locks them (caminogo locked.Out lockIDs): the bond is
  // validator 0's staking tx, the deposits are the two seeded below.
  fund(state, 'P', d0.p, [2_000_000_000_000n], { lock: 'bonded', bondTxID: registeredId('validator-0:tx') });
  fund(state, 'P', d0.p, [500_000_000_000n], { lock: 'deposited', depositTxID: registeredId('deposit:0') });
  fund(state, 'P', d0.p, [1_000_000_000_000n], { lock: 'bondedDeposited', depositTxID: registeredId('deposit:1'), bondTxID: registeredId('validator-1:tx') });
  fund(state, 'P', a0.p, [80_000_000_000n]);

  // Atomic UTXOs waiting for an import: X -> C (to devnet key 0's C side), P -> X, C -> X.
  const d0xBig = utxosOf(state, 'X', [d0.x]).find((u) => u.amount === 42_000_000_000n)!;
  addTx(state, {
    chain: 'X',
    type: 'export',
    inputs: [d0xBig.id],
    outputs: [
      { assetID: native.id, amount: 20_000_000_000n, addresses: [`C-${d0.bech32}`], chain: 'C' },
      { assetID: native.id, amount: 22_000_000_000n - state.fees.txFee, addresses: [d0.x], chain: 'X' },
    ],
    destinationChain: 'C',
    fee: state.fees.txFee,
    timestamp: t0 - 2 * DAY,
  });
  const d0pFirst = utxosOf(state, 'P', [d0.p]).find((u) => u.amount === 100_000_000_000n)!;
  addTx(state, {
    chain: 'P',
    type: 'export',
    inputs: [d0pFirst.id],
    outputs: [
      { assetID: native.id, amount: 30_000_000_000n, addresses: [d0.x], chain: 'X' },
      { assetID: native.id, amount: 70_000_000_000n - state.fees.txFee, addresses: [d0.p], chain: 'P' },
    ],
    destinationChain: 'X',
    fee: state.fees.txFee,
    timestamp: t0 - DAY,
  });
  // A C -> X export (atomic tx on C) and a dropped atomic tx.
  addCBlock(state, [], t0 - 3 * DAY);
  addTx(state, {
    chain: 'C',
    type: 'export',
    inputs: [],
    outputs: [{ assetID: native.id, amount: 5_000_000_000n, addresses: [d1.x], chain: 'X' }],
    destinationChain: 'X',
    fee: 280_000n,
    timestamp: t0 - 3 * DAY,
    details: { ins: [{ address: d1.c, amount: 5_000_280_000, assetID: native.id, nonce: 0 }] },
  });
  addTx(state, {
    chain: 'C',
    type: 'import',
    inputs: [],
    outputs: [],
    sourceChain: 'X',
    status: 'Dropped',
    timestamp: t0 - 2 * DAY,
    label: 'atomic:dropped',
  });

  // C balances (wei) and a few EVM blocks.
  const WEI = 1_000_000_000n;
  state.cBalances.set(d0.c, 1_000n * 1_000_000_000n * WEI);
  state.cBalances.set(d1.c, 25n * 1_000_000_000n * WEI);
  state.cBalances.set(a0.c, 3n * 1_000_000_000n * WEI);
  state.cAssetBalances.set(d0.c, new Map([[gld.id, 1_234n]]));
  for (let b = 1; b <= 5; b++) {
    addCBlock(
      state,
      [
        { from: d0.c, to: a0.c, value: BigInt(b) * 10n ** 17n },
        ...(b % 2 === 0
          ? [
              {
                from: d1.c,
                to: hexAddressFor('token-contract'),
                value: 0n,
                input: '0xa9059cbb',
                gasUsed: 51_000n,
                gasLimit: 60_000n,
                logs: [
                  {
                    address: hexAddressFor('token-contract'),
                    topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'],
                    data: `0x${(BigInt(b) * 1000n).toString(16).padStart(64, '0')}`,
                  },
                ],
              },
            ]
          : []),
      ],
      t0 - (6 - b) * 600,
    );
  }

  // Subnets and blockchains.
  const subnetA: Subnet = { id: registeredId('subnet:A'), controlKeys: [d0.p, d1.p], threshold: 1 };
  const subnetB: Subnet = { id: registeredId('subnet:B'), controlKeys: [a0.p], threshold: 1 };
  state.subnets.push({ id: state.primaryNetworkID, controlKeys: [], threshold: 0 }, subnetA, subnetB);
  state.blockchains.push(
    { id: state.chains.X, name: 'X-Chain', subnetID: state.primaryNetworkID, vmID: 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq', status: 'Validating' },
    { id: state.chains.C, name: 'C-Chain', subnetID: state.primaryNetworkID, vmID: 'mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6', status: 'Validating' },
    { id: registeredId('chain:timestamp'), name: 'timestamp-chain', subnetID: subnetA.id, vmID: 'tGas3T58KzdjLHhBDMnH2TvrddhqTji5iZAMZ3RXs2NLpSnhH', status: 'Created' },
    { id: registeredId('chain:assets-b'), name: 'asset-chain-b', subnetID: subnetB.id, vmID: 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq', status: 'Syncing' },
  );
  for (const [s, label] of [
    [subnetA, 'subnet:A'],
    [subnetB, 'subnet:B'],
  ] as const) {
    addTx(state, { chain: 'P', type: 'create_subnet', label, inputs: [], outputs: [], fee: state.fees.creationTxFee, timestamp: t0 - 50 * DAY, details: { controlKeys: s.controlKeys } });
  }

  // Validators: 8 current on the primary network (the node itself first), 1 on subnet A,
  // 2 pending with a pending delegator.
  for (let i = 0; i < 8; i++) {
    const v = makeValidator(state, i, {
      start: t0 - (60 - i) * DAY,
      end: t0 + (3 + i * 9) * DAY + i * 3600,
      stake: 2_000_000_000_000n + BigInt(i) * 250_000_000_000n,
      delegators: i % 3,
    });
    if (i === 0) v.nodeID = state.nodeID;
    for (const d of v.delegators) d.nodeID = v.nodeID;
    state.validators.push(v);
    addTx(state, { chain: 'P', type: 'add_validator', label: `validator-${i}:tx`, inputs: [], outputs: [], timestamp: v.startTime, details: { nodeID: v.nodeID } });
  }
  // Reward UTXOs of a finished staking period of validator 1.
  const finished = registeredId('validator-finished:tx');
  const rewardTx = fund(state, 'P', state.validators[1]!.rewardOwner.addresses[0]!, [160_000_000_000n, 3_200_000_000n]);
  state.rewardUtxos.set(finished, rewardTx.outputs);
  state.rewardUtxos.set(state.validators[0]!.txID, []);

  state.validators.push({
    ...makeValidator(state, 90, { start: t0 - 5 * DAY, end: t0 + 20 * DAY, stake: 100n, delegators: 0, subnetID: subnetA.id }),
    nodeID: state.validators[2]!.nodeID,
  });
  for (let i = 0; i < 2; i++) {
    state.pendingValidators.push(
      makeValidator(state, 100 + i, {
        start: t0 + (2 + i) * DAY,
        end: t0 + (30 + i * 30) * DAY,
        stake: 2_000_000_000_000n,
        delegators: 0,
        label: `pending-validator-${i}`,
      }),
    );
  }
  state.pendingValidators[1]!.connected = false;
  state.pendingDelegators.push({
    txID: registeredId('pending-delegator:0'),
    nodeID: state.validators[3]!.nodeID,
    startTime: t0 + DAY,
    endTime: t0 + 15 * DAY,
    stakeAmount: 50_000_000_000n,
    rewardOwner: { locktime: 0n, threshold: 1, addresses: [a0.p] },
    potentialReward: 0n,
  });

  // Deposit offers: active, active+locked, expired, future.
  const offer = (label: string, o: Omit<DepositOffer, 'id' | 'memo'> & { memo: string }): DepositOffer => ({
    ...o,
    id: registeredId(`offer:${label}`),
    memo: Buffer.from(o.memo, 'utf8').toString('base64'),
  });
  state.depositOffers.push(
    offer('standard', {
      interestRateNominator: 80_000n,
      start: t0 - 100 * DAY,
      end: t0 + 265 * DAY,
      minAmount: 1_000_000_000n,
      minDuration: 60 * DAY,
      maxDuration: 365 * DAY,
      unlockPeriodDuration: 30 * DAY,
      noRewardsPeriodDuration: 15 * DAY,
      memo: 'Standard 8% offer',
      flags: 0n,
    }),
    offer('premium', {
      interestRateNominator: 125_000n,
      start: t0 - 10 * DAY,
      end: t0 + 90 * DAY,
      minAmount: 100_000_000_000n,
      minDuration: 365 * DAY,
      maxDuration: 730 * DAY,
      unlockPeriodDuration: 60 * DAY,
      noRewardsPeriodDuration: 0,
      memo: 'Premium two-year lock',
      flags: 1n,
    }),
    offer('expired', {
      interestRateNominator: 50_000n,
      start: t0 - 400 * DAY,
      end: t0 - 35 * DAY,
      minAmount: 1_000_000_000n,
      minDuration: 30 * DAY,
      maxDuration: 180 * DAY,
      unlockPeriodDuration: 7 * DAY,
      noRewardsPeriodDuration: 0,
      memo: 'Launch promotion (ended)',
      flags: 0n,
    }),
    offer('future', {
      interestRateNominator: 100_000n,
      start: t0 + 30 * DAY,
      end: t0 + 200 * DAY,
      minAmount: 5_000_000_000n,
      minDuration: 90 * DAY,
      maxDuration: 365 * DAY,
      unlockPeriodDuration: 30 * DAY,
      noRewardsPeriodDuration: 10 * DAY,
      memo: 'Spring offer',
      flags: 0n,
    }),
  );

  // Deposits of devnet key 0 in the standard offer: one earning now, one in its unlock period
  // whose rewards stopped (no-rewards period); claimables of the same owner; a 2-of-2 alias; the
  // node registered by alice (a consortium member).
  const standard = state.depositOffers[0]!;
  const own = { locktime: 0n, threshold: 1, addresses: [d0.p] };
  for (const d of [
    { label: 'deposit:0', amount: 500_000_000_000n, start: t0 - 40 * DAY, duration: 120 * DAY, claimed: 1_000_000_000n },
    { label: 'deposit:1', amount: 1_000_000_000_000n, start: t0 - 90 * DAY, duration: 100 * DAY, claimed: 0n },
  ]) {
    const txID = registeredId(d.label);
    state.deposits.set(txID, {
      txID,
      offerID: standard.id,
      amount: d.amount,
      unlockedAmount: 0n,
      claimedRewardAmount: d.claimed,
      start: d.start,
      duration: d.duration,
      rewardOwner: own,
    });
  }
  state.claimables.push({ owner: own, validatorRewards: 12_500_000_000n, expiredDepositRewards: 3_000_000_000n });
  const alias = addressFor(state, 'P', 'multisig-treasury');
  state.multisigAliases.set(alias.slice(2), {
    address: alias.slice(2),
    memo: `0x${Buffer.from('treasury').toString('hex')}`,
    owner: { locktime: 0n, threshold: 2, addresses: [d0.p, a0.p] },
  });
  state.nodeLinks.set(state.nodeID, a0.p);
  state.athensPhaseTime = t0 - 30 * DAY;

  // Address states: admin + KYC verified; KYC verified + consortium; an unknown bit.
  const bit = (n: number) => 1n << BigInt(n);
  state.addressStates.set(d0.bech32, bit(ADDRESS_STATE.AddressStateRoleAdmin) | bit(ADDRESS_STATE.AddressStateKycVerified));
  state.addressStates.set(a0.bech32, bit(ADDRESS_STATE.AddressStateKycVerified) | bit(ADDRESS_STATE.AddressStateConsortium));
  state.addressStates.set(a1.bech32, bit(ADDRESS_STATE.AddressStateKycExpired) | bit(5));

  seedLocalAccount(state);

  // Supply: everything minted so far plus staked amounts (an upper bound).
  let staked = 0n;
  for (const v of state.validators) staked += v.stakeAmount + v.delegators.reduce((s, d) => s + d.stakeAmount, 0n);
  state.supply = native.supply + staked + 300_000_000n * 1_000_000_000n;
}

export function createState(): DevnetState {
  const chains = {
    X: '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed',
    P: '11111111111111111111111111111111LpoYY',
    C: '2CA6j5zYzasynPsFeNoqWkmTCt3VScMvXUZHbfDJ8k3oGzAPtU',
  } as const;
  const peers = Array.from({ length: 4 }, (_, i) => ({
    ip: `127.0.0.1:${9653 + 2 * i}`,
    publicIP: `127.0.0.1:${9653 + 2 * i}`,
    nodeID: PEER_NODE_IDS[i]!,
    version: i === 3 ? 'camino/1.1.17' : 'camino/1.1.18',
    lastSent: '2026-11-22T10:00:00Z',
    lastReceived: '2026-11-22T10:00:01Z',
    benched: i === 2 ? [chains.C] : [],
    observedUptime: String(99 - i),
  }));
  const genesisTime = Math.floor(Date.now() / 1000);
  const hrp = 'local';
  const assetSymbol = 'CAM';
  const nativeAssetID = registeredId('asset:native');
  const state: DevnetState = {
    networkID: 12345,
    networkName: 'local',
    hrp,
    assetSymbol,
    nodeID: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
    nodeIP: '127.0.0.1:9651',
    version: {
      version: 'camino/1.1.18',
      databaseVersion: 'v1.4.5',
      gitCommit: '8d1f2a7c54b0e9f3a6c2d1e0b9a8f7e6d5c4b3a2',
      vmVersions: { xvm: 'v1.1.18', platform: 'v1.1.18', evm: 'v0.5.4' },
    },
    chains,
    vms: {
      jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq: ['xvm'],
      mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6: ['evm'],
      rWhpuQPF1kb72esV2momhMuTYGkEb1oHU8sDgZFNvpDbwVWAx: ['platform'],
    },
    bootstrapped: new Set(['X', 'P', 'C', chains.X, chains.P, chains.C]),
    fees: { txFee: 1_000_000n, creationTxFee: 10_000_000n },
    peers,
    uptime: { rewardingStakePercentage: 100, weightedAveragePercentage: 99.5 },
    now: () => Math.floor(Date.now() / 1000),
    genesisTime,
    config: {
      networkID: 12345,
      assetID: nativeAssetID,
      assetSymbol,
      hrp,
      minStakeDuration: 14n * 86_400n * 1_000_000_000n,
      maxStakeDuration: 365n * 86_400n * 1_000_000_000n,
      minValidatorStake: 2_000_000_000_000n,
      maxValidatorStake: 3_000_000_000_000_000n,
      minDelegationFee: 20_000,
      minDelegatorStake: 25_000_000_000n,
      minConsumptionRate: 100_000n,
      maxConsumptionRate: 120_000n,
      supplyCap: 1_000_000_000_000_000_000n,
      codecVersion: 0,
      verifyNodeSignature: true,
      lockModeBondDeposit: true,
    },
    primaryNetworkID: chains.P,
    nativeAssetID,
    nativeAssetAlias: assetSymbol,
    assets: new Map(),
    users: new Map(),
    utxos: new Map(),
    txs: new Map(),
    pBlocks: [],
    cBlocks: [],
    cBalances: new Map(),
    cNonces: new Map(),
    cAssetBalances: new Map(),
    // caminogo genesis/genesis_local.json: the local network's C-Chain signs for chain ID 43112.
    evmChainId: 43112,
    cBaseFee: 25_000_000_000n,
    cPriorityFee: 1_000_000_000n,
    cBlockListeners: new Set(),
    validators: [],
    pendingValidators: [],
    pendingDelegators: [],
    subnets: [],
    blockchains: [],
    depositOffers: [],
    addressStates: new Map(),
    deposits: new Map(),
    claimables: [],
    multisigAliases: new Map(),
    nodeLinks: new Map(),
    athensPhaseTime: 0,
    supply: 0n,
    rewardUtxos: new Map(),
    indexTransactions: true,
    keystoreApi: true,
    devnetUser: 'devnet',
    seq: 0,
  };
  seed(state);
  return state;
}

const PEER_NODE_IDS = [
  'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ',
  'NodeID-NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN',
  'NodeID-GWPcbFJZFfZreETSoWjPimr846mXEKCtu',
  'NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5',
];
