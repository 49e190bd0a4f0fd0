import { ApprovalBook } from '../approval/book.js';
import { ApprovalPages } from '../approval/page.js';
import { PasskeyStore } from '../approval/passkey.js';
import { UnlockForm } from '../approval/unlock.js';
import { type Config, ConfigError } from '../config.js';
import { LocalRecords } from '../local/records.js';
import type { Logger } from '../log.js';
import { KeyFileError, type KeyFileSigner, openKeyFile } from '../signer/keyfile.js';
import type { StateStore } from '../state/store.js';
import { SpendLedger, signerOf } from './ledger.js';

/**
 * What only a spend (or an admin write) uses: the approval book and its pages (passkeys, the unlock
 * form), the daily total, the local key file and each local preview's kept bytes. A read-only
 * stdio start never builds it, so its modules stay out of that start (docs/benchmarks.md, "Cold
 * start"); services-core.ts loads this module when the configuration can reach it.
 */
export interface SpendMachinery {
  approvals: ApprovalBook;
  approvalPages: ApprovalPages;
  ledger: SpendLedger;
  signer?: KeyFileSigner;
  localRecords: LocalRecords;
}

export interface MachineryOptions {
  config: Config;
  log: Logger;
  state: StateStore;
  now: () => number;
  /** The secret approvals and kept previews are authenticated with (state/seal.ts). */
  secret: Buffer;
  /** The refusal's words for a locked key (the key file asks when a spend needs it). */
  unlockText: () => string;
}

export type BuildMachinery = (opts: MachineryOptions) => SpendMachinery;

/** Builds the machinery; a key file that cannot be opened is a ConfigError that stops the start. */
export function buildMachinery(opts: MachineryOptions): SpendMachinery {
  const { config, log } = opts;
  let signer: KeyFileSigner | undefined;
  let unlock: UnlockForm | undefined;
  if (config.signer === 'local') {
    // With the passphrase on disk, locking protects nothing a restart would not undo: the key stays open.
    const idleMinutes = config.keyPassphrase !== undefined ? 0 : config.keyIdleMinutes;
    try {
      signer = openKeyFile(config.keyFile, { idleMinutes });
    } catch (err) {
      if (err instanceof KeyFileError) throw new ConfigError(`CHAIN_MCP_KEY_FILE: ${err.message}`);
      throw err;
    }
    unlock = new UnlockForm(signer, log, config.keyIdleMinutes);
    signer.setHowToUnlock(opts.unlockText);
  }
  const approvals = new ApprovalBook(opts.now, opts.state, opts.secret);
  return {
    approvals,
    signer,
    localRecords: new LocalRecords(opts.state, opts.now, opts.secret),
    // The daily total belongs to where the money comes from: the key (by its address) or the keystore user.
    ledger: new SpendLedger(opts.now, opts.state, signer ? `local:${signer.addresses.evm.toLowerCase()}` : signerOf(config)),
    approvalPages: new ApprovalPages(approvals, log, config.approvalLink === 'passkey' ? new PasskeyStore(config.passkeyFile, log) : undefined, unlock),
  };
}
