import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { parseChainAddress } from './codec/index.js';
import { ChainMcpError } from './errors.js';
import type { AnyObject, SpendPlan, ToolContext, ToolDef } from './catalogue/types.js';
import { confirmField } from './catalogue/fields.js';
import { nativeAmount } from './summarize/format.js';

/** How long a preview's confirmationId stays valid. */
export const CONFIRMATION_TTL_MS = 5 * 60 * 1000;
const MAX_OPEN = 10_000;

export function spendInput(tool: ToolDef): AnyObject {
  return tool.input.extend({ confirm: confirmField });
}

export function spendOutput(tool: ToolDef): AnyObject {
  return z.object({
    status: z.enum(['preview', 'issued', 'declined']).describe('preview: nothing sent yet; issued: sent once; declined: the human said no.'),
    preview: z.array(z.string()),
    confirmationId: z.string().optional(),
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

  issue(toolName: string, args: unknown, nowMs: number): { id: string; expiresAt: number } {
    this.sweep(nowMs);
    // Bound memory: a model looping on previews drops its oldest ids, never anyone's newest.
    while (this.open.size >= MAX_OPEN) this.open.delete(this.open.keys().next().value as string);
    const nonce = randomBytes(12).toString('base64url');
    const expiresAt = nowMs + CONFIRMATION_TTL_MS;
    this.open.set(nonce, expiresAt);
    return { id: `${nonce}.${expiresAt}.${this.mac(toolName, args, nonce, expiresAt)}`, expiresAt };
  }

  /** Checks and consumes an id; throws a `confirmation` error that says why it was refused. */
  redeem(id: string, toolName: string, args: unknown, nowMs: number): void {
    const [nonce, expiry, mac] = id.split('.');
    const expiresAt = Number(expiry);
    const refuse = (why: string) =>
      new ChainMcpError('confirmation', `Confirmation refused: ${why}. Nothing was sent.`, {
        hint: 'Call the tool again without confirm to get a fresh preview and confirmationId.',
      });
    if (!nonce || !mac || !Number.isSafeInteger(expiresAt)) throw refuse('the confirmationId is malformed');
    const expected = Buffer.from(this.mac(toolName, args, nonce, expiresAt));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw refuse('the confirmationId does not match this tool and these exact arguments (or was not issued by this server)');
    }
    if (nowMs > expiresAt) {
      this.open.delete(nonce);
      throw refuse('the confirmationId has expired (valid for 5 minutes)');
    }
    if (!this.open.delete(nonce)) throw refuse('the confirmationId was already used');
  }

  private mac(toolName: string, args: unknown, nonce: string, expiresAt: number): string {
    return createHmac('sha256', this.secret).update(`${toolName}\n${canonicalArgs(args)}\n${nonce}\n${expiresAt}`).digest('base64url');
  }

  private sweep(nowMs: number): void {
    for (const [nonce, expiresAt] of this.open) if (nowMs > expiresAt) this.open.delete(nonce);
  }
}

/** EVM addresses compare case-insensitively (EIP-55 mixed case); bech32 ones are lowercase already. */
function normalizeRecipient(address: string): string {
  return /^0x[0-9a-fA-F]{40}$/.test(address) ? address.toLowerCase() : address;
}

/**
 * Hard limits (DESIGN "Confirmation of spends", 5): refused before any request that changes
 * anything, both at preview and at execution.
 */
export async function enforceLimits(plan: SpendPlan, ctx: ToolContext): Promise<void> {
  const { config } = ctx;
  const network = await ctx.network();
  if (config.maxSpend !== undefined && plan.amount !== undefined && plan.amount > config.maxSpend) {
    throw new ChainMcpError(
      'policy',
      `Refused: the amount ${nativeAmount(plan.amount, network).display} exceeds CHAIN_MCP_MAX_SPEND (${nativeAmount(config.maxSpend, network).display}).`,
      { hint: 'Send a smaller amount, or ask the operator to raise the limit.' },
    );
  }
  const allowed = config.allowedRecipients?.map(normalizeRecipient);
  for (const recipient of plan.recipients ?? []) {
    if (allowed && !allowed.includes(normalizeRecipient(recipient))) {
      throw new ChainMcpError('policy', `Refused: ${recipient} is not in CHAIN_MCP_ALLOWED_RECIPIENTS.`, {
        hint: 'Only the operator can add recipients to the allow-list.',
      });
    }
    if (/^[XPC]-/.test(recipient) && (network.source === 'configuration' || network.hrp !== 'custom')) {
      const { hrp } = parseChainAddress(recipient);
      if (hrp !== network.hrp) {
        throw new ChainMcpError('policy', `Refused: ${recipient} belongs to network prefix "${hrp}", but the node is on "${network.hrp}".`, {
          hint: 'Check that the address is for this network.',
        });
      }
    }
  }
  if (config.expectNetworkId !== undefined) {
    const raw = (await ctx.rpc('info', 'info.getNetworkID')) as { networkID?: unknown };
    if (String(raw?.networkID) !== config.expectNetworkId) {
      throw new ChainMcpError('policy', `Refused: the node is on network ${String(raw?.networkID)}, not CHAIN_MCP_EXPECT_NETWORK_ID=${config.expectNetworkId}.`, {
        hint: 'Point CHAIN_MCP_NODE_URL at the expected network.',
      });
    }
  }
}
