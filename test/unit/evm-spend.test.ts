import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import type { SpendPlan, ToolContext, ToolDef } from '../../src/core/tool.js';
import { type2 } from '../helpers/evm-tx.js';

const tool = CATALOGUE.find((t) => t.name === 'eth_sendRawTransaction') as ToolDef<never, never>;
const ctx = { network: async () => ({ networkID: '1000', hrp: 'camino', assetSymbol: 'CAM', assetID: 'n', source: 'configuration' }) } as unknown as ToolContext;
const TO = '0x3535353535353535353535353535353535353535';
const plan = (signedTx: string) => tool.plan!({ signedTx } as never, ctx) as Promise<SpendPlan>;
const limits = (signedTx: string) => tool.limits!({ signedTx } as never);

/**
 * eth_sendRawTransaction's preview and limits for what the server cannot read (mutation
 * survivors, issue 25): bytes it cannot decode are shown and counted as such, never as a payment
 * of nothing; a call names its function selector.
 */
describe('a raw EVM transaction the server cannot read', () => {
  it('is refused when too short to be a transaction at all', async () => {
    for (const tx of ['0x', '0x0']) await expect(plan(tx), tx).rejects.toThrow(/^Invalid input: signedTx: not a signed transaction \(too short\)/);
  });

  it('previews undecodable bytes as opaque, approved only by whoever built them, and refused under any limit', async () => {
    const p = await plan('0xdeadbeef');
    expect(p.lines).toEqual(['Network: 1000, chain C', 'Broadcasts a transaction that could not be decoded here: approve only if you built it yourself.']);
    expect(limits('0xdeadbeef')).toEqual({ recipients: [], opaque: 'a transaction this server cannot decode' });
  });

  it('names the function selector of a call it does not decode, and the bytes of calldata', async () => {
    const call = type2({ to: TO, value: 0n, gas: 50_000n, maxFee: 25n * 10n ** 9n, data: '0xa9059cbb00' });
    expect((await plan(call)).lines).toContain(`Calls contract ${TO}: 5 bytes of calldata, function selector 0xa9059cbb (not decoded here)`);
    const short = type2({ to: TO, value: 0n, gas: 50_000n, maxFee: 25n * 10n ** 9n, data: '0xa905' });
    expect((await plan(short)).lines).toContain(`Calls contract ${TO}: 2 bytes of calldata (not decoded here)`);
    const four = type2({ to: TO, value: 0n, gas: 50_000n, maxFee: 25n * 10n ** 9n, data: '0x12345678' });
    expect((await plan(four)).lines).toContain(`Calls contract ${TO}: 4 bytes of calldata, function selector 0x12345678 (not decoded here)`);
    const plain = type2({ to: TO, value: 1n, gas: 21_000n, maxFee: 25n * 10n ** 9n });
    expect((await plan(plain)).lines.some((l) => l.startsWith('Calls contract'))).toBe(false);
  });

  it('previews a payment with its chain ID, value, maximum fee and their total, and no call line', async () => {
    const tx = type2({ to: TO, value: 2n * 10n ** 18n, gas: 21_000n, maxFee: 25n * 10n ** 9n });
    const p = await plan(tx);
    expect(p.lines).toEqual([
      'Network: 1000, chain C (EVM chain ID in the tx: 43112)',
      `To: ${TO}`,
      'Value: 2 CAM',
      'Fee: at most 0.000525 CAM (gas limit 21000 x at most 25000000000 wei per gas)',
      'Total at most: 2.000525 CAM (2000525000 smallest units, counted against the limits)',
    ]);
    expect(p.details).toEqual({ to: TO, valueWei: '2000000000000000000', maxFeeWei: '525000000000000', gas: '21000', maxGasPriceWei: '25000000000' });
    const creation = await plan(type2({ value: 0n, gas: 100_000n, maxFee: 10n ** 9n, data: '0x6080' }));
    expect(creation.lines).toContain('To: none: contract creation');
    expect(creation.lines).toContain('Creates a contract: 2 bytes of init code; its address follows from the sender and nonce.');
    expect(creation.details?.to).toBeNull();
  });

  it('counts a payment to its recipient only, a creation to no one', () => {
    expect(limits(type2({ to: TO, value: 10n ** 9n, gas: 21_000n, maxFee: 10n ** 9n })).recipients).toEqual([TO]);
    expect(limits(type2({ value: 0n, gas: 100_000n, maxFee: 10n ** 9n, data: '0x6080' })).recipients).toEqual([]);
  });

  it('reads the node answer as the transaction hash, bare or wrapped', () => {
    expect(tool.decode!('0xabc' as never, {} as never, ctx)).toEqual({ txHash: '0xabc' });
    expect(tool.decode!({ result: '0xdef' } as never, {} as never, ctx)).toEqual({ txHash: '0xdef' });
    expect(tool.decode!(null as never, {} as never, ctx)).toEqual({ txHash: '' });
  });
});
