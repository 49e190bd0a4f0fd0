/**
 * Which addresses are the keystore user's own, so a change address or an import destination
 * that belongs to someone else is marked (and refused under a limit). A keystore keeps keys per
 * chain, so X addresses come from `xvm.listAddresses` and P addresses from
 * `platform.listAddresses`, falling back to the X list where the node has no P list (the same key
 * gives the same bech32 payload on X, P and C). Cached per process; a miss looks once more, since
 * the user may have created or imported a key since.
 */

export type OwnChain = 'X' | 'P';
export type ListAddresses = (chain: OwnChain) => Promise<string[]>;

/** `X-camino1abc` -> `camino1abc`: what one key's addresses share on every chain. */
export function addressPayload(address: string): string {
  return address.slice(address.indexOf('-') + 1);
}

export class OwnAddresses {
  private readonly cache = new Map<OwnChain, Promise<Set<string>>>();

  /** `list` is undefined when no keystore user is configured: then nothing can be told. */
  constructor(private readonly list: ListAddresses | undefined) {}

  /**
   * true: one of the user's; false: not; undefined: cannot be told (a C-Chain hex address, which
   * is not derived from the bech32 payload, no keystore user, or the node would not list them).
   */
  async has(address: string): Promise<boolean | undefined> {
    const letter = /^([XPC])-/.exec(address)?.[1];
    if (!letter || !this.list) return undefined;
    // Atomic C- addresses (exports to C) carry the same payload as the X ones.
    const chain: OwnChain = letter === 'P' ? 'P' : 'X';
    const payload = addressPayload(address);
    try {
      if ((await this.addresses(chain)).has(payload)) return true;
      this.cache.delete(chain);
      return (await this.addresses(chain)).has(payload);
    } catch {
      return undefined;
    }
  }

  private addresses(chain: OwnChain): Promise<Set<string>> {
    let entry = this.cache.get(chain);
    if (!entry) {
      const list = this.list!;
      entry = list(chain).then((all) => new Set(all.map(addressPayload)));
      // A failed lookup is not remembered: the next spend asks again.
      entry.catch(() => this.cache.delete(chain));
      this.cache.set(chain, entry);
    }
    return entry;
  }
}
