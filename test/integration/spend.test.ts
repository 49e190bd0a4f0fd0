import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cb58Encode } from '../../src/codec/index.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';
import { balanceOf, type DevnetState, hexWithChecksum, nodeIdFor, utxosOf } from '../../src/devnet/state/index.js';

/** End-to-end flows of the spend tier on the devnet, each through preview -> confirm. */

const DAY = 86_400;

async function confirmed(stack: Stack, name: string, args: Record<string, unknown>) {
  const preview = await stack.call(name, args);
  expect(preview.isError, preview.text).toBe(false);
  expect(preview.structured?.status).toBe('preview');
  const id = preview.structured?.confirmationId as string;
  const done = await stack.call(name, { ...args, confirm: id });
  expect(done.isError, done.text).toBe(false);
  expect(done.structured?.status).toBe('issued');
  return { preview, done, result: done.structured?.result as Record<string, string> };
}

function keys(state: DevnetState) {
  const devnet = state.users.get('devnet')!;
  const alice = state.users.get('alice')!;
  return { d0: devnet.keys[0]!, d1: devnet.keys[1]!, a0: alice.keys[0]! };
}

describe('spend flows on the devnet', () => {
  let stack: Stack;
  let state: DevnetState;
  beforeAll(async () => {
    stack = await inMemoryStack({
      env: { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_KEYSTORE_USER: 'devnet', CHAIN_MCP_KEYSTORE_PASSWORD: 'Devnet-Passw0rd!' },
    });
    state = stack.devnet.state;
  });
  afterAll(() => stack.close());

  it('sends native units and both balances change by the amount and the fee', async () => {
    const { d0, a0 } = keys(state);
    const native = state.nativeAssetID;
    const userBefore = state.users.get('devnet')!.keys.reduce((s, k) => s + balanceOf(state, 'X', k.x, native), 0n);
    const aliceBefore = balanceOf(state, 'X', a0.x, native);
    const { preview, done, result } = await confirmed(stack, 'xvm_send', { amount: '2500000000', assetID: 'CAM', to: a0.x, memo: 'lunch' });
    expect(preview.text).toContain('2.5 CAM');
    expect(preview.text).toContain('Fee: 0.001 CAM');
    expect(preview.text).toMatch(/Balance after: [\d,.]+ CAM/);
    expect(balanceOf(state, 'X', a0.x, native)).toBe(aliceBefore + 2_500_000_000n);
    const userAfter = state.users.get('devnet')!.keys.reduce((s, k) => s + balanceOf(state, 'X', k.x, native), 0n);
    expect(userAfter).toBe(userBefore - 2_500_000_000n - state.fees.txFee);
    expect(state.txs.get(result.txID!)?.memo).toBe(`0x${Buffer.from('lunch').toString('hex')}`);
    expect(done.text).toContain(`xvm_getTxStatus {"txID": "${result.txID}"}`);
    expect(d0.x).toMatch(/^X-local1/);
  });

  it('sends through the wallet API too', async () => {
    const { a0 } = keys(state);
    const before = balanceOf(state, 'X', a0.x, state.nativeAssetID);
    await confirmed(stack, 'wallet_send', { amount: '1000', assetID: 'CAM', to: a0.x });
    expect(balanceOf(state, 'X', a0.x, state.nativeAssetID)).toBe(before + 1000n);
  });

  it('refuses a send beyond the balance with the node message', async () => {
    const { a0 } = keys(state);
    const preview = await stack.call('xvm_send', { amount: '999999999999999999', assetID: 'CAM', to: a0.x });
    expect(preview.text).toContain('not enough funds');
    const done = await stack.call('xvm_send', { amount: '999999999999999999', assetID: 'CAM', to: a0.x, confirm: preview.structured?.confirmationId });
    expect(done.isError).toBe(true);
    expect(done.text).toMatch(/want to spend 1000000000000999999 of asset \S+ but only have \d+/);
  });

  it('exports from X and imports on C; the export names the import that completes it', async () => {
    const { d0 } = keys(state);
    const to = `C-${d0.bech32}`;
    const { done } = await confirmed(stack, 'xvm_export', { to, amount: '3000000000', assetID: 'CAM' });
    expect(done.text).toContain('complete the transfer with cx_import');
    expect(utxosOf(state, 'C', [to], { sourceChain: 'X' }).some((u) => u.amount === 3_000_000_000n)).toBe(true);
    const before = state.cBalances.get(d0.c) ?? 0n;
    // The seed left 20 CAM exported X -> C for this key; the import takes both.
    const imported = await confirmed(stack, 'cx_import', { to: d0.c, sourceChain: 'X' });
    // Two single-signature inputs and one EVM output: 318 unsigned bytes + 2 x 1,000 + 10,000 = 12,318 gas
    // at the devnet's 25 gwei base fee = 307,950 nCAM, the most the node can build and the fee it burns.
    expect(imported.preview.text).toContain('Imports: 2 output(s) from chain X, 23 CAM; you receive at least 22.99969205 CAM after the fee.');
    expect(imported.preview.text).toContain('Fee: at most 0.00030795 CAM, burnt on C (gas at most 12318 x base fee 25000000000 wei');
    expect(state.cBalances.get(d0.c) ?? 0n).toBe(before + (23_000_000_000n - 307_950n) * 10n ** 9n);
    expect(utxosOf(state, 'C', [to], { sourceChain: 'X' })).toHaveLength(0);
  });

  it('exports from X to P, leaving an atomic UTXO on P', async () => {
    const { d0 } = keys(state);
    const { done } = await confirmed(stack, 'xvm_export', { to: d0.p, amount: '1000000000', assetID: 'CAM' });
    expect(done.text).toContain("platform chain's import");
    expect(utxosOf(state, 'P', [d0.p], { sourceChain: 'X' }).some((u) => u.amount === 1_000_000_000n)).toBe(true);
  });

  it('moves native funds P -> X (platform_exportNative + xvm_import) and C -> X (cx_export + xvm_import)', async () => {
    const { d0 } = keys(state);
    const native = state.nativeAssetID;
    const before = balanceOf(state, 'X', d0.x, native);
    const exp = await confirmed(stack, 'platform_exportNative', { amount: '4000000000', to: d0.x });
    expect(exp.done.text).toContain(`xvm_import {"to": "${d0.x}", "sourceChain": "P"}`);
    const imp = await confirmed(stack, 'xvm_import', { to: d0.x, sourceChain: 'P' });
    expect(imp.preview.text).toContain('Imports: 2 output(s) from chain P, 34 CAM');
    // The seed also left 30 CAM exported from P to this address; the import takes all of it.
    expect(balanceOf(state, 'X', d0.x, native)).toBe(before + 4_000_000_000n + 30_000_000_000n - state.fees.txFee);
    const cBefore = state.cBalances.get(d0.c)!;
    await confirmed(stack, 'cx_export', { to: d0.x, amount: '2000000000', assetID: 'CAM' });
    // One EVM input and one output: 230 unsigned bytes + 1,000 + 10,000 = 11,230 gas x 25 gwei = 280,750 nCAM burnt.
    expect(state.cBalances.get(d0.c)).toBe(cBefore - (2_000_000_000n + 280_750n) * 10n ** 9n);
    const mid = balanceOf(state, 'X', d0.x, native);
    await confirmed(stack, 'xvm_import', { to: d0.x, sourceChain: 'C' });
    expect(balanceOf(state, 'X', d0.x, native)).toBe(mid + 2_000_000_000n - state.fees.txFee);
  });

  it('creates a variable-cap asset and mints it', async () => {
    const { d0, a0 } = keys(state);
    const created = await confirmed(stack, 'xvm_createVariableCapAsset', {
      name: 'Test Token',
      symbol: 'TST',
      denomination: 2,
      minterSets: [{ minters: [d0.x], threshold: 1 }],
    });
    expect(created.preview.text).toContain('asset creation fee');
    const assetID = created.result.assetID!;
    expect(state.assets.get(assetID)?.kind).toBe('variableCap');
    const minted = await confirmed(stack, 'xvm_mint', { amount: '12345', assetID, to: a0.x });
    expect(minted.preview.text).toContain('123.45 "TST"');
    expect(balanceOf(state, 'X', a0.x, assetID)).toBe(12_345n);
  });

  it('creates a fixed-cap asset for its holders and pays several recipients in one transaction', async () => {
    const { d0, a0 } = keys(state);
    const created = await confirmed(stack, 'xvm_createFixedCapAsset', {
      name: 'Bond',
      symbol: 'BND',
      denomination: 1,
      initialHolders: [
        { address: d0.x, amount: '1000' },
        { address: a0.x, amount: '250' },
      ],
    });
    expect(created.preview.text).toContain('gets 25 (250 units)');
    const assetID = created.result.assetID!;
    expect(balanceOf(state, 'X', a0.x, assetID)).toBe(250n);
    const alice = state.users.get('alice')!.keys[1]!;
    const multi = await confirmed(stack, 'xvm_sendMultiple', {
      outputs: [
        { assetID, amount: '100', to: a0.x },
        { assetID: 'CAM', amount: '5000000', to: alice.x },
      ],
      memo: 'split',
    });
    expect(multi.preview.text).toContain('Pays 1 of 2: 10 "BND" of asset');
    expect(balanceOf(state, 'X', a0.x, assetID)).toBe(350n);
    expect(balanceOf(state, 'X', d0.x, assetID)).toBe(900n);
  });

  it('creates an NFT family, mints a token and sends it on', async () => {
    const { d0, a0 } = keys(state);
    const created = await confirmed(stack, 'xvm_createNFTAsset', { name: 'Badges', symbol: 'BDG', minterSets: [{ minters: [d0.x], threshold: 1 }] });
    const assetID = created.result.assetID!;
    await confirmed(stack, 'xvm_mintNFT', { assetID, payload: hexWithChecksum(new TextEncoder().encode('hello')), encoding: 'hex', to: d0.x });
    const mine = utxosOf(state, 'X', [d0.x]).filter((u) => u.assetID === assetID);
    expect(mine.map((u) => u.payload)).toEqual(['0x68656c6c6f']);
    await confirmed(stack, 'xvm_sendNFT', { assetID, groupID: 0, to: a0.x });
    expect(utxosOf(state, 'X', [d0.x]).filter((u) => u.assetID === assetID)).toHaveLength(0);
    expect(utxosOf(state, 'X', [a0.x]).filter((u) => u.assetID === assetID && u.groupID === 0)).toHaveLength(1);
  });

  it('adds a subnet validator inside its Primary Network period', async () => {
    const { d0 } = keys(state);
    const subnetID = (await confirmed(stack, 'platform_createSubnet', { controlKeys: [d0.p], threshold: 1 })).result.txID!;
    const v = state.validators.find((x) => x.subnetID === state.primaryNetworkID && x.endTime > Date.now() / 1000 + 5 * DAY)!;
    const start = Math.floor(Date.now() / 1000) + 600;
    const added = await confirmed(stack, 'platform_addSubnetValidator', { nodeID: v.nodeID, subnetID, startTime: start, endTime: start + 2 * DAY, weight: '20' });
    expect(state.pendingValidators.find((p) => p.txID === added.result.txID)).toMatchObject({ nodeID: v.nodeID, subnetID, stakeAmount: 20n });
    const late = await stack.call('platform_addSubnetValidator', { nodeID: v.nodeID, subnetID, startTime: start, endTime: v.endTime + DAY, weight: '20' });
    expect(late.isError).toBe(true);
    expect(late.text).toContain("inside the node's Primary Network period");
  });

  it('adds a validator (with its node owner, as lock mode needs), pending', async () => {
    const { d0 } = keys(state);
    const nodeID = nodeIdFor('spend-test-node');
    const start = Math.floor(Date.now() / 1000) + 3600;
    const validator = await confirmed(stack, 'platform_addValidator', {
      nodeID,
      startTime: start,
      endTime: start + 30 * DAY,
      stakeAmount: '2000000000000',
      rewardAddress: d0.p,
      nodeOwnerAddress: d0.p,
      delegationFeeRate: 2.5,
    });
    expect(validator.preview.text).toContain('Stake locked: 2,000 CAM');
    const pending = await stack.call('platform_getPendingValidators', { nodeIDs: [nodeID] });
    expect(pending.isError, pending.text).toBe(false);
    expect(JSON.stringify(pending.structured)).toContain(nodeID);
    expect(state.pendingValidators.some((v) => v.nodeID === nodeID && v.txID === validator.result.txID)).toBe(true);
  });

  it('creates a subnet and a blockchain in it', async () => {
    const { d0 } = keys(state);
    const subnet = await confirmed(stack, 'platform_createSubnet', { controlKeys: [d0.p], threshold: 1 });
    const subnetID = subnet.result.txID!;
    expect(state.subnets.some((s) => s.id === subnetID)).toBe(true);
    const chain = await confirmed(stack, 'platform_createBlockchain', {
      subnetID,
      vmID: 'xvm',
      name: 'my-chain',
      genesisData: cb58Encode(new TextEncoder().encode('genesis')),
    });
    expect(state.blockchains.find((b) => b.id === chain.result.txID)).toMatchObject({ name: 'my-chain', subnetID });
  });

  it('sets an address state flag with the admin role and is refused without the role', async () => {
    const { a0 } = keys(state);
    await confirmed(stack, 'platform_setAddressState', { address: a0.p, state: 'AddressStateRoleKyc' });
    expect((state.addressStates.get(a0.bech32)! >> 1n) & 1n).toBe(1n);
    // devnet key 1 holds no role: signing only with it is refused by the node.
    const { d1 } = keys(state);
    const args = { address: a0.p, state: 38, remove: true, from: [d1.p] };
    const preview = await stack.call('platform_setAddressState', args);
    const refused = await stack.call('platform_setAddressState', { ...args, confirm: preview.structured?.confirmationId });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('lacks the role');
  });
});

