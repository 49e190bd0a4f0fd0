import { randomBytes } from 'node:crypto';
import { ChainMcpError } from '../errors.js';
import { Sealer } from '../state/seal.js';
import type { StateStore } from '../state/store.js';
import type { LocalSpend, LocalStep } from './spends.js';

/** At most this many local previews wait for confirmation at once (the confirmation book's own bound is larger). */
export const MAX_LOCAL_RECORDS = 1_000;

/** What a confirm needs of a local spend: the kept bytes and the texts it answers with once issued. */
export type KeptSpend = Pick<LocalSpend, 'steps' | 'done' | 'result'>;

export interface LocalRecord {
  tool: string;
  spend: KeptSpend;
  /** sha256 of each step's unsigned bytes, hex, as bound into the confirmation id at preview. */
  hashes: string[];
  /** Amount plus every fee: what the daily total reserves. */
  total: bigint;
  /** The approval lines, as the human saw them. */
  lines: string[];
  expiresAt: number;
}

/** The stored form: bytes as hex, the answer texts made at preview with each txID as a placeholder. */
interface StoredRecord {
  tool: string;
  hashes: string[];
  total: string;
  lines: string[];
  expiresAt: number;
  steps: Array<{ chain: LocalStep['chain']; bytes: string; sigIndices?: number[][]; expectId?: string }>;
  done: string;
  /** `result(txIDs, complete)` for the first k txIDs, keyed `k:complete`. */
  results: Record<string, string>;
}

// A txID is a cb58 or 0x string, so this cannot occur in one, nor in JSON-escaped text.
const slot = (n: number) => `@@txid-${n}@@`;
const fill = (text: string, txIDs: readonly string[]) => text.replace(/@@txid-(\d+)@@/g, (_, n: string) => txIDs[Number(n)] ?? '');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));

function store(record: LocalRecord): string {
  const { spend } = record;
  const slots = spend.steps.map((_, n) => slot(n));
  const results: Record<string, string> = {};
  for (let k = 0; k <= slots.length; k++) {
    for (const complete of [true, false]) results[`${k}:${complete}`] = JSON.stringify(spend.result(slots.slice(0, k), complete));
  }
  const stored: StoredRecord = {
    tool: record.tool,
    hashes: record.hashes,
    total: record.total.toString(),
    lines: record.lines,
    expiresAt: record.expiresAt,
    steps: spend.steps.map((s) => ({
      chain: s.chain,
      bytes: hex(s.bytes),
      ...(s.built ? { sigIndices: s.built.sigIndices } : s.sigIndices ? { sigIndices: s.sigIndices } : {}),
      ...(s.expectId ? { expectId: s.expectId } : {}),
    })),
    done: spend.done(slots),
    results,
  };
  return JSON.stringify(stored);
}

function restore(text: string): LocalRecord {
  const r = JSON.parse(text) as StoredRecord;
  return {
    tool: r.tool,
    hashes: r.hashes,
    total: BigInt(r.total),
    lines: r.lines,
    expiresAt: r.expiresAt,
    spend: {
      steps: r.steps.map((s) => ({ chain: s.chain, bytes: bytes(s.bytes), ...(s.sigIndices ? { sigIndices: s.sigIndices } : {}), ...(s.expectId ? { expectId: s.expectId } : {}) })),
      done: (txIDs) => fill(r.done, txIDs),
      result: (txIDs, complete) => JSON.parse(fill(r.results[`${txIDs.length}:${complete}`] ?? '{}', txIDs)) as Record<string, unknown>,
    },
  };
}

/** What the store keeps under a nonce: the record's text and its MAC (over the nonce and the text). */
interface Sealed {
  record: string;
  seal: string;
}

/**
 * The record of each local preview, keyed by its confirmation nonce, in the state store: the exact
 * bytes the human approves are kept there unsigned and signed at confirm time, never rebuilt, so
 * with a shared store any replica holding the same key confirms a preview another made, once.
 *
 * The store is not trusted (DESIGN section 9): each record carries a MAC over everything in it
 * (bytes, hashes, total, lines, tool, expiry, answer texts) and its nonce, made with the
 * process's secret (the replicas' shared key with PostgreSQL). Bytes swapped under an id, or a
 * record moved to another id, read as `tampered`.
 */
export class LocalRecords {
  private readonly sealer: Sealer;

  constructor(
    private readonly state: StateStore,
    private readonly now: () => number,
    secret: Buffer = randomBytes(32),
  ) {
    this.sealer = new Sealer(secret, 'local preview');
  }

  async put(nonce: string, record: LocalRecord): Promise<void> {
    const text = store(record);
    const sealed: Sealed = { record: text, seal: this.sealer.seal(nonce, text) };
    // Refused when full; an older preview a human may be reading is never dropped.
    if (!(await this.state.putPreview(nonce, JSON.stringify(sealed), record.expiresAt, this.now(), MAX_LOCAL_RECORDS))) {
      // A refusal the model can act on (not an internal error): nothing is kept, so nothing can be confirmed.
      throw new ChainMcpError('policy', `Refused: ${MAX_LOCAL_RECORDS} local previews are kept already; no new preview until some are confirmed or expire (5 minutes). Nothing was sent.`, {
        hint: 'Confirm or let the open previews expire, then preview again. Do not loop on previews.',
      });
    }
  }

  /** The kept record; `tampered` when what the store holds is not what this server put there. */
  async get(nonce: string): Promise<LocalRecord | 'tampered' | undefined> {
    const text = await this.state.getPreview(nonce, this.now());
    if (text === undefined) return undefined;
    let sealed: Partial<Sealed>;
    try {
      sealed = JSON.parse(text) as Partial<Sealed>;
    } catch {
      return 'tampered';
    }
    if (typeof sealed.record !== 'string' || !this.sealer.verify(sealed.seal, nonce, sealed.record)) return 'tampered';
    return restore(sealed.record);
  }

  /** Takes the record out; true only for the one call that removed it (a record is used once). */
  take(nonce: string): Promise<boolean> {
    return this.state.takePreview(nonce);
  }
}
