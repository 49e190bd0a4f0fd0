import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ChainMcpError } from './errors.js';
import type { AnyObject, ToolDef } from './core/tool.js';
import { confirmField } from './core/fields.js';
import { MemoryStore } from './state/memory.js';
import { LOCAL_OWNER, type StateStore, type TakeOutcome } from './state/store.js';

/** How long a preview's confirmationId stays valid. */
export const CONFIRMATION_TTL_MS = 5 * 60 * 1000;
export const MAX_OPEN = 10_000;

export function spendInput(tool: ToolDef): AnyObject {
  return tool.input.extend({ confirm: confirmField });
}

export function spendOutput(tool: ToolDef): AnyObject {
  return z.object({
    status: z.enum(['preview', 'issued', 'declined']).describe('preview: nothing sent yet; issued: sent once; declined: the human said no.'),
    preview: z.array(z.string()),
    confirmationId: z.string().optional(),
    approvalUrl: z.string().optional().describe('Loopback page where the human approves, when the client has no way to ask them.'),
    expiresAt: z.string().optional(),
    approvedBy: z.string().optional().describe('Who approved the spend: the channel, and the passkey on the approval page.'),
    details: z.record(z.string(), z.unknown()).optional(),
    result: tool.output.optional(),
  });
}

/** Stable JSON of the parsed arguments (sorted keys, bigints as strings): what an id is bound to. */
export function canonicalArgs(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return v.toString();
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return v;
  });
}

/**
 * Confirmation ids: `<nonce>.<expiry>.<mac>`, the mac an HMAC (CHAIN_MCP_STATE_KEY, or a secret
 * of this process) over the tool name, the exact arguments, the nonce and the expiry. The open
 * nonces live in the state store (src/state/) with their owner: single use across every process
 * sharing it, and only by the owner (the token's subject, or the MCP session, or the local user).
 */
export class ConfirmationBook {
  private readonly secret: Buffer;

  constructor(
    private readonly store: StateStore = new MemoryStore(),
    key?: string,
  ) {
    this.secret = key ? Buffer.from(key, 'hex') : randomBytes(32);
  }

  async issue(toolName: string, args: unknown, nowMs: number, owner: string = LOCAL_OWNER): Promise<{ id: string; expiresAt: number }> {
    const nonce = randomBytes(12).toString('base64url');
    const expiresAt = nowMs + CONFIRMATION_TTL_MS;
    // Bound the store without dropping an id someone may still confirm: the new preview is refused.
    if (!(await this.store.putConfirmation(nonce, owner, expiresAt, nowMs, MAX_OPEN))) {
      throw new ChainMcpError('policy', `Refused: ${MAX_OPEN} previews are open (unconfirmed, under 5 minutes old); no new preview until some are used or expire. Nothing was sent.`, {
        hint: 'Confirm or abandon the open previews and wait for them to expire; do not loop on previews.',
      });
    }
    return { id: `${nonce}.${expiresAt}.${this.mac(toolName, args, nonce, expiresAt)}`, expiresAt };
  }

  /** Ids issued and neither redeemed nor expired at `nowMs`: bounded by MAX_OPEN and the TTL. */
  openCount(nowMs: number): Promise<number> {
    return this.store.openConfirmations(nowMs);
  }

  /** Checks and consumes an id, once over every process; throws a `confirmation` error that says why it was refused. */
  async redeem(id: string, toolName: string, args: unknown, nowMs: number, owner: string = LOCAL_OWNER): Promise<void> {
    const nonce = this.checkMac(id, toolName, args, nowMs);
    const outcome = await this.store.takeConfirmation(nonce, owner, nowMs);
    if (outcome !== 'ok') throw this.refusal(outcome);
  }

  /**
   * Checks an id without consuming it (a spend waiting for the human's approval keeps its id);
   * returns its nonce. Throws a `confirmation` error that says why it was refused.
   */
  async verify(id: string, toolName: string, args: unknown, nowMs: number, owner: string = LOCAL_OWNER): Promise<string> {
    const nonce = this.checkMac(id, toolName, args, nowMs);
    const outcome = await this.store.checkConfirmation(nonce, owner, nowMs);
    if (outcome !== 'ok') throw this.refusal(outcome);
    return nonce;
  }

  /** What the id itself proves, before the store is asked: its form, its MAC and its expiry. */
  private checkMac(id: string, toolName: string, args: unknown, nowMs: number): string {
    const parts = id.split('.');
    const [nonce, expiry, mac] = parts;
    const expiresAt = Number(expiry);
    if (parts.length !== 3 || !nonce || !mac || !/^\d+$/.test(expiry ?? '') || !Number.isSafeInteger(expiresAt)) throw refuse('the confirmationId is malformed');
    const expected = Buffer.from(this.mac(toolName, args, nonce, expiresAt));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw refuse('the confirmationId does not match this tool and these exact arguments (or was not issued by this server)');
    }
    if (nowMs > expiresAt) {
      // The record goes when the store next sweeps; no take can succeed after its expiry anyway.
      throw refuse('the confirmationId has expired (valid for 5 minutes)');
    }
    return nonce;
  }

  private refusal(outcome: Exclude<TakeOutcome, 'ok'>): ChainMcpError {
    if (outcome === 'expired') return refuse('the confirmationId has expired (valid for 5 minutes)');
    // Over HTTP each client has its own session (or user): an id seen by one is no use to another, and is not used up by its attempt.
    if (outcome === 'other-owner') return refuse('the confirmationId was issued in another MCP session (or to another user)');
    return refuse('the confirmationId was already used');
  }

  private mac(toolName: string, args: unknown, nonce: string, expiresAt: number): string {
    return createHmac('sha256', this.secret).update(`${toolName}\n${canonicalArgs(args)}\n${nonce}\n${expiresAt}`).digest('base64url');
  }
}

function refuse(why: string): ChainMcpError {
  return new ChainMcpError('confirmation', `Confirmation refused: ${why}. Nothing was sent.`, {
    hint: 'Call the tool again without confirm to get a fresh preview and confirmationId.',
  });
}
