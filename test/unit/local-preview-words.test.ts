import { describe, expect, it } from 'vitest';
import { isWarning } from '../../src/approval/head.js';
import { THIS_TX, type TxView } from '../../src/codec/tx/index.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { NetworkInfo } from '../../src/context/network.js';
import type { LocalEnv } from '../../src/local/env.js';
import { headOf, shortAddress } from '../../src/local/intent.js';
import { type EvmFields, NO_OWNER, outflowOf } from '../../src/local/outflow.js';
import { renderTx, type Shower } from '../../src/local/render.js';
import { checkOutflow } from '../../src/spend/guard.js';
import type { BuiltTx } from '../../src/tx-builders/index.js';
import { input, NATIVE, NOW, type Out, out, own, TOKEN, view } from '../helpers/tx-views.js';

/**
 * The words of a local preview as the person approving reads them, from decoded views: what each
 * transaction is, whose each output is and how it is held, what the fee counts, and the head's
 * sentences (issue 44, the `local` group's survivors of render.ts and intent.ts).
 */

const BOB = 'P-local1bob';

const env = { own, network: { assetID: NATIVE }, chainIDs: { X: 'x-chain', P: 'p-chain', C: 'c-chain' }, build: { now: NOW } } as unknown as LocalEnv;
const show: Shower = (asset, v) => (asset === NATIVE ? `${v} nCAM` : `${v} of ${asset}`);
const built = { hash: new Uint8Array(32), bytes: new Uint8Array(100) } as unknown as BuiltTx;
const linesOf = (v: TxView) => renderTx(built, v, env, show, 'Tx').lines;
const headFor = (views: TxView[], evm: EvmFields[] = []) => headOf(views, evm, outflowOf(views, evm, own, NATIVE, NOW), env, show);

describe("a local preview's detail lines, as the approver reads them (render.ts survivors)", () => {
  it('the first line names what the transaction is: a send, an unlock of deposits, a claim of rewards, a deposit, a C-Chain atomic export', () => {
    expect(linesOf(view([input(10n)], [out(9n, [own.x])]))[0]).toBe('Tx: X-Chain send, network 1, blockchain b');
    const locked = { lock: { depositTxID: 'd1', bondTxID: null } };
    expect(linesOf(view([input(10n, locked)], [out(9n, [own.p])], { chain: 'P', kind: 'unlockDeposit' }))[0]).toBe('Tx: P-Chain unlock of deposits, network 1, blockchain b');
    expect(linesOf(view([], [out(7n, [own.p])], { chain: 'P', kind: 'claim', claimables: [{ id: 'd1', type: 3n, amount: 8n }] }))[0]).toBe('Tx: P-Chain claim of rewards, network 1, blockchain b');
    const deposit = { depositOfferID: 'o1', depositDuration: 60, rewardsOwner: { threshold: 1, addresses: [own.p], locktime: 0n } };
    expect(linesOf(view([input(10n)], [out(9n, [own.p])], { chain: 'P', kind: 'deposit', deposit }))[0]).toBe('Tx: P-Chain deposit, network 1, blockchain b');
    expect(linesOf(view([input(10n)], [out(9n, [own.p], { exported: true })], { chain: 'C', kind: 'export', destinationChain: 'p-chain' }))[0]).toBe(
      'Tx: C-Chain atomic export, network 1, blockchain b, to chain P (p-chain)',
    );
  });

  it("a deposit's own outputs: the one it locks is deposited by this tx, its change is change", () => {
    const deposit = { depositOfferID: 'o1', depositDuration: 60, rewardsOwner: { threshold: 1, addresses: [own.p], locktime: 0n } };
    const v = view([input(10n)], [out(5n, [own.p], { lock: { depositTxID: THIS_TX, bondTxID: null } }), out(4n, [own.p])], { chain: 'P', kind: 'deposit', deposit });
    const lines = linesOf(v);
    expect(lines).toContain(`Tx output 1: 5 nCAM to ${own.p} (deposited by this tx, your address; locked: deposit ${THIS_TX})`);
    expect(lines).toContain(`Tx output 2: 4 nCAM to ${own.p} (change, your address; unlocked)`);
  });

  it('how an output is held: spendable now at a locktime equal to the node time; one of two owners says who signs', () => {
    const lines = linesOf(view([input(10n)], [out(1n, [BOB], { locktime: NOW }), out(2n, [BOB, own.x]), out(3n, [own.x])]));
    expect(lines).toContain(`Tx output 1: 1 nCAM to ${BOB} (payment; unlocked)`);
    expect(lines).toContain(`Tx output 2: 2 nCAM to ${BOB}, ${own.x} (payment; 1 of 2 owners sign)`);
    expect(lines).toContain(`Tx output 3: 3 nCAM to ${own.x} (change, your address; unlocked)`);
  });

  it("an import to the key's EVM address is the key's in either case; an output with no owner is not the key's", () => {
    for (const address of [own.evm, own.evm.toLowerCase()]) {
      const v = view([input(10n, { imported: true })], [out(9n, [address])], { chain: 'C', kind: 'import', sourceChain: 'x-chain' });
      expect(linesOf(v)).toContain(`Tx output 1: 9 nCAM to ${address} (imported to your address; unlocked)`);
    }
    const lines = linesOf(view([input(10n)], [out(9n, [], { threshold: 0 })]));
    expect(lines).toContain('Tx output 1: 9 nCAM to no address (anyone may spend it) (payment; 0 of 0 owners sign)');
  });

  it('the fee counts the native asset alone; what another asset burns is its own line', () => {
    const v = view([input(100n), input(50n, { assetID: TOKEN })], [out(99n, [own.x]), out(30n, [own.x], { assetID: TOKEN })]);
    const lines = linesOf(v);
    expect(lines).toContain('Tx fee: 1 nCAM (inputs 100 nCAM - outputs 99 nCAM)');
    expect(lines).toContain('Tx also burns: 20 of token-asset');
    // Nothing of another asset burned: no such line.
    expect(linesOf(view([input(100n), input(50n, { assetID: TOKEN })], [out(99n, [own.x]), out(50n, [own.x], { assetID: TOKEN })])).filter((l) => l.includes('also burns'))).toEqual([]);
  });
});

