import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { megabytes, measureTarball, SIZE_PAGES, withSizes } from '../../tools/pack-sizes.js';
import { registryNode, SQLITE_NODE_VERSION } from '../../tools/sqlite-node.js';
import { runInPty } from '../helpers/pty.js';
import { claudeCodeLaunch, README } from '../helpers/readme-snippets.js';
import { type InstalledTarball, installTarball } from '../helpers/tarball.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** The packed tarball's ceiling: the bundled server compresses to well under it (docs/publishing.md). */
const MAX_PACKED_BYTES = 2 * 1024 * 1024;

// One install for the whole file: packing and installing is the slow part.
let installed: InstalledTarball;
beforeAll(() => {
  installed = installTarball();
}, 120_000);
afterAll(() => rmSync(installed.dir, { recursive: true, force: true }));

describe('installing the packed tarball', () => {
  it('declares no dependency: the bundle carries them all', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.optionalDependencies ?? {}).toEqual({});
    expect(pkg.peerDependencies ?? {}).toEqual({});
  });

  it('adds exactly one package to an empty project, and stays small', () => {
    const packages = readdirSync(join(installed.project, 'node_modules')).filter((n) => !n.startsWith('.'));
    expect(packages).toEqual(['chain-mcp']);
    expect(statSync(installed.tarball).size).toBeLessThan(MAX_PACKED_BYTES);
  });

  it("the sizes the README and docs/publishing.md state are the tarball's, as npm run pack writes them", () => {
    let unpacked = 0;
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(dir, e.name));
        else unpacked += statSync(join(dir, e.name)).size;
      }
    };
    walk(join(installed.project, 'node_modules', 'chain-mcp'));
    const sizes = { packed: statSync(installed.tarball).size, unpacked };
    // What npm run pack measures is what a user gets: the tarball's bytes and the installed files'.
    expect(measureTarball(ROOT)).toEqual(sizes);
    for (const name of SIZE_PAGES) {
      const page = readFileSync(join(ROOT, name), 'utf8');
      expect(page, `${name} marks its tarball size`).toContain('<!--packed-->');
      expect(page, `${name} states other sizes than the tarball's: run npm run pack`).toBe(withSizes(page, sizes));
    }
    expect(README).toContain(`**The tarball** (about <!--packed-->${megabytes(sizes.packed)}<!--/packed-->,`);
  });

  it('its bin answers a real MCP client with --devnet', async () => {
    const transport = new StdioClientTransport({
      command: join(installed.binDir, process.platform === 'win32' ? 'chain-mcp.cmd' : 'chain-mcp'),
      args: ['--devnet'],
      env: { PATH: process.env.PATH ?? '', CHAIN_MCP_LOG_LEVEL: 'silent' },
      cwd: installed.project,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'tarball-test', version: '0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe('chain-mcp');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('account_overview');
      const result = await client.callTool({ name: 'network_overview', arguments: {} });
      expect(result.isError).not.toBe(true);
      expect(JSON.stringify(result.structuredContent)).toContain('12345');
    } finally {
      await client.close();
    }
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// "Your first transfer", step by step as the README words it, from the installed tarball alone.

/** A fresh key the simulator funds at start (never funded anywhere else). */
const KEY_HEX = `0x${'5c'.repeat(31)}07`;
const PASSPHRASE = 'first transfer from the tarball';
const NANO = 1_000_000_000n;
const WEI_PER_NANO = 1_000_000_000n;

/** The README's first-transfer section: the words the test follows. */
const FIRST = README.slice(README.indexOf('## Your first transfer'), README.indexOf('## Safety model'));

/** "0.002246" (CAM) in nCAM. */
function nanoCam(cam: string): bigint {
  const [whole, frac = ''] = cam.split('.');
  return BigInt(whole!) * NANO + BigInt(frac.padEnd(9, '0'));
}

async function rpc(url: string, method: string, params: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: Record<string, unknown>; error?: unknown };
  if (!body.result) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

const NODES: Array<[string, () => string, string]> = [
  ["this machine's Node", () => process.execPath, `v${process.versions.node}`],
  [`the registry's Node ${SQLITE_NODE_VERSION}`, registryNode, `v${SQLITE_NODE_VERSION}`],
];

describe.each(NODES)("the README's first transfer on %s, with nothing else installed", (_name, nodeOf, version) => {
  it('key import in a terminal, spends on, unlock on the page the log names, approve in the client, one transfer on the simulator', async () => {
    const node = nodeOf();
    // A user's machine: that Node and the installed bin on the PATH, a home of their own; nothing else of ours.
    const home = mkdtempSync(join(installed.dir, 'home-'));
    const PATH = [dirname(node), installed.binDir, process.env.PATH ?? ''].join(delimiter);
    expect(execFileSync('node', ['--version'], { env: { PATH }, encoding: 'utf8' }).trim()).toBe(version);

    expect(FIRST).toContain('| Claude Code | form elicitation | in its own prompt (form elicitation) when the assistant confirms |');

    // Step 1: the key, in a terminal (`chain-mcp key import` takes a 0x key).
    expect(FIRST).toContain('`chain-mcp key import` takes an existing `PrivateKey-…`, 0x key or mnemonic');
    const imported = await runInPty(['chain-mcp', 'key', 'import'], { PATH, HOME: home }, [
      { expect: 'Key or phrase: ', send: `${KEY_HEX}\r` },
      { expect: 'New passphrase', send: `${PASSPHRASE}\r` },
      { expect: 'again: ', send: `${PASSPHRASE}\r` },
    ]);
    expect(imported.code, imported.output).toBe(0);
    const keyFile = join(home, '.config', 'chain-mcp', 'key.json');
    expect(FIRST).toContain('(`~/.config/chain-mcp/key.json`');
    expect(imported.output).toContain(keyFile);
    const evm = /^C {2}(0x[0-9a-fA-F]{40})/m.exec(imported.output)?.[1];
    const cAtomic = /^C {2}(C-local1\w+)/m.exec(imported.output)?.[1];
    const xAddress = /^X {2}(X-local1\w+)/m.exec(imported.output)?.[1];
    expect(evm && cAtomic && xAddress, imported.output).toBeTruthy();

    // Step 2: spends on, in the host's snippet (Claude Code's: "add --devnet at the very end"), its env kept.
    expect(FIRST).toContain('`"args": ["--devnet", "--allow-spend"]`');
    expect(README).toContain('**Claude Code** (add `--devnet` at the very end for the simulator)');
    const snippet = claudeCodeLaunch();
    let stderr = '';
    const transport = new StdioClientTransport({
      command: snippet.command,
      args: [...snippet.args, '--devnet', '--allow-spend'],
      // What the host passes: its PATH, the user's HOME, the snippet's env.
      env: { PATH, HOME: home, ...snippet.env },
      cwd: home,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    // Claude Code's client: it declares elicitation as `{}` (form only; the README's table says its human
    // approves in its own prompt) and asks its human yes or no.
    const asked: Array<{ mode?: string; message: string }> = [];
    const client = new Client({ name: 'first-transfer', version: '0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params as { mode?: string; message: string });
      return { action: 'accept', content: { approve: true } };
    });
    try {
      // A server that dies at start shows the host only "Connection closed": its stderr says why.
      await client.connect(transport).catch((err: Error) => {
        throw new Error(`${err.message}; the server's stderr:\n${stderr}`);
      });
      expect(stderr).toContain(`devnet: funded your key (${keyFile}): 100 CAM on X, 50 CAM on P, 10 CAM on C at ${evm}`);
      const nodeUrl = /devnet: node API at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1];
      expect(nodeUrl, stderr).toBeTruthy();
      const balances = async () => ({
        x: BigInt((await rpc(`${nodeUrl}/ext/bc/X`, 'avm.getBalance', { address: xAddress, assetID: 'CAM' })).balance as string),
        c: BigInt((await rpc(`${nodeUrl}/ext/bc/C/rpc`, 'eth_getBalance', [evm, 'latest'])) as unknown as string),
        xTxs: (await rpc(`${nodeUrl}/ext/bc/X`, 'avm.getAddressTxs', { address: xAddress, assetID: 'CAM' })).txIDs as string[],
      });
      const before = await balances();
      expect(before.x).toBe(100n * NANO);

      // Step 3: ask. The first preview says the key is locked; the unlock page is in the server's log.
      const ask = { to: cAtomic, amount: '2 CAM' };
      expect(FIRST).toContain('"move 2 CAM from X to my C account"');
      const locked = await client.callTool({ name: 'transfer', arguments: ask });
      const lockedText = (locked.content as Array<{ text: string }>)[0]!.text;
      expect(lockedText).toContain('The signing key is locked');
      expect(lockedText).toContain("the human opens the unlock page whose address chain-mcp's log");
      expect(lockedText).not.toMatch(/http:\/\/127\.0\.0\.1:\d+\/unlock\//);
      expect(FIRST).toContain('The first preview says the key is locked and sends nothing.');
      expect(lockedText).toMatch(/nothing sent|Nothing was sent/);
      // The log line the README quotes, with its "…" standing for the port and the page token.
      const quoted = /the line `(signing key locked: [^`]+)`/.exec(FIRST)?.[1] ?? '';
      expect(quoted).toContain('/unlock/…');
      const shape = new RegExp(`^${quoted.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/…/g, '[^ ]+')}`);
      const logged = stderr
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg?: string; unlockUrl?: string })
        .find((l) => shape.test(l.msg ?? ''));
      expect(logged, `no log line like the README's ${quoted}:\n${stderr}`).toBeDefined();
      const unlockUrl = logged!.unlockUrl;
      expect(logged!.msg).toContain(unlockUrl);
      expect(unlockUrl, stderr).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/unlock\/[\w-]+$/);
      // The human opens it in a browser and types the passphrase there.
      const page = await (await fetch(unlockUrl!)).text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
      const unlocked = await fetch(unlockUrl!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(unlockUrl!).origin },
        body: new URLSearchParams({ csrf, passphrase: PASSPHRASE }),
      });
      expect(unlocked.status, await unlocked.clone().text()).toBe(200);
      expect(await unlocked.text()).toContain('Unlocked.');

      // Step 4: the preview to approve, then the client's own prompt (form elicitation), then issued once.
      const preview = await client.callTool({ name: 'transfer', arguments: ask });
      const previewText = (preview.content as Array<{ text: string }>)[0]!.text;
      expect(preview.isError, previewText).not.toBe(true);
      expect(previewText).toContain('the human is then asked to approve in their client');
      const confirm = (preview.structuredContent as { confirmationId: string }).confirmationId;
      expect(asked).toEqual([]);
      const done = await client.callTool({ name: 'transfer', arguments: { ...ask, confirm } });
      const doneText = (done.content as Array<{ text: string }>)[0]!.text;
      expect(done.isError, doneText).not.toBe(true);
      expect(asked).toHaveLength(1);
      expect(asked[0]!.mode ?? 'form').toBe('form');
      expect(asked[0]!.message).toMatch(/^Approve /);
      expect(asked[0]!.message).toContain('2 CAM');

      const outcome = done.structuredContent as { approvedBy: string; result: { steps: Array<{ action: string; chain: string; status: string; txID: string }> } };
      expect(outcome.approvedBy).toBe('form-elicitation');
      const steps = outcome.result.steps;
      expect(steps.map((st) => [st.action, st.chain, st.status])).toEqual([
        ['export', 'X', 'issued'],
        ['import', 'C', 'issued'],
      ]);

      // The chain moved exactly as approved: one new X transaction (the export), X down by 2 CAM and the
      // export fee, C up by 2 CAM less the import fee, the fees as the preview stated them.
      const fees = /Fees: ([\d.]+) CAM \(export\) \+ ([\d.]+) CAM \(import\)/.exec(previewText);
      expect(fees, previewText).not.toBeNull();
      const [exportFee, importFee] = [nanoCam(fees![1]!), nanoCam(fees![2]!)];
      const after = await balances();
      expect(after.xTxs).toEqual([...before.xTxs, steps[0]!.txID]);
      expect(before.x - after.x).toBe(2n * NANO + exportFee);
      expect(after.c - before.c).toBe((2n * NANO - importFee) * WEI_PER_NANO);
    } finally {
      await client.close();
    }
  }, 120_000);
});
