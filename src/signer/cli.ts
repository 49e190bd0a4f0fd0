import { randomBytes } from 'node:crypto';
import { cb58Decode } from '../codec/index.js';
import { ConfigError, keyFilePath } from '../config.js';
import { KNOWN_NETWORKS } from '../core/network.js';
import { KeyFileError, readKeyFileAddresses, writeKeyFile } from './keyfile.js';
import { CancelledError, NoTerminalError, Terminal } from './tty.js';
import { type SignerAddresses, xpAddress } from './types.js';

/** The X/P derivation path of Camino wallets: the first account's first address. */
export const CAMINO_PATH = "m/44'/9000'/0'/0/0";
/** A passphrase guards money: shorter ones fall to a guesser even at a second per scrypt. */
export const MIN_PASSPHRASE = 10;

const USAGE = 'usage: chain-mcp key new | key import | key show [--network camino|columbus|kopernikus|local|<id>]';

/** Why a typed secret is not a key, without echoing any of it. */
const NOT_A_KEY = 'that is not a private key (PrivateKey-… or 0x and 64 hex digits) nor a BIP-39 recovery phrase; nothing was written';

/**
 * Turns what the person typed into a 32-byte key: `PrivateKey-<cb58>`, 64 hex digits (0x optional),
 * or a BIP-39 phrase (English), whose key is the first account of m/44'/9000'/0'/0/0.
 */
export async function parseSecret(text: string): Promise<Uint8Array> {
  const t = text.trim();
  if (t.startsWith('PrivateKey-')) {
    let bytes: Uint8Array;
    try {
      bytes = cb58Decode(t.slice('PrivateKey-'.length));
    } catch {
      throw new ConfigError(`${NOT_A_KEY} (the PrivateKey-… text has a typo: its checksum fails)`);
    }
    if (bytes.length !== 32) throw new ConfigError(NOT_A_KEY);
    return bytes;
  }
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(t)) return Uint8Array.from(Buffer.from(t.replace(/^0x/, ''), 'hex'));
  const words = t.normalize('NFKD').toLowerCase().split(/\s+/);
  if (words.length < 12) throw new ConfigError(NOT_A_KEY);
  const [{ validateMnemonic, mnemonicToSeedSync }, { wordlist }, { HDKey }] = await Promise.all([
    import('@scure/bip39'),
    import('@scure/bip39/wordlists/english.js'),
    import('@scure/bip32'),
  ]);
  const phrase = words.join(' ');
  if (!validateMnemonic(phrase, wordlist)) throw new ConfigError(`${NOT_A_KEY} (a ${words.length}-word phrase whose words or checksum do not match the BIP-39 English list)`);
  const seed = mnemonicToSeedSync(phrase);
  const node = HDKey.fromMasterSeed(seed).derive(CAMINO_PATH);
  seed.fill(0);
  const key = node.privateKey;
  if (!key) throw new ConfigError(NOT_A_KEY);
  const out = Uint8Array.from(key);
  node.wipePrivateData();
  return out;
}

/** The networks `key show` prints: the one asked for, or every known one. */
function networksFor(arg: string | undefined): Array<[string, { name: string; hrp: string }]> {
  const all = Object.entries(KNOWN_NETWORKS);
  if (arg === undefined) return all;
  const found = all.filter(([id, n]) => id === arg || n.hrp === arg || n.name === arg);
  if (found.length === 0) throw new ConfigError(`--network: unknown network "${arg}" (expected ${all.map(([id, n]) => `${n.hrp} (${id})`).join(', ')})`);
  return found;
}

/** Public lines only: the key never reaches this function. */
export function addressLines(addresses: SignerAddresses, network?: string): string[] {
  const lines = [`C  ${addresses.evm}   (your C-Chain account: EVM transfers and C balances, every network)`];
  for (const [id, n] of networksFor(network)) {
    lines.push(`X  ${xpAddress(addresses.shortId, n.hrp, 'X')}   (${n.hrp}, network ${id})`);
    lines.push(`P  ${xpAddress(addresses.shortId, n.hrp, 'P')}`);
    // What a transfer from X or P to your C account takes as `to` (the 0x above is the same key's EVM side).
    lines.push(`C  ${xpAddress(addresses.shortId, n.hrp, 'C')}   (the "to" of a transfer from X or P to your C account)`);
  }
  return lines;
}

