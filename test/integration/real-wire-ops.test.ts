import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cb58Encode, decodeEncoded, hexChecksumEncode } from '../../src/codec/index.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { nodeIdFor } from '../../src/devnet/state/index.js';
import { DEVNET_AUTH_PASSWORD } from '../../src/devnet/node/auth.js';
import { decodeValidator, validatorHighlights, validatorSetLines, validatorStats } from '../../src/summarize/validators.js';
import { inMemoryStack, type Stack } from '../helpers/stack.js';

/**
 * Per-operation facts of a real Camino node (REAL-WIRE.md), over the MCP protocol against the
 * simulator's `camino` dialect, which answers like caminogo/caminoethvm. Each block names the
 * wire fact it holds the product to.
 */

const SERVER_TOKEN = 'server-token-for-real-wire-tests';
const DAY = 86_400;

function env(devnet: Devnet, extra: Record<string, string> = {}): Record<string, string> {
  return {
    CHAIN_MCP_ALLOW_SPEND: 'true',
    CHAIN_MCP_ALLOW_ADMIN: 'true',
    CHAIN_MCP_APPROVAL: 'confirm-id',
    CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
    CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
    CHAIN_MCP_AUTH_TOKEN: SERVER_TOKEN,
    CHAIN_MCP_AUTH_PASSWORD: DEVNET_AUTH_PASSWORD,
    ...extra,
  };
}

/** Preview, then confirm with the id: what the confirmed call answered. */
async function confirmed(stack: Stack, name: string, args: Record<string, unknown>) {
  const preview = await stack.call(name, args);
  expect(preview.isError, preview.text).toBe(false);
  const id = preview.structured?.confirmationId as string;
  return { preview, result: await stack.call(name, { ...args, confirm: id }) };
}

function sent(devnet: Devnet, method: string) {
  return devnet.router.requests.filter((r) => (r.body as { method?: string })?.method === method).map((r) => (r.body as { params?: Record<string, unknown> }).params ?? {});
}

