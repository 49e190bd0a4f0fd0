import { describe, expect, it } from 'vitest';
import { decodeSuccess, decodeTx, issuedText, SuccessOut } from '../../src/spend/result.js';

/** What the issuing tools report back: the node's answer decoded, and the line a person reads. */

describe('decodeTx', () => {
  it('keeps txID and a non-empty change address', () => {
    expect(decodeTx({ txID: 'tx-upper', changeAddr: 'X-camino1change' })).toStrictEqual({ txID: 'tx-upper', changeAddr: 'X-camino1change' });
  });

  it('accepts txId (lower d) when the node spells it that way', () => {
    expect(decodeTx({ txId: 'tx-lower' })).toStrictEqual({ txID: 'tx-lower' });
  });

  it('prefers txID when the node sends both spellings', () => {
    expect(decodeTx({ txID: 'tx-upper', txId: 'tx-lower' })).toStrictEqual({ txID: 'tx-upper' });
  });

  it('answers an empty txID, not "undefined", when the node sent neither', () => {
    expect(decodeTx({})).toStrictEqual({ txID: '' });
    expect(decodeTx(null)).toStrictEqual({ txID: '' });
    expect(decodeTx(undefined)).toStrictEqual({ txID: '' });
  });

  it('leaves out a change address that is empty, missing or not a string', () => {
    expect(decodeTx({ txID: 't', changeAddr: '' })).toStrictEqual({ txID: 't' });
    expect(decodeTx({ txID: 't' })).toStrictEqual({ txID: 't' });
    expect(decodeTx({ txID: 't', changeAddr: 5 })).toStrictEqual({ txID: 't' });
    expect(decodeTx({ txID: 't', changeAddr: null })).toStrictEqual({ txID: 't' });
    expect(decodeTx({ txID: 't', changeAddr: ['X-camino1change'] })).toStrictEqual({ txID: 't' });
  });

  it('turns a non-string txID into its text', () => {
    expect(decodeTx({ txID: 42 })).toStrictEqual({ txID: '42' });
  });
});

describe('issuedText', () => {
  it('names the status tool with the txID as its argument when follow is a tool name', () => {
    expect(issuedText('Sent 1 CAM', 'tx-1', 'xvm_getTxStatus')).toBe('Sent 1 CAM: issued once, txID tx-1.\nFollow it with xvm_getTxStatus {"txID": "tx-1"}.');
    expect(issuedText('Sent', 'tx-2', 'eth_getTransactionReceipt')).toBe('Sent: issued once, txID tx-2.\nFollow it with eth_getTransactionReceipt {"txID": "tx-2"}.');
  });

  it('treats a one-letter prefix (a_b) as a tool name too', () => {
    expect(issuedText('Sent', 'tx-3', 'x_B')).toBe('Sent: issued once, txID tx-3.\nFollow it with x_B {"txID": "tx-3"}.');
  });

  it('uses free text as it is', () => {
    const follow = 'The P-Chain has no status call; look for the transaction with platform_getTx.';
    expect(issuedText('Added a validator', 'tx-4', follow)).toBe(`Added a validator: issued once, txID tx-4.\n${follow}`);
  });

  it('uses a sentence that merely ends with a tool name as it is', () => {
    expect(issuedText('Sent', 'tx-5', 'Check it with xvm_getTxStatus')).toBe('Sent: issued once, txID tx-5.\nCheck it with xvm_getTxStatus');
  });

  it('uses a sentence that merely starts with a tool name as it is', () => {
    expect(issuedText('Sent', 'tx-6', 'xvm_getTxStatus shows it.')).toBe('Sent: issued once, txID tx-6.\nxvm_getTxStatus shows it.');
  });

  it('does not take words with digits or uppercase before the underscore as a tool name', () => {
    expect(issuedText('Sent', 'tx-7', 'Xvm_getTxStatus')).toBe('Sent: issued once, txID tx-7.\nXvm_getTxStatus');
    expect(issuedText('Sent', 'tx-8', 'xvm_get1')).toBe('Sent: issued once, txID tx-8.\nxvm_get1');
  });

  it('puts extra lines between the first line and the follow-up, in order', () => {
    expect(issuedText('Sent', 'tx-9', 'xvm_getTxStatus', ['Change went to X-camino1change.', 'Fee: 0.001 CAM.'])).toBe(
      'Sent: issued once, txID tx-9.\nChange went to X-camino1change.\nFee: 0.001 CAM.\nFollow it with xvm_getTxStatus {"txID": "tx-9"}.',
    );
  });
});

describe('decodeSuccess', () => {
  it('reads true and the string "true" as success', () => {
    expect(decodeSuccess({ success: true })).toStrictEqual({ success: true });
    expect(decodeSuccess({ success: 'true' })).toStrictEqual({ success: true });
  });

  it('reads false, "false" and other values of a success field as failure', () => {
    expect(decodeSuccess({ success: false })).toStrictEqual({ success: false });
    expect(decodeSuccess({ success: 'false' })).toStrictEqual({ success: false });
    expect(decodeSuccess({ success: 1 })).toStrictEqual({ success: false });
    expect(decodeSuccess({ success: 'TRUE' })).toStrictEqual({ success: false });
  });

  it('reads a real node\'s empty reply ({}, or no result) as success: no error means it worked', () => {
    expect(decodeSuccess({})).toStrictEqual({ success: true });
    expect(decodeSuccess(null)).toStrictEqual({ success: true });
    expect(decodeSuccess(undefined)).toStrictEqual({ success: true });
  });
});

describe('SuccessOut', () => {
  it('is the output shape { success: boolean } the admin and auth tools declare', () => {
    expect(SuccessOut.parse({ success: true })).toStrictEqual({ success: true });
    expect(SuccessOut.safeParse({}).success).toBe(false);
    expect(SuccessOut.safeParse({ success: 'yes' }).success).toBe(false);
  });
});
