import { z } from 'zod';

/** What a transaction-issuing call answers: the transaction ID and, usually, the change address. */
export const TxOut = z.object({
  txID: z.string().describe('ID of the issued transaction.'),
  changeAddr: z.string().optional().describe('Where change went.'),
});
export type TxOut = z.infer<typeof TxOut>;

export function decodeTx(raw: unknown): TxOut {
  const r = (raw ?? {}) as Record<string, unknown>;
  const changeAddr = typeof r.changeAddr === 'string' ? r.changeAddr : '';
  return { txID: String(r.txID ?? r.txId ?? ''), ...(changeAddr ? { changeAddr } : {}) };
}

/**
 * The summary of an issued transaction names how to follow it: a status tool called with
 * the txID (`xvm_getTxStatus`), or a sentence for chains without one (the P-Chain).
 */
export function issuedText(what: string, txID: string, follow: string, extra: string[] = []): string {
  const how = /^[a-z]+_[A-Za-z]+$/.test(follow) ? `Follow it with ${follow} {"txID": "${txID}"}.` : follow;
  return [`${what}: issued once, txID ${txID}.`, ...extra, how].join('\n');
}

/**
 * Calls that only succeed or fail. The spec answers `{success: true}`; a real node answers `{}`
 * (api.EmptyReply, docs/real-nodes.md): an answer without an error and without a `success` field
 * is success; a `success` field counts only as true or "true".
 */
export const SuccessOut = z.object({ success: z.boolean() });
export function decodeSuccess(raw: unknown): { success: boolean } {
  const value = raw && typeof raw === 'object' ? (raw as { success?: unknown }).success : undefined;
  return { success: value === undefined || value === true || value === 'true' };
}