describe('a Camino node (simulator dialect camino)', () => {
  let devnet: Devnet;
  let stack: Stack;
  beforeAll(async () => {
    devnet = await startDevnet({ dialect: 'camino', keystoreApi: true, authRequired: true, authTokens: [SERVER_TOKEN] });
    devnet.router.record = true;
    stack = await inMemoryStack({ devnet, env: env(devnet) });
  });
  afterAll(async () => {
    await stack.close();
    await devnet.close();
  });

  it('info.getTxFee: reads createAssetTxFee in info_getTxFee and in the asset-creation preview', async () => {
    const raw = await fetch(`${devnet.nodeUrl}/ext/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVER_TOKEN}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getTxFee', params: {} }),
    });
    const body = (await raw.json()) as { result: Record<string, unknown> };
    expect(body.result.createAssetTxFee).toBe('10000000');
    expect(body.result.creationTxFee).toBeUndefined();

    const fees = await stack.call('info_getTxFee');
    expect(fees.isError, fees.text).toBe(false);
    expect((fees.structured!.creationTxFee as { value: string }).value).toBe('10000000');
    expect(fees.text).toContain('Asset creation fee: 0.01 CAM');

    const user = devnet.state.users.get('devnet')!.keys[0]!;
    const preview = await stack.call('xvm_createFixedCapAsset', { name: 'Gold', symbol: 'GLD', denomination: 2, initialHolders: [{ address: user.x, amount: '100' }] });
    expect(preview.isError, preview.text).toBe(false);
    expect(preview.text).toMatch(/Fee: 0\.01 CAM.*\(asset creation fee\)/);
  });

  it('keystore, auth and admin calls answer {} (api.EmptyReply): the tools report success', async () => {
    const created = await stack.call('auth_newToken', { endpoints: ['/ext/info'] });
    expect(created.isError, created.text).toBe(false);
    const token = created.structured!.token as string;
    const revoked = await stack.call('auth_revokeToken', { token });
    expect(revoked.isError, revoked.text).toBe(false);
    expect(revoked.text).toContain('The token is revoked');
    expect(revoked.structured).toEqual({ success: true });

    const started = await stack.call('admin_startCPUProfiler');
    expect(started.text).toContain('CPU profiler started');
    const stopped = await stack.call('admin_stopCPUProfiler');
    expect(stopped.text).toContain('CPU profiler stopped');
    const level = await stack.call('admin_setLogLevel', { level: 'debug' });
    expect(level.text).toContain('C-Chain log level set to debug');

    for (const r of [revoked, started, stopped, level]) expect(r.text).not.toContain('did not confirm');
    // What the node sent: no `success` at all.
    const answers = await fetch(`${devnet.nodeUrl}/ext/bc/C/admin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVER_TOKEN}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'admin.memoryProfile', params: {} }),
    });
    expect(((await answers.json()) as { result: unknown }).result).toEqual({});
  });

  it('avax.export/import: baseFee goes out as 0x-hex; the node refuses a decimal one', async () => {
    const user = devnet.state.users.get('devnet')!.keys[0]!;
    devnet.state.cBalances.set(user.c, 10n ** 21n);
    const exported = await confirmed(stack, 'cx_export', { to: user.x, amount: '1000000000', assetID: 'CAM', baseFee: '200000000000' });
    expect(exported.result.isError, exported.result.text).toBe(false);
    expect(sent(devnet, 'avax.export').at(-1)!.baseFee).toBe('0x2e90edd000');
    const imported = await confirmed(stack, 'cx_import', { to: user.c, sourceChain: 'X', baseFee: '1' });
    // The node says what it thinks of the imported amount, never that it could not read the fee.
    expect(imported.result.text).not.toMatch(/unmarshal/);
    expect(sent(devnet, 'avax.import').at(-1)!.baseFee).toBe('0x1');

    const decimal = await fetch(`${devnet.nodeUrl}/ext/bc/C/avax`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVER_TOKEN}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'avax.export', params: { to: user.x, amount: 1, assetID: 'CAM', baseFee: 25, username: 'devnet', password: devnet.keystore.password } }),
    });
    expect(((await decimal.json()) as { error: { message: string } }).error.message).toMatch(/couldn't unmarshal an argument/);
  });

  it('platform.addValidator needs nodeOwnerAddress: asked before anything is sent, then sent and shown', async () => {
    const d0 = devnet.state.users.get('devnet')!.keys[0]!;
    const start = Math.floor(Date.now() / 1000) + 3600;
    const args = { nodeID: nodeIdFor('real-wire-owner'), startTime: start, endTime: start + 30 * DAY, stakeAmount: '2000000000000', rewardAddress: d0.p, delegationFeeRate: 2 };
    const before = sent(devnet, 'platform.addValidator').length;
    const missing = await stack.call('platform_addValidator', args);
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('nodeOwnerAddress: required on this network');
    // The simulator refuses it too, like caminogo.
    const raw = await fetch(`${devnet.nodeUrl}/ext/P`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVER_TOKEN}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.addValidator', params: { ...args, username: 'devnet', password: devnet.keystore.password } }),
    });
    expect(((await raw.json()) as { error: { message: string } }).error.message).toMatch(/problem while parsing node owner address/);
    expect(sent(devnet, 'platform.addValidator').length).toBe(before + 1);

    const { preview, result } = await confirmed(stack, 'platform_addValidator', { ...args, nodeOwnerAddress: d0.p });
    expect(preview.text).toContain(`Node owner: ${d0.p}`);
    expect(result.isError, result.text).toBe(false);
    expect(sent(devnet, 'platform.addValidator').at(-1)!.nodeOwnerAddress).toBe(d0.p);
  });

  it('platform.addDelegator is refused in lock mode before any request', async () => {
    const d0 = devnet.state.users.get('devnet')!.keys[0]!;
    const v = devnet.state.validators[0]!;
    const now = Math.floor(Date.now() / 1000);
    const before = devnet.router.requests.length;
    const r = await stack.call('platform_addDelegator', { nodeID: v.nodeID, startTime: now + 60, endTime: now + 2 * DAY, stakeAmount: '25000000000', rewardAddress: d0.p });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('bond/deposit lock mode');
    expect(r.text).toContain('Nothing was sent');
    // The network was learned earlier: not one request, not even a read.
    expect(devnet.router.requests.length).toBe(before);
    // The simulator refuses it as a real node does.
    const raw = await fetch(`${devnet.nodeUrl}/ext/P`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SERVER_TOKEN}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.addDelegator', params: { nodeID: v.nodeID, username: 'devnet', password: devnet.keystore.password } }),
    });
    expect(((await raw.json()) as { error: { message: string } }).error.message).toBe('wrong transaction type');
  });

  // Last: it replaces the keystore user (and its keys) the other tests sign with.
  it('keystore.deleteUser/createUser answer {}: the tools report success', async () => {
    // Deleting a user goes through preview and approval (issue 21).
    const deleted = (await confirmed(stack, 'keystore_deleteUser', {})).result;
    expect(deleted.isError, deleted.text).toBe(false);
    expect(deleted.text).toContain('deleted from this node');
    const again = await stack.call('keystore_createUser');
    expect(again.isError, again.text).toBe(false);
    expect(again.text).toContain('created on this node');
    for (const r of [deleted, again]) expect(r.text).not.toContain('did not confirm');
  });
});