/**
 * Where the key file is, and how a server that an MCP host starts finds it: the host may give it
 * another HOME or XDG_CONFIG_HOME than this shell's, so the path is spelled out.
 */
export function keyFileLines(file: string): string[] {
  return [
    `Key file: ${file}`,
    `A chain-mcp that an MCP host starts looks there only when the host gives it this HOME and XDG_CONFIG_HOME; if unsure, set CHAIN_MCP_KEY_FILE=${file} in the host's server settings.`,
  ];
}

async function askPassphrase(term: Terminal): Promise<string> {
  const first = await term.readHidden(`New passphrase (at least ${MIN_PASSPHRASE} characters; it unlocks the key on the approval page): `);
  if (first.length < MIN_PASSPHRASE) throw new ConfigError(`the passphrase needs at least ${MIN_PASSPHRASE} characters; nothing was written`);
  const second = await term.readHidden('The same passphrase again: ');
  if (first !== second) throw new ConfigError('the two passphrases differ; nothing was written');
  return first;
}

/** `chain-mcp key new | import | show`: the human's own commands; the secrets come from the terminal only. */
export async function keyCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const [verb, ...rest] = args;
  const file = keyFilePath(env);
  if (verb === 'show') {
    let network: string | undefined;
    if (rest[0] === '--network' && rest[1] !== undefined && rest.length === 2) network = rest[1];
    else if (rest.length > 0) throw new ConfigError(USAGE);
    let addresses: SignerAddresses;
    try {
      addresses = readKeyFileAddresses(file);
    } catch (err) {
      if (err instanceof KeyFileError) throw new ConfigError(`${err.message}; make one with \`chain-mcp key new\` or \`chain-mcp key import\``);
      throw err;
    }
    process.stdout.write(`${[...keyFileLines(file), ...addressLines(addresses, network)].join('\n')}\n`);
    return;
  }
  if ((verb !== 'new' && verb !== 'import') || rest.length > 0) throw new ConfigError(USAGE);
  // Before any question: a key file that exists is never replaced.
  try {
    readKeyFileAddresses(file);
    throw new ConfigError(`a key file already exists at ${file}; move it away first (it may hold funds), or set CHAIN_MCP_KEY_FILE`);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    if (!(err instanceof KeyFileError) || !/^no key file/.test(err.message)) throw new ConfigError((err as Error).message);
  }
  let term: Terminal;
  try {
    term = Terminal.open(`key ${verb}`);
  } catch (err) {
    if (err instanceof NoTerminalError) throw new ConfigError(err.message);
    throw err;
  }
  let key: Uint8Array | undefined;
  try {
    if (verb === 'import') {
      term.write('Paste the private key (PrivateKey-… or 0x hex) or type the recovery phrase; nothing is shown as you type.\n');
      key = await parseSecret(await term.readHidden('Key or phrase: '));
    } else {
      const { secp256k1 } = await import('@noble/curves/secp256k1.js');
      key = secp256k1.utils.randomSecretKey(randomBytes(48));
    }
    const passphrase = await askPassphrase(term);
    term.write('Encrypting (scrypt takes a second)...\n');
    const addresses = await writeKeyFile(file, key, passphrase);
    process.stdout.write(
      `Key ${verb === 'new' ? 'made' : 'imported'} and stored encrypted in ${file} (mode 0600).\n${[...keyFileLines(file).slice(1), ...addressLines(addresses)].join('\n')}\n` +
        (verb === 'new'
          ? 'Back up that file and remember the passphrase: nothing else can restore this key.\n'
          : 'Compare these addresses with your wallet before sending funds to them.\n'),
    );
  } catch (err) {
    if (err instanceof CancelledError || err instanceof KeyFileError) throw new ConfigError(err.message);
    throw err;
  } finally {
    key?.fill(0);
    term.close();
  }
}
