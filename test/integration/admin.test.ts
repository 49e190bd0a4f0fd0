import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inMemoryStack, type Stack } from '../helpers/stack.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { DEVNET_AUTH_PASSWORD } from '../../src/devnet/node/auth.js';
import { RpcFault } from '../../src/devnet/rpc.js';

/** Admin tier on the devnet: tokens, keystore users, keys, the C admin API and the runner. */

const SERVER_TOKEN = 'server-token-for-admin-tests';

async function rawCall(devnet: Devnet, path: string, method: string, token?: string): Promise<{ status: number; body: { error?: { message: string }; result?: unknown } }> {
  const res = await fetch(devnet.nodeUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }),
  });
  return { status: res.status, body: (await res.json()) as { error?: { message: string } } };
}

/** Key and keystore-user operations are spends (issue 21): preview, then confirm (confirm-id mode here; the human path is tested in spend-facts). */
async function confirmed(stack: Stack, name: string, args: Record<string, unknown> = {}) {
  const preview = await stack.call(name, args);
  if (preview.isError) return preview;
  expect(preview.structured?.status, preview.text).toBe('preview');
  const r = await stack.call(name, { ...args, confirm: preview.structured?.confirmationId });
  return { ...r, structured: (r.structured?.result as Record<string, unknown> | undefined) ?? r.structured };
}

function adminEnv(devnet: Devnet, extra: Record<string, string> = {}): Record<string, string> {
  return {
    CHAIN_MCP_ALLOW_ADMIN: 'true',
    CHAIN_MCP_AUTH_TOKEN: SERVER_TOKEN,
    CHAIN_MCP_AUTH_PASSWORD: DEVNET_AUTH_PASSWORD,
    CHAIN_MCP_KEYSTORE_USER: devnet.keystore.username,
    CHAIN_MCP_KEYSTORE_PASSWORD: devnet.keystore.password,
    CHAIN_MCP_RUNNER_URL: devnet.runnerUrl!,
    CHAIN_MCP_RUNNER_EXEC_PATH: '/opt/node/camino-node',
    ...extra,
  };
}

describe('auth tokens on a devnet that requires them', () => {
  let devnet: Devnet;
  let stack: Stack;
  beforeAll(async () => {
    devnet = await startDevnet({ authRequired: true, authTokens: [SERVER_TOKEN] });
    stack = await inMemoryStack({ devnet, env: adminEnv(devnet) });
  });
  afterAll(async () => {
    await stack.close();
    await devnet.close();
  });

  it('creates a token, uses it on the granted endpoint only, and revokes it', async () => {
    devnet.router.record = true;
    devnet.router.requests.length = 0;
    const created = await stack.call('auth_newToken', { endpoints: ['/ext/info'] });
    expect(created.isError, created.text).toBe(false);
    const token = created.structured?.token as string;
    expect(token.length).toBeGreaterThan(10);
    expect(created.text).not.toContain(token);
    const authRequest = devnet.router.requests.find((r) => r.path === '/ext/auth')!;
    expect(authRequest.headers.authorization).toBeUndefined();
    expect(authRequest.body).toMatchObject({ method: 'auth.newToken', params: { password: DEVNET_AUTH_PASSWORD, endpoints: ['/ext/info'] } });

    expect((await rawCall(devnet, '/ext/info', 'info.getNodeID', token)).status).toBe(200);
    const other = await rawCall(devnet, '/ext/P', 'platform.getHeight', token);
    expect(other.status).toBe(401);
    expect(other.body.error?.message).toBe('the provided auth token does not allow access to this endpoint');
    const none = await rawCall(devnet, '/ext/info', 'info.getNodeID');
    expect(none.status).toBe(401);
    expect(none.body.error?.message).toBe('auth token not provided');

    const revoked = await stack.call('auth_revokeToken', { token });
    expect(revoked.isError, revoked.text).toBe(false);
    expect(revoked.text).not.toContain(token);
    const after = await rawCall(devnet, '/ext/info', 'info.getNodeID', token);
    expect(after.status).toBe(401);
    expect(after.body.error?.message).toBe('the provided auth token was revoked');
    // Revoking again (an invalid token) does nothing and succeeds.
    expect((await stack.call('auth_revokeToken', { token })).isError).toBe(false);
    devnet.router.record = false;
  });

  it('expires tokens after 12 hours', async () => {
    const token = (await stack.call('auth_newToken', { endpoints: ['*'] })).structured?.token as string;
    expect((await rawCall(devnet, '/ext/P', 'platform.getHeight', token)).status).toBe(200);
    const realNow = devnet.state.now;
    devnet.state.now = () => realNow() + 12 * 3600;
    try {
      const late = await rawCall(devnet, '/ext/P', 'platform.getHeight', token);
      expect(late.status).toBe(401);
      expect(late.body.error?.message).toBe('the provided auth token is expired');
    } finally {
      devnet.state.now = realNow;
    }
  });

  it('refuses the auth tools without CHAIN_MCP_AUTH_PASSWORD, sending nothing', async () => {
    const bare = await inMemoryStack({ devnet, env: { CHAIN_MCP_ALLOW_ADMIN: 'true', CHAIN_MCP_AUTH_TOKEN: SERVER_TOKEN } });
    devnet.router.record = true;
    devnet.router.requests.length = 0;
    try {
      const r = await bare.call('auth_newToken', { endpoints: ['*'] });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('CHAIN_MCP_AUTH_PASSWORD');
      expect(devnet.router.requests.filter((q) => q.path === '/ext/auth')).toHaveLength(0);
    } finally {
      devnet.router.record = false;
      await bare.close();
    }
  });

  it('changes the password: old tokens die, the new password is never shown, the operator is told to update the env', async () => {
    const token = (await stack.call('auth_newToken', { endpoints: ['*'] })).structured?.token as string;
    const newPassword = 'N3w-Auth-Passw0rd!';
    const changed = await stack.call('auth_changePassword', { newPassword });
    expect(changed.isError, changed.text).toBe(false);
    expect(changed.text).toContain('CHAIN_MCP_AUTH_PASSWORD');
    expect(JSON.stringify(changed)).not.toContain(newPassword);
    const dead = await rawCall(devnet, '/ext/info', 'info.getNodeID', token);
    expect(dead.status).toBe(401);
    // The server's own token was made under the old password too.
    expect((await stack.call('info_getNodeID')).text).toContain('HTTP 401');
    const stale = await stack.call('auth_newToken', { endpoints: ['*'] });
    expect(stale.isError).toBe(true);
    expect(stale.text).toContain('incorrect password');
    expect(stale.text).not.toContain(DEVNET_AUTH_PASSWORD);
  });
});