describe('byte strings on a Camino node: sent in hex with checksum, whatever the caller gave (it refuses cb58)', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ dialect: 'camino', keystoreApi: true });
    devnet.router.record = true;
  });
  afterAll(() => devnet.close());

  it('the node itself refuses cb58 and takes hex', async () => {
    const call = async (params: Record<string, unknown>) =>
      (await (await fetch(`${devnet.nodeUrl}/ext/bc/X`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'avm.issueTx', params }) })).json()) as { error?: unknown };
    const bytes = new TextEncoder().encode('raw tx bytes');
    expect((await call({ tx: cb58Encode(bytes), encoding: 'cb58' })).error).toBeDefined();
    // Hex is read: the bytes then fail as a transaction, not as an encoding.
    expect((await call({ tx: hexChecksumEncode(bytes) })).error).toMatchObject({ message: expect.stringMatching(/^problem decoding transaction: (?!unsupported)/) });
  });

  it('xvm_issueTx and xvm_mintNFT: cb58 in the chat, hex on the wire, the same bytes', async () => {
    const stack = await inMemoryStack({ devnet, env: env(devnet) });
    try {
      const bytes = new TextEncoder().encode('a signed transaction');
      const issued = await confirmed(stack, 'xvm_issueTx', { tx: cb58Encode(bytes) });
      // A Camino node decodes what it issues: these bytes are no transaction, and it says so.
      expect(issued.result.isError, issued.result.text).toBe(true);
      expect(issued.result.text).toContain('problem decoding transaction');
      expect(sent(devnet, 'avm.issueTx').at(-1)).toEqual({ tx: hexChecksumEncode(bytes), encoding: 'hex' });

      const d0 = devnet.state.users.get(devnet.state.devnetUser)!.keys[0]!;
      const created = await confirmed(stack, 'xvm_createNFTAsset', { name: 'Badges', symbol: 'BDG', minterSets: [{ minters: [d0.x], threshold: 1 }] });
      expect(created.result.isError, created.result.text).toBe(false);
      const payload = new TextEncoder().encode('hello');
      const minted = await confirmed(stack, 'xvm_mintNFT', { assetID: (created.result.structured!.result as { assetID: string }).assetID, payload: cb58Encode(payload), to: d0.x });
      expect(minted.result.isError, minted.result.text).toBe(false);
      expect(minted.preview.text).toContain('with a 5-byte payload');
      expect(sent(devnet, 'avm.mintNFT').at(-1)).toMatchObject({ payload: hexChecksumEncode(payload), encoding: 'hex' });
    } finally {
      await stack.close();
    }
  });

  it('keystore_exportUser in cb58 and back through keystore_importUser: the node sees hex both ways', async () => {
    const env = { CHAIN_MCP_ALLOW_ADMIN: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_KEYSTORE_USER: 'carol', CHAIN_MCP_KEYSTORE_PASSWORD: 'Car0l-Keystore!' };
    const carol = await inMemoryStack({ devnet, env });
    try {
      expect((await carol.call('keystore_createUser')).isError).toBe(false);
      const address = (await carol.call('xvm_createAddress')).structured?.address as string;
      const hex = await confirmed(carol, 'keystore_exportUser', {});
      const hexUser = (hex.result.structured!.result as { user: string; encoding: string });
      expect(hexUser).toMatchObject({ encoding: 'hex', user: expect.stringMatching(/^0x[0-9a-f]+$/) });
      const exported = await confirmed(carol, 'keystore_exportUser', { encoding: 'cb58' });
      expect(exported.result.isError, exported.result.text).toBe(false);
      const { user, encoding } = exported.result.structured!.result as { user: string; encoding: string };
      expect(encoding).toBe('cb58');
      expect(user).not.toMatch(/^0x/);
      const sameBytesInHex = hexChecksumEncode(decodeEncoded(user, 'cb58'));
      expect(sent(devnet, 'keystore.exportUser').map((p) => p.encoding)).toEqual(['hex', 'hex']);

      // Data that does not decode is refused at the preview, naming the field; nothing is sent.
      const before = devnet.router.requests.length;
      const bad = await carol.call('keystore_importUser', { user: `${user.slice(0, -1)}${user.endsWith('1') ? '2' : '1'}` });
      expect(bad.isError).toBe(true);
      expect(bad.text).toMatch(/user: not valid cb58/);
      expect(devnet.router.requests.length).toBe(before);
      expect((await confirmed(carol, 'keystore_deleteUser', {})).result.isError).toBe(false);
      const imported = await confirmed(carol, 'keystore_importUser', { user });
      expect(imported.result.isError, imported.result.text).toBe(false);
      expect(sent(devnet, 'keystore.importUser').at(-1)).toEqual({ username: 'carol', password: 'Car0l-Keystore!', user: sameBytesInHex, encoding: 'hex' });
      expect((await carol.call('xvm_listAddresses')).structured?.addresses).toContain(address);
    } finally {
      await carol.close();
    }
  });
});

