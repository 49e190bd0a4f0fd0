import { ChainMcpError } from '../errors.js';

/**
 * The node is not trusted for the ID of bytes it was given (issue 40 item 4): a chain's txID is
 * computed from the signed bytes (X/P/C atomic: cb58 of their sha256; EVM: keccak256 of the raw
 * transaction), so the answer is taken only when it is that ID. Used by the local signer's issue
 * and by the tools that issue bytes the caller signed.
 */

/** The node named another txID than the signed bytes' own: the bytes went out, the node's word is not taken. */
export class NodeDisagreed extends Error {
  constructor(readonly named: string) {
    super('the node named another txID');
  }
}

/**
 * Whether the node's answer is the bytes' ID: a 0x hash compares without case (hex digits), anything
 * else exactly; a quoted, padded or empty answer is another ID.
 */
export function sameID(named: string, expected: string): boolean {
  return expected.startsWith('0x') ? named.toLowerCase() === expected.toLowerCase() : named === expected;
}

/** What the node named, shown safely: quoted and escaped (a quote or a newline cannot break the answer), clipped. */
export const shownID = (named: string) => JSON.stringify(named.length > 100 ? `${named.slice(0, 100)}…` : named);

/**
 * The answer when the node named another txID: never a success, and nothing that invites sending
 * again (the bytes went out once; whether they are on the chain is for the human to check).
 * `issued`: the txIDs of earlier steps of the same spend; `step` of `of` is the one disagreed about.
 */
export function disagreed(toolName: string, step: number, of: number, issued: readonly string[], expected: string, named: string): ChainMcpError {
  const before = issued.map((id, n) => `Step ${n + 1} was issued once (txID ${id}). `).join('');
  const which = of > 1 ? `step ${step} of ${of}` : toolName;
  const after = step < of ? ` Step ${step + 1} was not sent.` : '';
  const check = expected.startsWith('0x') ? `eth_getTransactionReceipt {"txHash": "${expected}"}` : `tx_status {"txID": "${expected}"}`;
  return new ChainMcpError(
    'unknown_outcome',
    `${before}The node disagreed about ${which}: the signed bytes sent once have txID ${expected}, but the node answered ${shownID(named)}. It is not known whether it was accepted; it will not be sent again.${after}`,
    { hint: `Do not send it again. Check ${check} (the bytes' own ID), on another node if this one may be wrong, and the balances, before deciding anything with the human.` },
  );
}

/** The ID X, P and the C-Chain's atomic side give signed bytes: cb58 of their sha256 (loaded only when bytes are issued). */
export async function atomicTxID(signed: Uint8Array): Promise<string> {
  const { txIdOf } = await import('../codec/tx/hash.js');
  return txIdOf(signed);
}

/** The hash the C-Chain's EVM gives a raw transaction (legacy RLP or typed envelope): 0x keccak256 of the bytes. */
export async function evmTxHash(raw: Uint8Array): Promise<string> {
  const { keccak256 } = await import('../codec/evm-tx.js');
  return `0x${Buffer.from(keccak256(raw)).toString('hex')}`;
}