describe("a local preview's head, as the approver reads it (intent.ts survivors)", () => {
  it('an address is shortened as an EVM address only when it is one, whole', () => {
    const hex = 'a'.repeat(40);
    expect(shortAddress(`0x${hex}`)).toBe('0xaaaa…aaaa');
    expect(shortAddress(`X-local1qq0x${hex}`)).toBe('X-local1qq0x…aaaa');
    expect(shortAddress(`0x${hex}zz`)).toBe('0xaaaaaaaaaa…aazz');
  });

  it('CAM amounts count CAM alone, and name where the CAM goes, with another asset listed first', () => {
    const imp = view([input(30n, { imported: true }), input(20n, { imported: true, assetID: TOKEN })], [out(20n, [BOB], { assetID: TOKEN }), out(29n, [own.p])], {
      chain: 'P',
      kind: 'import',
      sourceChain: 'x-chain',
    });
    expect(headFor([imp]).intents).toEqual([`Import 29 nCAM and 20 of token-asset from the X-Chain into your P account (${own.p})`]);
    const exp = view([input(40n)], [out(30n, [own.p], { exported: true }), out(9n, [own.x])], { kind: 'export', destinationChain: 'p-chain' });
    expect(headFor([exp, imp]).intents).toEqual([`Move 30 nCAM from your X account to your P account (${own.p}); 29 nCAM arrives`]);
    const claim = view([], [out(20n, [BOB], { assetID: TOKEN }), out(7n, [own.p])], { chain: 'P', kind: 'claim', claimables: [{ id: 'd1', type: 3n, amount: 8n }] });
    expect(headFor([claim]).intents).toEqual([`Claim 8 nCAM of rewards to your P account (${own.p})`]);
  });

  it('an import names everything that arrives and where, also when no CAM is left after its fee, or nothing at all', () => {
    const imp = (outputs: Out[]) => headFor([view([input(10n, { imported: true }), input(20n, { imported: true, assetID: TOKEN })], outputs, { chain: 'P', kind: 'import', sourceChain: 'x-chain' })]).intents;
    expect(imp([out(20n, [own.p], { assetID: TOKEN })])).toEqual([`Import 0 nCAM and 20 of token-asset from the X-Chain into your P account (${own.p})`]);
    expect(imp([out(20n, [BOB], { assetID: TOKEN })])).toEqual([`Import 0 nCAM and 20 of token-asset from the X-Chain into ${BOB} (NOT your address)`]);
    expect(imp([])).toEqual(['Import 0 nCAM from the X-Chain into no address: the fee takes all of it']);
    // A move whose import's fee takes all of it names where the export sent it; a claim whose fee takes all of it says so.
    const exp = view([input(40n)], [out(29n, [own.x]), out(10n, [own.p], { exported: true })], { kind: 'export', destinationChain: 'p-chain' });
    const empty = view([input(10n, { imported: true })], [], { chain: 'P', kind: 'import', sourceChain: 'x-chain' });
    expect(headFor([exp, empty]).intents).toEqual([`Move 10 nCAM from your X account to your P account (${own.p}); 0 nCAM arrives`]);
    const claim = view([], [], { chain: 'P', kind: 'claim', claimables: [{ id: 'd1', type: 3n, amount: 1n }] });
    expect(headFor([claim]).intents).toEqual(['Claim 1 nCAM of rewards to no address: the fee takes all of it']);
  });

  it("an export is a move to yourself only when every exported output is the key's alone", () => {
    const exp = (outputs: Out[]) => headFor([view([input(40n)], outputs, { kind: 'export', destinationChain: 'p-chain' })]).intents;
    expect(exp([out(10n, [own.p], { exported: true }), out(20n, [BOB], { exported: true })])).toEqual([`Export 30 nCAM from the X-Chain to ${own.p} on the P-Chain`]);
    expect(exp([out(10n, [own.p, BOB], { exported: true })])).toEqual([`Export 10 nCAM from the X-Chain to ${own.p} on the P-Chain`]);
  });

  it("an unlock counts as freed only the unlocked outputs that are the key's alone", () => {
    const locked = { lock: { depositTxID: 'd1', bondTxID: null } };
    const v = view([input(10n, locked)], [out(5n, [own.p]), out(4n, [own.p, BOB])], { chain: 'P', kind: 'unlockDeposit' });
    expect(headFor([v]).intents).toEqual(['Unlock deposits: 5 nCAM becomes spendable on your P account (after the fee)']);
  });
});