describe('platform.getCurrentValidators on a Camino node: delegators only for exactly one nodeID', () => {
  let devnet: Devnet;
  let stack: Stack;
  beforeAll(async () => {
    devnet = await startDevnet({ dialect: 'camino', keystoreApi: true });
    devnet.router.record = true;
    stack = await inMemoryStack({ devnet });
  });
  afterAll(async () => {
    await stack.close();
    await devnet.close();
  });

  it('counts delegators from delegatorCount/delegatorWeight when the list is not sent, and says the list was not sent', async () => {
    const v = devnet.state.validators.find((x) => x.subnetID === devnet.state.primaryNetworkID && x.delegators.length > 0)!;
    const stake = v.delegators.reduce((s, d) => s + d.stakeAmount, 0n);
    const all = await stack.call('platform_getCurrentValidators', { limit: 100 });
    expect(all.isError, all.text).toBe(false);
    const row = (all.structured!.validators as Array<Record<string, unknown>>).find((x) => x.nodeID === v.nodeID)!;
    expect(row.delegatorCount).toBe(v.delegators.length);
    expect((row.delegatedStake as { value: string }).value).toBe(stake.toString());
    expect(row.delegatorsListed).toBe(false);
    expect(all.text).toContain('Delegators not listed: the node lists them only when asked for exactly one nodeID.');
    expect(all.text).not.toContain('no delegators');

    const one = await stack.call('platform_getCurrentValidators', { nodeIDs: [v.nodeID] });
    const only = (one.structured!.validators as Array<Record<string, unknown>>)[0]!;
    expect(only.delegatorsListed).toBe(true);
    expect((only.delegators as unknown[]).length).toBe(Math.min(5, v.delegators.length));

    const lookup = await stack.call('validator_lookup', { nodeID: v.nodeID });
    expect(lookup.isError, lookup.text).toBe(false);
    expect(lookup.structured!.delegators).toEqual({ count: v.delegators.length, stake: expect.objectContaining({ value: stake.toString() }) });
    // It asked with exactly one node ID.
    const asked = devnet.router.requests
      .flatMap((r) => (Array.isArray(r.body) ? r.body : [r.body]) as Array<{ method?: string; params?: { nodeIDs?: string[] } }>)
      .filter((b) => b.method === 'platform.getCurrentValidators' && b.params?.nodeIDs?.includes(v.nodeID));
    expect(asked.at(-1)!.params!.nodeIDs).toEqual([v.nodeID]);
  });

  it('does not claim 0 delegators when the node reported neither the list nor the counts', () => {
    const network = { assetSymbol: 'CAM' };
    const v = decodeValidator({ txID: 't', nodeID: 'NodeID-x', startTime: '1', endTime: '2', stakeAmount: '5' }, network, 5);
    expect(v.delegatorCount).toBeUndefined();
    expect(v.delegatorsListed).toBe(false);
    const stats = validatorStats([v], network);
    expect(stats.delegatorsUnreported).toBe(1);
    const lines = validatorSetLines(stats, validatorHighlights([v]), 0n, 'validators').join('\n');
    expect(lines).toContain('delegators not reported by the node');
    expect(lines).not.toContain('no delegators');
  });
});