describe('a node that echoes the new auth password in its error', () => {
  it('auth_changePassword never shows the new password, even when the node repeats it', async () => {
    const devnet = await startDevnet({ authRequired: true, authTokens: [SERVER_TOKEN] });
    const stack = await inMemoryStack({ devnet, env: adminEnv(devnet) });
    try {
      // The new password is no configured secret, so only the tool's own scrubbing can hide it.
      devnet.router.on('/ext/auth', 'auth.changePassword', (p) => {
        throw new RpcFault(`password "${String((p as { newPassword?: unknown }).newPassword)}" is too weak; "${String((p as { newPassword?: unknown }).newPassword)}" rejected`);
      });
      const newPassword = 'Echoed-N3w-Passw0rd';
      const r = await stack.call('auth_changePassword', { newPassword });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('password "[redacted]" is too weak; "[redacted]" rejected');
      expect(JSON.stringify(r)).not.toContain(newPassword);
    } finally {
      await stack.close();
      await devnet.close();
    }
  });
});

describe('keystore users and keys', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet();
  });
  afterAll(() => devnet.close());

  it('refuses a weak configured password before any request and creates a strong one', async () => {
    const weak = await inMemoryStack({ devnet, env: { CHAIN_MCP_ALLOW_ADMIN: 'true', CHAIN_MCP_KEYSTORE_USER: 'weakling', CHAIN_MCP_KEYSTORE_PASSWORD: 'password1' } });
    devnet.router.record = true;
    devnet.router.requests.length = 0;
    try {
      const r = await weak.call('keystore_createUser');
      expect(r.isError).toBe(true);
      expect(r.text).toContain('CHAIN_MCP_KEYSTORE_PASSWORD lacks an upper-case letter, a symbol');
      expect(r.text).not.toContain('password1');
      expect(devnet.router.requests).toHaveLength(0);
    } finally {
      devnet.router.record = false;
      await weak.close();
    }
    expect(devnet.state.users.has('weakling')).toBe(false);
  });

  it('creates, exports, deletes and re-imports the configured user with its addresses; a wrong password cannot import', async () => {
    const env = { CHAIN_MCP_ALLOW_ADMIN: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_KEYSTORE_USER: 'carol', CHAIN_MCP_KEYSTORE_PASSWORD: 'Car0l-Keystore!' };
    const carol = await inMemoryStack({ devnet, env });
    try {
      expect((await carol.call('keystore_createUser')).text).toContain('carol created');
      const again = await carol.call('keystore_createUser');
      expect(again.isError).toBe(true);
      const address = (await carol.call('xvm_createAddress')).structured?.address as string;
      const pAddress = (await carol.call('platform_createAddress')).structured?.address as string;
      expect(pAddress).toMatch(/^P-local1/);
      const exported = await confirmed(carol, 'keystore_exportUser', { encoding: 'hex' });
      expect(exported.isError, exported.text).toBe(false);
      const user = exported.structured?.user as string;
      expect(user).toMatch(/^0x[0-9a-f]+$/);
      expect((await confirmed(carol, 'keystore_deleteUser')).isError).toBe(false);
      expect(devnet.state.users.has('carol')).toBe(false);
      const wrong = await inMemoryStack({ devnet, env: { ...env, CHAIN_MCP_KEYSTORE_PASSWORD: 'Other-Passw0rd!' } });
      try {
        const refused = await confirmed(wrong, 'keystore_importUser', { user, encoding: 'hex' });
        expect(refused.isError).toBe(true);
        expect(refused.text).toContain('incorrect password for user "carol"');
      } finally {
        await wrong.close();
      }
      expect((await confirmed(carol, 'keystore_importUser', { user, encoding: 'hex' })).isError).toBe(false);
      const listed = await carol.call('xvm_listAddresses');
      expect(listed.structured?.addresses).toContain(address);
    } finally {
      await carol.close();
    }
  });

  it('exports keys on X, P and C and imports them into another user', async () => {
    const d0 = devnet.state.users.get('devnet')!.keys[0]!;
    const devnetStack = await inMemoryStack({ devnet, env: adminEnv(devnet, { CHAIN_MCP_APPROVAL: 'confirm-id' }) });
    const dave = await inMemoryStack({
      devnet,
      env: { CHAIN_MCP_ALLOW_ADMIN: 'true', CHAIN_MCP_APPROVAL: 'confirm-id', CHAIN_MCP_KEYSTORE_USER: 'dave', CHAIN_MCP_KEYSTORE_PASSWORD: 'Dave-Keyst0re!' },
    });
    try {
      const x = await confirmed(devnetStack, 'xvm_exportKey', { address: d0.x });
      expect(x.structured?.privateKey).toBe(d0.privateKey);
      expect(x.text).not.toContain(d0.privateKey);
      expect((await confirmed(devnetStack, 'platform_exportKey', { address: d0.p })).structured?.privateKey).toBe(d0.privateKey);
      const c = await confirmed(devnetStack, 'cx_exportKey', { address: d0.c });
      expect(c.structured?.privateKey).toBe(d0.privateKey);
      expect(c.structured?.privateKeyHex).toMatch(/^[0-9a-f]{64}$/);
      const notMine = await confirmed(devnetStack, 'xvm_exportKey', { address: devnet.state.users.get('alice')!.keys[0]!.x });
      expect(notMine.isError).toBe(true);
      await dave.call('keystore_createUser');
      const imported = await confirmed(dave, 'xvm_importKey', { privateKey: d0.privateKey });
      expect(imported.structured?.address).toBe(d0.x);
      expect(imported.text).not.toContain(d0.privateKey);
      expect((await confirmed(dave, 'cx_importKey', { privateKey: d0.privateKey })).structured?.address).toBe(d0.c);
      const bad = await confirmed(dave, 'xvm_importKey', { privateKey: 'PrivateKey-notakey' });
      expect(bad.isError).toBe(true);
      expect(bad.text).not.toContain('notakey');
    } finally {
      await devnetStack.close();
      await dave.close();
    }
  });
});

