import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openKeyFile } from '../../src/signer/keyfile.js';
import { MAIN } from '../helpers/stack.js';
import { runInPty } from '../helpers/pty.js';

const EWOQ_CB58 = 'PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN';
const EWOQ_HEX = '56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const PASSPHRASE = 'correct horse battery staple';
// The BIP-39 test phrase "abandon … about": its first Camino account (m/44'/9000'/0'/0/0), cross-checked below
// against the phrase's seed derived independently (bip32 over the same path) in the unit test.
const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'chain-mcp-key-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const baseEnv = (dir: string) => ({ PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: dir });

describe('chain-mcp key (a person at a terminal)', () => {
  it('imports a PrivateKey-… key typed at a real terminal, never echoes it, and writes a file that unlocks to the same addresses', async () => {
    const dir = fresh();
    const run = await runInPty([process.execPath, MAIN, 'key', 'import'], baseEnv(dir), [
      { expect: 'Key or phrase: ', send: `${EWOQ_CB58}\r` },
      { expect: 'New passphrase', send: `${PASSPHRASE}\r` },
      { expect: 'again: ', send: `${PASSPHRASE}\r` },
    ]);
    expect(run.code).toBe(0);
    expect(run.output).toContain('C  0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC   (your C-Chain account: EVM transfers and C balances, every network)');
    expect(run.output).toContain('X  X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u');
    expect(run.output).toContain('P  P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u');
    // The C-Chain's atomic address, what a transfer from X to the user's C account takes.
    expect(run.output).toContain('C  C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u   (the "to" of a transfer from X or P to your C account)');
    expect(run.output).toContain(`set CHAIN_MCP_KEY_FILE=${join(dir, 'chain-mcp', 'key.json')} in the host's server settings.`);
    // Echo is off: neither the key nor the passphrase reached the screen.
    expect(run.output).not.toContain(EWOQ_CB58.slice(12));
    expect(run.output).not.toContain(PASSPHRASE);
    const file = join(dir, 'chain-mcp', 'key.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(EWOQ_HEX);
    expect(text).not.toContain(EWOQ_CB58.slice(12));
    const signer = openKeyFile(file);
    expect(signer.addresses.evm).toBe('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');
    expect(signer.isUnlocked()).toBe(false);
    await signer.unlock(PASSPHRASE);
    expect(signer.isUnlocked()).toBe(true);
    // The unlocked key is the imported one: its signature recovers to the ewoq public key.
    const { secp256k1 } = await import('@noble/curves/secp256k1.js');
    const hash = new Uint8Array(32).fill(9);
    const sig = signer.signHash(hash);
    expect(secp256k1.verify(sig.subarray(0, 64), hash, secp256k1.getPublicKey(Buffer.from(EWOQ_HEX, 'hex'), true), { prehash: false })).toBe(true);
    signer.lock();

    // key show needs no terminal and prints public addresses only.
    const show = spawnSync(process.execPath, [MAIN, 'key', 'show', '--network', 'columbus'], { env: baseEnv(dir), encoding: 'utf8' });
    expect(show.status).toBe(0);
    expect(show.stdout.split('\n').slice(0, 2)).toEqual([
      `Key file: ${file}`,
      `A chain-mcp that an MCP host starts looks there only when the host gives it this HOME and XDG_CONFIG_HOME; if unsure, set CHAIN_MCP_KEY_FILE=${file} in the host's server settings.`,
    ]);
    expect(show.stdout).toContain('C  0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');
    expect(show.stdout).toMatch(/^X {2}X-columbus1\w+ {3}\(columbus, network 1001\)$/m);
    expect(show.stdout).toMatch(/^P {2}P-columbus1\w+$/m);
    expect(show.stdout).toMatch(/^C {2}C-columbus1\w+ {3}\(the "to" of a transfer from X or P to your C account\)$/m);
    expect(show.stdout).not.toContain('local1');

    // A second import never replaces the key, and asks nothing first.
    const again = spawnSync(process.execPath, [MAIN, 'key', 'new'], { env: baseEnv(dir), encoding: 'utf8' });
    expect(again.status).toBe(2);
    expect(again.stderr).toBe(`chain-mcp: a key file already exists at ${file}; move it away first (it may hold funds), or set CHAIN_MCP_KEY_FILE\n`);
  });

  it('takes a BIP-39 phrase (first account of m/44\'/9000\'/0\'/0/0) and refuses passphrases that differ', async () => {
    const dir = fresh();
    const differ = await runInPty([process.execPath, MAIN, 'key', 'new'], baseEnv(dir), [
      { expect: 'New passphrase', send: `${PASSPHRASE}\r` },
      { expect: 'again: ', send: `${PASSPHRASE}!\r` },
    ]);
    expect(differ.code).toBe(2);
    expect(differ.output).toContain('chain-mcp: the two passphrases differ; nothing was written');
    expect(() => statSync(join(dir, 'chain-mcp', 'key.json'))).toThrow();

    const phrase = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
    const run = await runInPty([process.execPath, MAIN, 'key', 'import'], baseEnv(dir), [
      { expect: 'Key or phrase: ', send: `${phrase}\r` },
      { expect: 'New passphrase', send: `${PASSPHRASE}\r` },
      { expect: 'again: ', send: `${PASSPHRASE}\r` },
    ]);
    expect(run.code).toBe(0);
    expect(run.output).not.toContain('abandon');
    const { HDKey } = await import('@scure/bip32');
    const { mnemonicToSeedSync } = await import('@scure/bip39');
    const { addressesOfKey } = await import('../../src/signer/keys.js');
    const expected = addressesOfKey(HDKey.fromMasterSeed(mnemonicToSeedSync(phrase)).derive("m/44'/9000'/0'/0/0").privateKey!);
    const signer = openKeyFile(join(dir, 'chain-mcp', 'key.json'));
    expect(signer.addresses.evm).toBe(expected.evm);
    expect(run.output).toContain(`C  ${expected.evm}`);
  });

  it('refuses with one line without a terminal, reading nothing from stdin', () => {
    const dir = fresh();
    for (const verb of ['new', 'import']) {
      // setsid: no controlling terminal even when the test runner has one; the key on stdin is never read.
      const run = spawnSync('setsid', ['-w', process.execPath, MAIN, 'key', verb], { env: baseEnv(dir), input: `${EWOQ_CB58}\n${PASSPHRASE}\n${PASSPHRASE}\n`, encoding: 'utf8' });
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `chain-mcp: key ${verb} needs a terminal: it reads secrets from /dev/tty only (never from stdin, a file or the environment); run it yourself in a terminal\n`,
      );
    }
    expect(() => statSync(join(dir, 'chain-mcp', 'key.json'))).toThrow();
  });
});
