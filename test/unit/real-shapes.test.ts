import { describe, expect, it } from 'vitest';
import { decodeCTx } from '../../src/catalogue/indexer/decode.js';
import { infoTools } from '../../src/catalogue/info.js';
import { balanceParts, platformTools } from '../../src/catalogue/platform.js';
import type { ToolContext } from '../../src/core/tool.js';
import { loadConfig } from '../../src/config.js';
import { rpcHint } from '../../src/errors.js';
import { decodeDepositOffer } from '../../src/summarize/platform.js';
import { decodeUtxo } from '../../src/summarize/utxo.js';
import { createState, encodeUtxo, hexWithChecksum } from '../../src/devnet/state/index.js';

/**
 * Answers shaped as caminogo marshals them (fixtures written by hand from the Go structs named
 * in docs/real-nodes.md): json.Uint64 as quoted decimals, json.Float32/64 as "100.0000",
 * JSONByteSlice as 0x hex, both getBalance shapes.
 */

const CAM = '2ZKbwERx36B5WrYesQGAeTV4NTo4dx6j8svkjwAEix89ZPenUx';
const OTHER = 'qLxVCdy9N2wKq6cZuAN5EWqXhNQyo8cLN1mSkqBF3ZtgszBuj';
const network = { networkID: '12345', hrp: 'local', assetSymbol: 'AVAX', assetID: CAM, source: 'configuration' as const };

function ctxStub(): ToolContext {
  return {
    network: async () => network,
    asset: async () => {
      throw new Error('no asset lookups in these fixtures');
    },
    now: () => 1_700_000_000_000,
  } as unknown as ToolContext;
}

const tool = (name: string) => [...platformTools, ...infoTools].find((t) => t.name === name)!;
async function decode(name: string, raw: unknown, input: Record<string, unknown> = {}) {
  const t = tool(name);
  const out = await t.decode!(raw, input, ctxStub());
  return t.output.parse(out) as Record<string, unknown>;
}

describe('platform.getBalance, lockModeBondDeposit on (caminogo GetBalanceResponseV2)', () => {
  it('reads the quoted uint64 maps keyed by asset ID', async () => {
    const raw = {
      balances: { [CAM]: '15000000000' },
      unlockedOutputs: { [CAM]: '1000000000' },
      bondedOutputs: { [CAM]: '2000000000' },
      depositedOutputs: { [CAM]: '4000000000' },
      bondedDepositedOutputs: { [CAM]: '8000000000' },
      utxoIDs: [
        { txID: '2Y7m', outputIndex: 0 },
        { txID: '2Y7m', outputIndex: 1 },
      ],
    };
    const out = await decode('platform_getBalance', raw, { addresses: ['P-local1xyz'] });
    expect(out.utxoCount).toBe(2);
    expect(out.assets).toEqual([
      {
        assetID: CAM,
        total: { value: '15000000000', display: '15 AVAX' },
        unlocked: { value: '1000000000', display: '1 AVAX' },
        bonded: { value: '2000000000', display: '2 AVAX' },
        deposited: { value: '4000000000', display: '4 AVAX' },
        bondedDeposited: { value: '8000000000', display: '8 AVAX' },
      },
    ]);
  });

  it('adds up every lock kind, bondedDeposited included, when the node sends no balances', () => {
    const parts = balanceParts(
      {
        unlockedOutputs: { [CAM]: '1' },
        bondedOutputs: { [CAM]: '2' },
        depositedOutputs: { [CAM]: '4' },
        bondedDepositedOutputs: { [CAM]: '8', [OTHER]: '16' },
        utxoIDs: null,
      },
      CAM,
    );
    expect(parts.get(CAM)!.total).toBe(15n);
    // An asset held only bonded and deposited still counts.
    expect(parts.get(OTHER)!.total).toBe(16n);
  });

  it('keeps uint64 values beyond 2^53 exact', () => {
    const parts = balanceParts({ balances: { [CAM]: '18446744073709551615' }, unlockedOutputs: { [CAM]: '18446744073709551615' } }, CAM);
    expect(parts.get(CAM)!.total).toBe(18446744073709551615n);
  });
});