describe('C-Chain admin API and the network runner', () => {
  let devnet: Devnet;
  let stack: Stack;
  beforeAll(async () => {
    devnet = await startDevnet();
    stack = await inMemoryStack({ devnet, env: adminEnv(devnet, { CHAIN_MCP_AUTH_TOKEN: '' }) });
  });
  afterAll(async () => {
    await stack.close();
    await devnet.close();
  });

  it('finds no /ext/auth on a node that does not require tokens', async () => {
    const r = await stack.call('auth_newToken', { endpoints: ['*'] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('HTTP 404');
  });

  it('sets the log level and runs the profilers', async () => {
    expect((await stack.call('admin_setLogLevel', { level: 'debug' })).text).toContain('set to debug');
    const bad = await stack.call('admin_setLogLevel', { level: 'loud' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('failed to parse log level');
    expect((await stack.call('admin_startCPUProfiler')).isError).toBe(false);
    expect((await stack.call('admin_startCPUProfiler')).text).toContain('already running');
    expect((await stack.call('admin_stopCPUProfiler')).isError).toBe(false);
    expect((await stack.call('admin_memoryProfile')).isError).toBe(false);
    expect((await stack.call('admin_lockProfile')).isError).toBe(false);
  });

  it('starts a local network with the configured executable, then reports health and URIs', async () => {
    const started = await stack.call('runner_start', { numNodes: 3 });
    expect(started.isError, started.text).toBe(false);
    expect(devnet.runner.starts).toEqual([{ execPath: '/opt/node/camino-node', numNodes: 3, logLevel: 'INFO' }]);
    expect(started.structured).toMatchObject({ healthy: false, nodeNames: [] });
    expect((await stack.call('runner_health')).structured?.healthy).toBe(false);
    const healthy = await stack.call('runner_health');
    expect(healthy.structured).toMatchObject({ healthy: true, nodeNames: ['node1', 'node2', 'node3'] });
    const uris = await stack.call('runner_uris');
    expect(uris.structured?.uris).toHaveLength(3);
    expect(uris.structured?.uris).toContain(devnet.nodeUrl);
    const noExec = await inMemoryStack({ devnet, env: { CHAIN_MCP_ALLOW_ADMIN: 'true', CHAIN_MCP_RUNNER_URL: devnet.runnerUrl! } });
    try {
      const r = await noExec.call('runner_start', {});
      expect(r.isError).toBe(true);
      expect(r.text).toContain('CHAIN_MCP_RUNNER_EXEC_PATH');
    } finally {
      await noExec.close();
    }
  });
});
