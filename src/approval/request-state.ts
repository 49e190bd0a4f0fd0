import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { canonicalArgs } from '../confirm.js';
import type { StateStore } from '../state/store.js';

/** How long the human has to answer one approval question asked through input_required. */
export const ROUND_TTL_MS = 5 * 60 * 1000;

/**
 * One approval question a 2026-07-28 client was sent back with (input_required): who asked, for
 * which tool call, in which mode, until when. The client echoes it on its retry as `requestState`,
 * sealed, so it can neither read nor change it.
 */
export interface ApprovalRound {
  /** Random id: the take-once key in the state store. */
  id: string;
  /** The user the call is for (an OAuth subject, or the local user): only they may answer. */
  owner: string;
  tool: string;
  /** sha256 of the call's exact arguments (confirm included): the answer fits this call only. */
  args: string;
  mode: 'form' | 'url';
  /** Expiry, ms since the epoch. */
  exp: number;
}

const VERSION = 'v1';
const AAD = Buffer.from('chain-mcp/approval-round/v1');

/** sha256 of a tool call's name and exact arguments, base64url. */
export function callDigest(tool: string, args: unknown): string {
  return createHash('sha256').update(`${tool}\n${canonicalArgs(args)}`).digest('base64url');
}

/** The store key a round is taken once under; never a card secret's (those are bare sha256 hex). */
function storeKey(id: string): string {
  return `round:${createHash('sha256').update(id).digest('hex')}`;
}

/**
 * Seals rounds with AES-256-GCM under a key derived from the replicas' shared key (so every replica
 * opens what another sealed) or, for a single process, from a secret of this process. What a
 * round allows is spent once through the state store: a replayed retry finds it gone on every
 * replica sharing the store.
 */
export class ApprovalRounds {
  private readonly key: Buffer;

  constructor(
    private readonly store: StateStore,
    stateKey?: string,
  ) {
    const base = stateKey ? Buffer.from(stateKey, 'hex') : randomBytes(32);
    this.key = Buffer.from(hkdfSync('sha256', base, Buffer.alloc(0), 'chain-mcp request state', 32));
  }

  /** A new round for this question, recorded in the store, and its sealed form for the client. */
  async open(round: Omit<ApprovalRound, 'id' | 'exp'>, now: number): Promise<{ round: ApprovalRound; sealed: string }> {
    const full: ApprovalRound = { ...round, id: randomBytes(16).toString('base64url'), exp: now + ROUND_TTL_MS };
    await this.store.putCardSecret(storeKey(full.id), full.args, full.exp);
    return { round: full, sealed: this.seal(full) };
  }

  seal(round: ApprovalRound): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(AAD);
    const body = Buffer.concat([cipher.update(JSON.stringify(round), 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** The round a client echoed, or an Error saying why not (altered, foreign key, expired). Reads only: `take` spends it. */
  unseal(sealed: string, now: number): ApprovalRound {
    const [version, data, extra] = sealed.split('.');
    if (version !== VERSION || !data || extra !== undefined) throw new Error('not a request state of this server');
    const raw = Buffer.from(data, 'base64url');
    if (raw.length < 12 + 16 + 2) throw new Error('not a request state of this server');
    let text: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAAD(AAD);
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      text = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('the request state was altered or sealed with another key');
    }
    const round = JSON.parse(text) as ApprovalRound;
    if (!(now <= round.exp)) throw new Error('the request state has expired');
    return round;
  }

  /** Spends the round: true the first time (on any replica sharing the store), false after. */
  async take(round: ApprovalRound): Promise<boolean> {
    return (await this.store.takeCardSecret(storeKey(round.id))) === round.args;
  }
}