describe('platform.getBalance, lockModeBondDeposit off (Avalanche GetBalanceResponse)', () => {
  it('reads the per-asset maps and names the locked kinds as the node does', async () => {
    const raw = {
      balance: '7000000000',
      unlocked: '5000000000',
      lockedStakeable: '0',
      lockedNotStakeable: '2000000000',
      balances: { [CAM]: '7000000000' },
      unlockeds: { [CAM]: '5000000000' },
      lockedStakeables: {},
      lockedNotStakeables: { [CAM]: '2000000000' },
      utxoIDs: [{ txID: '2Y7m', outputIndex: 0 }],
    };
    const out = await decode('platform_getBalance', raw, { addresses: ['P-local1xyz'] });
    expect(out.assets).toEqual([
      {
        assetID: CAM,
        total: { value: '7000000000', display: '7 AVAX' },
        unlocked: { value: '5000000000', display: '5 AVAX' },
        lockedStakeable: { value: '0', display: '0 AVAX' },
        lockedNotStakeable: { value: '2000000000', display: '2 AVAX' },
      },
    ]);
    const text = await tool('platform_getBalance').summarize(out as never, { addresses: ['P-local1xyz'] } as never, ctxStub());
    expect(text).toContain('total 7 AVAX: 5 AVAX unlocked, 0 AVAX locked (stakeable), 2 AVAX locked (not stakeable)');
    expect(text).not.toContain('bonded');
  });

  it('reads an older answer with native sums only', () => {
    const parts = balanceParts({ balance: '9', unlocked: '3', lockedStakeable: '2', lockedNotStakeable: '4', utxoIDs: [] }, CAM);
    expect(parts.get(CAM)).toEqual({ total: 9n, parts: { unlocked: 3n, lockedStakeable: 2n, lockedNotStakeable: 4n } });
  });
});

describe('other platform answers as caminogo sends them', () => {
  it('getAddressStates: the bitmask as a bare quoted uint64', async () => {
    const out = await decode('platform_getAddressStates', '4294967297', { address: 'P-local1xyz' });
    expect(out).toMatchObject({ bitmask: '4294967297', states: ['AddressStateRoleAdmin', 'AddressStateKycVerified'] });
  });

  it('getAllDepositOffers: null and {depositOffers: null} are no offers', async () => {
    for (const raw of [null, { depositOffers: null }]) {
      const out = await decode('platform_getAllDepositOffers', raw);
      expect(out).toMatchObject({ count: 0, depositOffers: [] });
    }
  });

  it('deposit offer: lowercase names, uint32 durations, memo as 0x hex', () => {
    const o = decodeDepositOffer(
      {
        upgradeVersion: 1,
        id: '2dDk4ipZkgy4nd9Z52VSF9MpAsxQQaC4hgrDcZSnmPNB2Cs1b5',
        interestRateNominator: '80000',
        start: '1700000000',
        end: '1800000000',
        minAmount: '1000000000',
        totalMaxAmount: '0',
        depositedAmount: '0',
        minDuration: 5184000,
        maxDuration: 31536000,
        unlockPeriodDuration: 2592000,
        noRewardsPeriodDuration: 0,
        memo: '0x5374616e64617264',
        flags: '1',
        totalMaxRewardAmount: '0',
        rewardedAmount: '0',
        ownerAddress: '111111111111111111116DBWJs',
      },
      network,
      1_750_000_000n,
    );
    expect(o).toMatchObject({ interestRatePercent: '8', memo: 'Standard', flagNames: ['locked'], minAmount: { display: '1 AVAX' } });
    expect(o.minDuration.human).toBe('60 days');
  });

  it('getConfiguration: quoted uint64s, durations in nanoseconds, the node\'s own symbol', async () => {
    const out = await decode('platform_getConfiguration', {
      networkID: '12345',
      assetID: CAM,
      assetSymbol: 'AVAX',
      hrp: 'local',
      blockchains: [],
      minStakeDuration: '1209600000000000',
      maxStakeDuration: '31536000000000000',
      minValidatorStake: '2000000000000',
      maxValidatorStake: '3000000000000000',
      minDelegationFee: '20000',
      minDelegatorStake: '25000000000',
      minConsumptionRate: '100000',
      maxConsumptionRate: '120000',
      supplyCap: '1000000000000000000',
      codecVersion: '0',
      verifyNodeSignature: true,
      lockModeBondDeposit: true,
    });
    expect(out).toMatchObject({
      assetSymbol: 'AVAX',
      minStakeDuration: { seconds: '1209600', human: '14 days' },
      minValidatorStake: { display: '2,000 AVAX' },
      minDelegationFee: '2',
      lockModeBondDeposit: true,
    });
  });

  it('info.uptime: json.Float64 as "100.0000"', async () => {
    const out = await decode('info_uptime', { rewardingStakePercentage: '100.0000', weightedAveragePercentage: '99.5000' });
    expect(out).toEqual({ rewardingStakePercentage: '100', weightedAveragePercentage: '99.5' });
  });
});

