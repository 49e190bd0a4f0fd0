import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ChainMcpError } from './errors.js';
import type { AnyObject, ToolDef } from './core/tool.js';
import { confirmField } from './core/fields.js';

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
 * Confirmation ids: `<nonce>.<expiry>.<mac>`, the mac an HMAC (per-process secret) over the
 * tool name, the exact arguments, the nonce and the expiry. Single use: the nonce is taken
 * out of the open set synchronously, so of two concurrent calls with one id only one proceeds.
 */
export class ConfirmationBook {
  private readonly secret = randomBytes(32);
  private readonly open = new Map<string, number>();
  /** The MCP session each open id was issued in (HTTP); an id is redeemed only there. */
  private readonly sessions = new Map<string, string>();

  issue(toolName: string, args: unknown, nowMs: number, session?: string): { id: string; expiresAt: number } {
    this.sweep(nowMs);
    // Bound memory without dropping an id someone may still confirm: the new preview is refused.
    if (this.open.size >= MAX_OPEN) {
      throw new ChainMcpError('policy', `Refused: ${MAX_OPEN} previews are open (unconfirmed, under 5 minutes old); no new preview until some are used or expire. Nothing was sent.`, {
        hint: 'Confirm or abandon the open previews and wait for them to expire; do not loop on previews.',
      });
    }
    const nonce = randomBytes(12).toString('base64url');
    const expiresAt = nowMs + CONFIRMATION_TTL_MS;
    this.open.set(nonce, expiresAt);
    if (session !== undefined) this.sessions.set(nonce, session);
    return { id: `${nonce}.${expiresAt}.${this.mac(toolName, args, nonce, expiresAt)}`, expiresAt };
  }

  /** Ids issued and neither redeemed nor swept: bounded by MAX_OPEN and the TTL. */
  get openCount(): number {
    return this.open.size;
  }

  /** Checks and consumes an id; throws a `confirmation` error that says why it was refused. */
  redeem(id: string, toolName: string, args: unknown, nowMs: number, session?: string): void {
    const nonce = this.verify(id, toolName, args, nowMs, session);
    this.drop(nonce);
  }

  /**
   * Checks an id without consuming it (a spend waiting for the human's approval keeps its id);
   * returns its nonce. Throws a `confirmation` error that says why it was refused.
   */
  verify(id: string, toolName: string, args: unknown, nowMs: number, session?: string): string {
    const parts = id.split('.');
    const [nonce, expiry, mac] = parts;
    const expiresAt = Number(expiry);
    const refuse = (why: string) =>
      new ChainMcpError('confirmation', `Confirmation refused: ${why}. Nothing was sent.`, {
        hint: 'Call the tool again without confirm to get a fresh preview and confirmationId.',
      });
    if (parts.length !== 3 || !nonce || !mac || !/^\d+$/.test(expiry ?? '') || !Number.isSafeInteger(expiresAt)) throw refuse('the confirmationId is malformed');
    const expected = Buffer.from(this.mac(toolName, args, nonce, expiresAt));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw refuse('the confirmationId does not match this tool and these exact arguments (or was not issued by this server)');
    }
    if (nowMs > expiresAt) {
      this.drop(nonce);
      throw refuse('the confirmationId has expired (valid for 5 minutes)');
    }
    if (!this.open.has(nonce)) throw refuse('the confirmationId was already used');
    // Over HTTP each client has its own session: an id seen by one client is no use to another.
    if (this.sessions.get(nonce) !== session) {
      throw refuse(session?.startsWith('user:') || this.sessions.get(nonce)?.startsWith('user:') ? 'the confirmationId belongs to another user' : 'the confirmationId was issued in another MCP session');
    }
    return nonce;
  }

  private drop(nonce: string): void {
    this.open.delete(nonce);
    this.sessions.delete(nonce);
  }

  private mac(toolName: string, args: unknown, nonce: string, expiresAt: number): string {
    return createHmac('sha256', this.secret).update(`${toolName}\n${canonicalArgs(args)}\n${nonce}\n${expiresAt}`).digest('base64url');
  }

  private sweep(nowMs: number): void {
    for (const [nonce, expiresAt] of this.open) if (nowMs > expiresAt) this.drop(nonce);
  }
}