describe('P-Chain transactions: platform.getTxStatus / platform.getTx (no indexer)', () => {
  let devnet: Devnet;
  let stack: Stack;
  beforeAll(async () => {
    devnet = await startDevnet({ dialect: 'camino', keystoreApi: true });
    // No CHAIN_MCP_INDEXER_URL: the node alone must find P transactions.
    stack = await inMemoryStack({ devnet, env: { CHAIN_MCP_INDEXER_URL: '' } });
  });
  afterAll(async () => {
    await stack.close();
    await devnet.close();
  });

  const pTx = (d: Devnet) => [...d.state.txs.values()].find((t) => t.chain === 'P' && t.status === 'Accepted')!;

  it('tx_status and wait_for_tx find a P transaction as Committed, final', async () => {
    const tx = pTx(devnet);
    const status = await stack.call('tx_status', { txID: tx.id });
    expect(status.isError, status.text).toBe(false);
    expect(status.structured).toMatchObject({ found: true, chain: 'P', status: 'Committed', meaning: 'final: committed in an accepted P-Chain block' });
    expect(status.text).not.toContain('only be found with the indexer');
    const waited = await stack.call('wait_for_tx', { txID: tx.id, chain: 'P', timeoutSeconds: 5 });
    expect(waited.structured).toMatchObject({ status: 'Committed', final: true, polls: 1 });
    const any = await stack.call('wait_for_tx', { txID: tx.id, timeoutSeconds: 5 });
    expect(any.structured).toMatchObject({ chain: 'P', status: 'Committed', final: true, polls: 1 });
  });

  it('platform_getTxStatus gives the reason of a dropped transaction; statuses are said plainly', async () => {
    const tx = [...devnet.state.txs.values()].filter((t) => t.chain === 'P' && t.status === 'Accepted')[1]!;
    tx.status = 'Dropped';
    tx.details = { ...tx.details, reason: 'failed to verify: input has no funds' };
    const r = await stack.call('platform_getTxStatus', { txID: tx.id });
    expect(r.structured).toMatchObject({ status: 'Dropped', reason: 'failed to verify: input has no funds' });
    expect(r.text).toContain('failed to verify');
    const t = await stack.call('tx_status', { txID: tx.id });
    expect(t.structured).toMatchObject({ chain: 'P', status: 'Dropped', reason: 'failed to verify: input has no funds' });
    const x = [...devnet.state.txs.values()].find((q) => q.chain === 'X' && q.status === 'Accepted')!;
    const accepted = await stack.call('tx_status', { txID: x.id });
    expect(accepted.text).toContain('Accepted, final: the network accepted it');
    expect(accepted.text).not.toMatch(/Accepted, accepted/);
  });

  it('platform_getTx takes the encodings a real node takes and decodes json', async () => {
    const tx = pTx(devnet);
    const hex = await stack.call('platform_getTx', { txID: tx.id });
    expect(hex.isError, hex.text).toBe(false);
    expect(hex.structured).toMatchObject({ encoding: 'hex' });
    expect(String(hex.structured!.tx)).toMatch(/^0x[0-9a-f]+$/);
    const json = await stack.call('platform_getTx', { txID: tx.id, encoding: 'json' });
    expect((json.structured!.tx as { unsignedTx: unknown }).unsignedTx).toBeDefined();
    const cb58 = await stack.call('platform_getTx', { txID: tx.id, encoding: 'cb58' });
    expect(cb58.isError).toBe(true);
    expect(cb58.text).toMatch(/encoding/);
  });
});