describe('CHAIN_MCP_ADMIN_SECRET', () => {
  it('is kept for injection and listed for redaction, and never echoed in a config error', () => {
    const c = loadConfig({ CHAIN_MCP_ADMIN_SECRET: 'Adm1n-Secret-42' });
    expect(c.adminSecret).toBe('Adm1n-Secret-42');
    expect(c.secrets).toContain('Adm1n-Secret-42');
    const tooLong = 'S'.repeat(1025);
    expect(() => loadConfig({ CHAIN_MCP_ADMIN_SECRET: tooLong })).toThrow(/CHAIN_MCP_ADMIN_SECRET: expected at most 1024 characters$/);
  });
});

describe('byte encodings', () => {
  it('decodes a hex UTXO only when its 4-byte sha256 checksum is right', () => {
    const state = createState();
    const utxo = [...state.utxos.values()][0]!;
    const text = hexWithChecksum(encodeUtxo(utxo));
    expect(decodeUtxo(text, state.hrp)).toMatchObject({ txID: utxo.txID, outputIndex: utxo.outputIndex });
    const last = text.slice(-2);
    const flipped = text.slice(0, -2) + (last === '00' ? '01' : '00');
    expect(decodeUtxo(flipped, state.hrp)).toBeUndefined();
  });

  it('explains a node refusing cb58', () => {
    expect(rpcHint('invalid encoding')).toContain('refuse cb58');
  });
});

describe('Magellan C-Chain transaction rows (models/collections.go)', () => {
  it('reads a /v2/cblocks row (hex timestamp, from/to, gas, top-level status) like a /v2/ctxdata row', () => {
    const ctxdata = decodeCTx(
      {
        type: 2,
        block: '12',
        hash: '0xabc',
        createdAt: '2023-11-14T22:13:20Z',
        nonce: 3,
        gasPrice: '25000000000',
        gasLimit: 21000,
        value: '1000000000000000000',
        fromAddr: '0x1111111111111111111111111111111111111111',
        toAddr: '0x2222222222222222222222222222222222222222',
        receipt: { status: '0x1', gasUsed: '0x5208', effectiveGasPrice: '0x5d21dba00', logs: [] },
      },
      'AVAX',
    );
    const cblocks = decodeCTx(
      {
        type: '0x2',
        block: '0xc',
        index: '0x0',
        hash: '0xabc',
        nonce: '0x3',
        gas: '0x5208',
        value: '0xde0b6b3a7640000',
        from: '0x1111111111111111111111111111111111111111',
        to: '0x2222222222222222222222222222222222222222',
        timestamp: '0x6553f100',
        status: '0x1',
        gasUsed: '0x5208',
        effectiveGasPrice: '0x5d21dba00',
      },
      'AVAX',
    );
    expect(cblocks).toEqual({ ...ctxdata, type: '0x2' });
    expect(cblocks).toMatchObject({ block: '12', createdAt: { unix: '1700000000' }, gasLimit: '21000', status: 'success', fee: { value: '525000000000000' } });
  });
});