describe('spec rules refused before any chain-changing request', () => {
  let stack: Stack;
  let state: DevnetState;
  beforeAll(async () => {
    stack = await inMemoryStack({
      env: { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_KEYSTORE_USER: 'devnet', CHAIN_MCP_KEYSTORE_PASSWORD: 'Devnet-Passw0rd!' },
    });
    state = stack.devnet.state;
    // The delegation rules apply where a node takes delegations at all: lock mode off (the server learns it once).
    state.config.lockModeBondDeposit = false;
  });
  afterAll(() => stack.close());

  /** Methods that only read, which a preview may send to check a rule against the node. */
  const READS = /^(info\.|platform\.get|xvm\.(get|listAddresses))/;

  async function refused(tool: string, args: Record<string, unknown>, field: RegExp, opts: { readsAllowed?: boolean } = {}) {
    stack.devnet.router.record = true;
    stack.devnet.router.requests.length = 0;
    const r = await stack.call(tool, args);
    stack.devnet.router.record = false;
    expect(r.isError, `${tool} ${JSON.stringify(args)}: ${r.text}`).toBe(true);
    expect(r.text).toMatch(field);
    const methods = stack.devnet.router.requests.flatMap((q) => (Array.isArray(q.body) ? q.body : [q.body]).map((b) => String((b as { method?: string }).method)));
    if (opts.readsAllowed) expect(methods.filter((m) => !READS.test(m)), tool).toEqual([]);
    else expect(methods, tool).toEqual([]);
  }

  it('refuses each input rule naming the field, sending nothing at all', async () => {
    const d0 = state.users.get('devnet')!.keys[0]!;
    const to = d0.x;
    const now = Math.floor(Date.now() / 1000);
    const ok = { amount: '1', assetID: 'CAM', to };
    await refused('xvm_send', { ...ok, memo: 'x'.repeat(257) }, /memo: must be at most 256 bytes/);
    await refused('xvm_send', { ...ok, memo: 'é'.repeat(129) }, /memo: must be at most 256 bytes/);
    await refused('xvm_sendMultiple', { outputs: [ok], memo: 'y'.repeat(300) }, /memo/);
    // "CAM" is the node's native symbol, read from the node (never the indexer's list): one read of its
    // network may precede the refusal; nothing that changes the chain is sent.
    // Sizes are of the payload: 1025 data bytes + a valid checksum is over, whatever the string length.
    await refused('xvm_mintNFT', { assetID: 'CAM', to, payload: hexWithChecksum(new Uint8Array(1025).fill(0xab)), encoding: 'hex' }, /payload: must be at most 1024 bytes; it is 1025 bytes/, { readsAllowed: true });
    // 1,025 bytes without a checksum are not a 1,021-byte payload: the checksum is verified, like cb58's.
    await refused('xvm_mintNFT', { assetID: 'CAM', to, payload: `0x${'ab'.repeat(1025)}`, encoding: 'hex' }, /payload: not valid hex: bad hex checksum/, { readsAllowed: true });
    const good = hexWithChecksum(Buffer.from('a token'));
    await refused('xvm_mintNFT', { assetID: 'CAM', to, payload: `${good.slice(0, -2)}${good.endsWith('00') ? '01' : '00'}`, encoding: 'hex' }, /payload: not valid hex: bad hex checksum/, { readsAllowed: true });
    await refused('xvm_mintNFT', { assetID: 'CAM', to, payload: '0x01', encoding: 'hex' }, /payload: not valid hex/, { readsAllowed: true });
    await refused('xvm_createFixedCapAsset', { name: 'A', symbol: 'TOOLONG', initialHolders: [{ address: to, amount: '1' }] }, /symbol: must be at most 4 characters/);
    for (const amount of ['0', '-1', '1.5', '18446744073709551616', 2 ** 60]) await refused('xvm_send', { ...ok, amount }, /amount/);
    const sets = [
      [{ minters: [to], threshold: 0 }],
      [{ minters: [to], threshold: 2 }],
      [{ minters: ['X-local1notanaddress'], threshold: 1 }],
      [],
    ];
    for (const minterSets of sets) await refused('xvm_createVariableCapAsset', { name: 'V', symbol: 'V', minterSets }, /minterSets/);
    await refused('xvm_export', { to: d0.x, amount: '1', assetID: 'CAM' }, /to: expected an address on the P or C chain/);
    await refused('xvm_import', { to, sourceChain: 'not a chain!' }, /sourceChain/);
    await refused('cx_import', { to: d0.x, sourceChain: 'X' }, /to: expected 0x/);
    await refused('cx_import', { to: d0.c, sourceChain: '' }, /sourceChain/);
    await refused('cx_export', { to: d0.c, amount: '1', assetID: 'CAM' }, /to: /);
    await refused('platform_setAddressState', { address: d0.p, state: 5 }, /state: expected a state of the spec's table/);
    await refused('platform_createBlockchain', { subnetID: state.primaryNetworkID, vmID: 'xvm', name: 'n', genesisData: 'abc' }, /subnetID: must be a subnet, not the Primary Network/);
    await refused('platform_createSubnet', { controlKeys: [d0.p], threshold: 2 }, /threshold: must be between 1 and the number of control keys/);
    const v = { nodeID: nodeIdFor('rules'), stakeAmount: '2000000000000', rewardAddress: d0.p, delegationFeeRate: 2 };
    await refused('platform_addValidator', { ...v, startTime: now - 10, endTime: now + 30 * DAY }, /startTime: must be in the future/);
    await refused('platform_addValidator', { ...v, startTime: now + 600, endTime: now + 600 + 13 * DAY }, /endTime: the period must be at least 2 weeks/);
    await refused('platform_addValidator', { ...v, startTime: now + 600, endTime: now + 600 + 366 * DAY }, /endTime: the period must be at most 1 year/);
    await refused('platform_addValidator', { ...v, startTime: now + 600, endTime: now + 600 + 30 * DAY, delegationFeeRate: 1.5 }, /delegationFeeRate: the minimum delegation fee is 2 percent/);
    await refused('platform_addValidator', { ...v, startTime: now + 600, endTime: now + 600 + 30 * DAY, delegationFeeRate: 2.12345 }, /delegationFeeRate: at most 4 decimal places/);
    await refused('platform_addValidator', { ...v, startTime: now + 600, endTime: now + 600 + 30 * DAY, delegationFeeRate: 101 }, /delegationFeeRate/);
  });

  it('refuses rules that need the node after read-only look-ups, before any transaction', async () => {
    const d0 = state.users.get('devnet')!.keys[0]!;
    const now = Math.floor(Date.now() / 1000);
    const v = state.validators[0]!;
    const base = { nodeID: v.nodeID, rewardAddress: d0.p };
    await refused(
      'platform_addValidator',
      { ...base, nodeID: nodeIdFor('rules-2'), startTime: now + 600, endTime: now + 600 + 30 * DAY, stakeAmount: '1000000000000', delegationFeeRate: 2 },
      /stakeAmount: must equal the network's validator stake 2,000 CAM/,
      { readsAllowed: true },
    );
    // Above the fixed stake is as wrong as below it: the network takes exactly the fixed stake.
    for (const stakeAmount of ['2000000000001', '3000000000000']) {
      await refused(
        'platform_addValidator',
        { ...base, nodeID: nodeIdFor('rules-2'), startTime: now + 600, endTime: now + 600 + 30 * DAY, stakeAmount, delegationFeeRate: 2 },
        new RegExp(`stakeAmount: must equal the network's validator stake 2,000 CAM \\(2000000000000\\); got ${stakeAmount}`),
        { readsAllowed: true },
      );
    }
    await refused('platform_addDelegator', { ...base, startTime: now + 60, endTime: v.endTime + DAY, stakeAmount: '25000000000' }, /startTime: the delegation period .* must lie inside the validator's period/, {
      readsAllowed: true,
    });
    await refused('platform_addDelegator', { ...base, startTime: now + 60, endTime: now + 2 * DAY, stakeAmount: '1000' }, /stakeAmount: must be at least the minimum delegator stake 25 CAM/, {
      readsAllowed: true,
    });
    await refused('platform_addDelegator', { ...base, startTime: now + 60, endTime: now + 2 * DAY, stakeAmount: '9000000000000' }, /stakeAmount: the validator's total weight would be .* over its cap 10,000 CAM/, {
      readsAllowed: true,
    });
    await refused('platform_addDelegator', { ...base, nodeID: nodeIdFor('nobody'), startTime: now + 60, endTime: now + 2 * DAY, stakeAmount: '25000000000' }, /nodeID: .* is not a current or pending validator/, {
      readsAllowed: true,
    });
  });
});

