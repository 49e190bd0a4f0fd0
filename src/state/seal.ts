import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * MACs over what the state store keeps (DESIGN section 9, "Who the guard holds against"): a row
 * anyone with write access to the store changed, or copied from another row, no longer verifies.
 *
 * The secret is this process's own, random and never written anywhere, unless the store is
 * shared by replicas (PostgreSQL): then it is the replicas' common key (CHAIN_MCP_STATE_KEY, read
 * from its file once at start). A single process never takes it from its environment, which any
 * process of the same OS user can read.
 */
export class Sealer {
  private readonly key: Buffer;

  /** `purpose` separates the MACs of different records made with one secret. */
  constructor(secret: Buffer, purpose: string) {
    this.key = createHmac('sha256', secret).update(`chain-mcp seal: ${purpose}`).digest();
  }

  /** The MAC of `fields` (JSON-encoded in order, so no two field lists share a text). */
  seal(...fields: unknown[]): string {
    return createHmac('sha256', this.key).update(JSON.stringify(fields)).digest('base64url');
  }

  /** Whether `mac` is the MAC of `fields` (compared in constant time). */
  verify(mac: string | undefined, ...fields: unknown[]): boolean {
    if (typeof mac !== 'string') return false;
    const a = Buffer.from(mac);
    const b = Buffer.from(this.seal(...fields));
    return a.length === b.length && timingSafeEqual(a, b);
  }
}

/**
 * The secret the seals and confirmation ids are made with: the shared key where replicas share
 * the store, otherwise 32 random bytes that live only in this process (a restart drops whatever
 * was pending, which is right: nothing a file or the environment holds can stand in for it).
 */
export function stateSecret(shared: boolean, sharedKeyHex: string | undefined): Buffer {
  return shared && sharedKeyHex ? Buffer.from(sharedKeyHex, 'hex') : randomBytes(32);
}