describe('Magellan as it really answers (simulator dialect camino)', () => {
  let devnet: Devnet;
  let stack: Stack;
  beforeAll(async () => {
    devnet = await startDevnet({ dialect: 'camino', keystoreApi: true });
    stack = await inMemoryStack({ devnet });
  });
  afterAll(async () => {
    await stack.close();
    await devnet.close();
  });
  const indexerGets = (path: string) => devnet.indexer!.requests.filter((r) => r.path === path);

  it('reads the native asset from avaxAssetID (GET /v2 and GET /x)', async () => {
    const raw = (await (await fetch(`${devnet.indexerUrl}/v2`)).json()) as { chains: Record<string, Record<string, unknown>> };
    expect(Object.values(raw.chains)[0]!.avaxAssetID).toBe(devnet.state.nativeAssetID);
    expect(Object.values(raw.chains)[0]!.nativeAssetID).toBeUndefined();
    const status = await stack.call('indexer_getStatus');
    for (const c of status.structured!.chains as Array<{ nativeAssetID: string; alias: string }>) expect(c.nativeAssetID).toBe(devnet.state.nativeAssetID);
    expect((status.structured!.chains as Array<{ alias: string }>).map((c) => c.alias).sort()).toEqual(['C', 'P', 'X']);
    const legacy = await stack.call('indexer_getLegacyX');
    expect(legacy.structured).toMatchObject({ nativeAssetID: devnet.state.nativeAssetID, chainAlias: 'X', chainID: devnet.state.chains.X });
  });

  it('shows native amounts and fees as CAM, unquoted, in indexer transactions', async () => {
    const tx = [...devnet.state.txs.values()].find((t) => t.chain === 'X' && t.status === 'Accepted' && t.type === 'base' && t.fee > 0n)!;
    const r = await stack.call('indexer_getTransaction', { id: tx.id });
    expect(r.isError, r.text).toBe(false);
    const s = r.structured as { txFee: { display: string }; outputTotals: Array<{ assetID: string; amount: { display: string } }> };
    expect(s.txFee.display).toMatch(/ CAM$/);
    const native = s.outputTotals.find((a) => a.assetID === devnet.state.nativeAssetID)!;
    expect(native.amount.display).toMatch(/\d CAM$/);
    expect(r.text).not.toContain('"CAM"');
  });

  it('asks /v2/ctxdata/latest for the latest C block (no route without an id)', async () => {
    const bare = await fetch(`${devnet.indexerUrl}/v2/ctxdata`);
    expect(bare.status).toBe(404);
    const r = await stack.call('indexer_getCBlock');
    expect(r.isError, r.text).toBe(false);
    expect(r.structured!.number).toBe(String(devnet.state.cBlocks.length - 1));
    expect(indexerGets('/v2/ctxdata/latest').length).toBe(1);
  });

  it('/v2/cblocks: always sends a block limit of at most 1000', async () => {
    expect((await fetch(`${devnet.indexerUrl}/v2/cblocks`)).status).toBe(400);
    expect((await fetch(`${devnet.indexerUrl}/v2/cblocks?limit=1001&limit=1`)).status).toBe(400);
    const r = await stack.call('indexer_listCBlocks', {});
    expect(r.isError, r.text).toBe(false);
    const sentBefore = indexerGets('/v2/cblocks').length;
    const over = await stack.call('indexer_listCBlocks', { limit: 1001 });
    expect(over.isError).toBe(true);
    expect(over.text).toMatch(/Invalid input.*limit/);
    expect(indexerGets('/v2/cblocks').length).toBe(sentBefore);
  });

  it('/v2/aggregates: chainID defaults to every chain the indexer follows', async () => {
    const bare = await fetch(`${devnet.indexerUrl}/v2/aggregates`);
    expect(bare.status).toBe(400);
    const r = await stack.call('indexer_getAggregates', {});
    expect(r.isError, r.text).toBe(false);
    const sent = indexerGets('/v2/aggregates').at(-1)!;
    expect(sent.query.filter(([k]) => k === 'chainID').map(([, v]) => v).sort()).toEqual(Object.values(devnet.state.chains).sort());
  });

  it('/v2/txfeeAggregates: Magellan gets every chain the indexer follows (it refuses the route without one)', async () => {
    const bare = await fetch(`${devnet.indexerUrl}/v2/txfeeAggregates`);
    expect(bare.status).toBe(400);
    const r = await stack.call('indexer_getTxfeeAggregates', { startTime: '2020-01-01' });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(/Fees paid.*\d CAM\.$/);
    const sent = indexerGets('/v2/txfeeAggregates').at(-1)!;
    expect(sent.query.filter(([k]) => k === 'chainID').map(([, v]) => v).sort()).toEqual(Object.values(devnet.state.chains).sort());
  });

  it('an indexer HTTP 400 is the caller\'s mistake: sent once, with what to change', async () => {
    const before = devnet.indexer!.requests.length;
    const unknownChain = '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm';
    const r = await stack.call('indexer_listTransactions', { chainID: [unknownChain], address: [devnet.state.users.get('devnet')!.keys[0]!.x] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('HTTP 400');
    expect(r.text).toContain('change the argument');
    expect(r.text).not.toMatch(/try again later/i);
    expect(devnet.indexer!.requests.slice(before).filter((q) => q.path === '/v2/transactions').length).toBe(1);
  });
});