describe('delegation on a network without bond/deposit lock mode (Camino refuses it in lock mode)', () => {
  let stack: Stack;
  let state: DevnetState;
  beforeAll(async () => {
    stack = await inMemoryStack({
      env: { CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_KEYSTORE_USER: 'devnet', CHAIN_MCP_KEYSTORE_PASSWORD: 'Devnet-Passw0rd!' },
    });
    state = stack.devnet.state;
    // Before the server's first call: it learns the network once.
    state.config.lockModeBondDeposit = false;
  });
  afterAll(() => stack.close());

  it('adds a validator and a delegator, both pending', async () => {
    const { d0 } = keys(state);
    const nodeID = nodeIdFor('spend-test-node');
    const start = Math.floor(Date.now() / 1000) + 3600;
    const validator = await confirmed(stack, 'platform_addValidator', {
      nodeID,
      startTime: start,
      endTime: start + 30 * DAY,
      stakeAmount: '2000000000000',
      rewardAddress: d0.p,
      delegationFeeRate: 2.5,
    });
    const delegator = await confirmed(stack, 'platform_addDelegator', {
      nodeID,
      startTime: start + DAY,
      endTime: start + 20 * DAY,
      stakeAmount: '25000000000',
      rewardAddress: d0.p,
    });
    expect(delegator.preview.text).toContain('of cap 10,000 CAM');
    expect(state.pendingDelegators.some((d) => d.nodeID === nodeID && d.txID === delegator.result.txID)).toBe(true);
    expect(state.pendingValidators.some((v) => v.nodeID === nodeID && v.txID === validator.result.txID)).toBe(true);
  });
});
