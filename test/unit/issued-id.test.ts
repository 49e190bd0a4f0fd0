import { createHash } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { cb58Encode } from '../../src/codec/index.js';
import { atomicTxID, disagreed, evmTxHash, sameID, shownID } from '../../src/spend/issued-id.js';

/** The ID of issued bytes and the answer when the node names another (src/spend/issued-id.ts). */

const X_ID = '2DPa8Jt66bdhUuUNRZTcop3JFrvKShtj3vTQP2GigZ3WWDbGEG';
const HASH = `0x${'ab'.repeat(32)}`;

describe('the ID a chain gives the bytes', () => {
  const bytes = new TextEncoder().encode('signed bytes');
  it('X, P and C atomic: cb58 of sha256 of exactly the bytes', async () => {
    expect(await atomicTxID(bytes)).toBe(cb58Encode(new Uint8Array(createHash('sha256').update(bytes).digest())));
  });
  it('EVM: 0x and 64 lower-case hex digits of keccak256 of the raw bytes', async () => {
    expect(await evmTxHash(bytes)).toBe(`0x${Buffer.from(keccak_256(bytes)).toString('hex')}`);
  });
});

describe('sameID', () => {
  it('a cb58 ID only exactly: not in quotes, padded, in another case, or empty', () => {
    expect(sameID(X_ID, X_ID)).toBe(true);
    for (const other of [`"${X_ID}"`, ` ${X_ID}`, `${X_ID}\n`, X_ID.toLowerCase(), '']) expect(sameID(other, X_ID)).toBe(false);
  });
  it('an EVM hash in any case of its hex digits, nothing else', () => {
    expect(sameID(HASH.toUpperCase().replace('0X', '0x'), HASH)).toBe(true);
    expect(sameID(HASH, HASH.toUpperCase().replace('0X', '0x'))).toBe(true);
    for (const other of [` ${HASH}`, `"${HASH}"`, HASH.slice(0, -1), '']) expect(sameID(other, HASH)).toBe(false);
  });
});

describe('shownID', () => {
  it('quoted and escaped, so a quote or a newline cannot break the answer', () => {
    expect(shownID('a "b"\nc')).toBe('"a \\"b\\"\\nc"');
  });
  it('clipped after 100 characters', () => {
    expect(shownID('x'.repeat(100))).toBe(`"${'x'.repeat(100)}"`);
    expect(shownID('x'.repeat(101))).toBe(`"${'x'.repeat(100)}…"`);
  });
});

describe('disagreed', () => {
  it('one step: names the tool, both IDs, never a success; the check is tx_status of the bytes own ID', () => {
    const e = disagreed('xvm_issueTx', 1, 1, [], X_ID, 'other');
    expect(e.kind).toBe('unknown_outcome');
    expect(e.message).toBe(`The node disagreed about xvm_issueTx: the signed bytes sent once have txID ${X_ID}, but the node answered "other". It is not known whether it was accepted; it will not be sent again.`);
    expect(e.hint).toBe(`Do not send it again. Check tx_status {"txID": "${X_ID}"} (the bytes' own ID), on another node if this one may be wrong, and the balances, before deciding anything with the human.`);
  });
  it('an EVM hash: the check is its receipt', () => {
    expect(disagreed('eth_sendRawTransaction', 1, 1, [], HASH, 'x').hint).toContain(`Check eth_getTransactionReceipt {"txHash": "${HASH}"}`);
  });
  it('step 1 of 2: the second was not sent', () => {
    expect(disagreed('transfer', 1, 2, [], X_ID, 'x').message).toBe(
      `The node disagreed about step 1 of 2: the signed bytes sent once have txID ${X_ID}, but the node answered "x". It is not known whether it was accepted; it will not be sent again. Step 2 was not sent.`,
    );
  });
  it('step 2 of 2: the first was issued, named first', () => {
    expect(disagreed('transfer', 2, 2, ['first-id'], X_ID, 'x').message).toBe(
      `Step 1 was issued once (txID first-id). The node disagreed about step 2 of 2: the signed bytes sent once have txID ${X_ID}, but the node answered "x". It is not known whether it was accepted; it will not be sent again.`,
    );
  });
});