describe('an output no one owns, under the limits (outflow.ts)', () => {
  it('is a stranger named as anyone: it leaves the key, an allow-list refuses it, and where the key was expected it is not yours', () => {
    const pay = outflowOf([view([input(10n)], [out(9n, [], { threshold: 0 })])], [], own, NATIVE, NOW);
    expect(pay).toMatchObject({ native: 10n, strangers: [NO_OWNER], notYours: [] });
    const imp = outflowOf([view([input(10n, { imported: true })], [out(9n, [], { threshold: 0 })], { chain: 'P', kind: 'import', sourceChain: 'x-chain' })], [], own, NATIVE, NOW);
    expect(imp).toMatchObject({ strangers: [NO_OWNER], notYours: [NO_OWNER] });
    const config = { ...loadConfig({}), allowedRecipients: ['X-camino1bob'] } as Config;
    const network = { networkID: '1000', hrp: 'camino', assetSymbol: 'CAM', assetID: '', source: 'configuration' } as NetworkInfo;
    // The head says so in words: where it goes, and a warning of its own (not "shared", not "goes to" an empty name), marked as a warning.
    expect(headFor([view([input(10n)], [out(9n, [], { threshold: 0 })])])).toMatchObject({
      intents: ['Send 9 nCAM to no address (anyone may spend it)'],
      warnings: ['NOT your address: 9 nCAM goes to no address; anyone may spend it'],
    });
    // The approval page, card and elicitation lead with it (a warning prefix they know).
    expect(isWarning(headFor([view([input(10n)], [out(9n, [], { threshold: 0 })])]).warnings[0]!)).toBe(true);
    expect(headFor([view([input(10n, { imported: true })], [out(9n, [], { threshold: 0 })], { chain: 'P', kind: 'import', sourceChain: 'x-chain' })]).warnings).toEqual([
      'NOT your address: 9 nCAM goes to no address; anyone may spend it',
    ]);
    // Where the key was expected: an import or a claim credits nobody, an export to nobody is no move, an unlock frees nothing to you.
    const nobody = out(9n, [], { threshold: 0 });
    expect(headFor([view([input(10n, { imported: true })], [nobody], { chain: 'P', kind: 'import', sourceChain: 'x-chain' })]).intents).toEqual([
      'Import 9 nCAM from the X-Chain into no address (anyone may spend it)',
    ]);
    expect(headFor([view([], [nobody], { chain: 'P', kind: 'claim', claimables: [{ id: 'd1', type: 3n, amount: 10n }] })]).intents).toEqual([
      'Claim 10 nCAM of rewards to no address (anyone may spend it)',
    ]);
    expect(headFor([view([input(10n)], [{ ...nobody, exported: true }], { kind: 'export', destinationChain: 'p-chain' })]).intents).toEqual([
      'Export 9 nCAM from the X-Chain to no address (anyone may spend it) on the P-Chain',
    ]);
    const locked = { lock: { depositTxID: 'd1', bondTxID: null } };
    expect(headFor([view([input(10n, locked)], [nobody], { chain: 'P', kind: 'unlockDeposit' })]).intents).toEqual([
      'Unlock deposits: 0 nCAM becomes spendable on your P account (after the fee)',
    ]);
    expect(() => checkOutflow({ total: pay.native, strangers: pay.strangers }, config, network, 0n)).toThrow(`Refused: ${NO_OWNER} is not in CHAIN_MCP_ALLOWED_RECIPIENTS`);
  });
});
