import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { DEVNET_AUTH_PASSWORD } from '../../src/devnet/node/auth.js';
import { stdioStack } from '../helpers/stack.js';

/**
 * Secrets (DESIGN "Confirmation of spends" 1, "Errors"): over a whole session of a spawned
 * stdio server exercising every tier, the keystore password, the auth password and the
 * auth token appear in no tool result and no stderr line, while they did reach the node.
 */

const TOKEN = 'tok-Secret-5f1e2d3c4b5a69788796a5b4';
const KEYSTORE_PASSWORD = 'Devnet-Passw0rd!';

describe('secrets over a whole stdio session', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ authRequired: true, authTokens: [TOKEN] });
    devnet.router.record = true;
  });
  afterAll(() => devnet.close());

  it('never shows the keystore password, the auth password or the token', async () => {
    const env = {
      CHAIN_MCP_AUTH_TOKEN: TOKEN,
      CHAIN_MCP_AUTH_PASSWORD: DEVNET_AUTH_PASSWORD,
      CHAIN_MCP_KEYSTORE_USER: 'devnet',
      CHAIN_MCP_KEYSTORE_PASSWORD: KEYSTORE_PASSWORD,
      CHAIN_MCP_ALLOW_SPEND: 'true', CHAIN_MCP_APPROVAL: 'confirm-id',
      CHAIN_MCP_ALLOW_ADMIN: 'true',
      CHAIN_MCP_RUNNER_URL: devnet.runnerUrl!,
      CHAIN_MCP_RUNNER_EXEC_PATH: '/opt/node/camino-node',
      CHAIN_MCP_LOG_LEVEL: 'debug',
    };
    const stack = await stdioStack({ devnet, env });
    const wrongPassword = 'Wr0ng-Keystore-Pass!';
    const wrong = await stdioStack({ devnet, env: { ...env, CHAIN_MCP_KEYSTORE_PASSWORD: wrongPassword } });
    const results: unknown[] = [];
    const call = async (name: string, args: Record<string, unknown> = {}, on = stack) => {
      const r = await on.call(name, args);
      results.push(r);
      return r;
    };
    const newAuthPassword = 'Next-Auth-Passw0rd!';
    try {
      const d0 = devnet.state.users.get('devnet')!.keys[0]!;
      const a0 = devnet.state.users.get('alice')!.keys[0]!;
      // Every listed tool once with no arguments: input refusals and node errors alike.
      const { tools } = await stack.client.listTools();
      expect(tools.some((t) => t.name === 'xvm_send') && tools.some((t) => t.name === 'auth_newToken')).toBe(true);
      for (const t of tools) {
        if (t.name === 'auth_changePassword' || t.name === 'keystore_deleteUser') continue;
        await call(t.name);
      }
      // Read, wallet, spend (preview, confirm, a refused id, a node refusal), admin.
      await call('info_getNodeID');
      await call('xvm_listAddresses');
      await call('xvm_createAddress');
      await call('platform_createAddress');
      const send = { amount: '1000000', assetID: 'CAM', to: a0.x, memo: 'hi' };
      const preview = await call('xvm_send', send);
      await call('xvm_send', { ...send, confirm: preview.structured?.confirmationId });
      await call('xvm_send', { ...send, confirm: preview.structured?.confirmationId });
      const big = { ...send, amount: '99999999999999999' };
      const bigPreview = await call('xvm_send', big);
      expect((await call('xvm_send', { ...big, confirm: bigPreview.structured?.confirmationId })).isError).toBe(true);
      const exp = { amount: '2000000', to: d0.x };
      const expPreview = await call('platform_exportNative', exp);
      await call('platform_exportNative', { ...exp, confirm: expPreview.structured?.confirmationId });
      await call('xvm_import', { to: d0.x, sourceChain: 'P' });
      const created = await call('auth_newToken', { endpoints: ['/ext/info'] });
      await call('auth_revokeToken', { token: created.structured?.token });
      await call('keystore_createUser');
      await call('keystore_exportUser');
      await call('xvm_exportKey', { address: d0.x });
      await call('admin_setLogLevel', { level: 'info' });
      await call('runner_start', { numNodes: 2 });
      await call('runner_health');
      await call('runner_uris');
      expect((await call('xvm_listAddresses', {}, wrong)).text).toContain('incorrect password for user "devnet"');
      await call('auth_changePassword', { newPassword: newAuthPassword });
      // After the change the server's password and token are stale: their failures must not leak either.
      expect((await call('auth_newToken', { endpoints: ['*'] })).isError).toBe(true);
      expect((await call('info_getNodeID')).isError).toBe(true);
    } finally {
      await stack.close();
      await wrong.close();
    }
    const sent = JSON.stringify(devnet.router.requests);
    expect(sent).toContain(KEYSTORE_PASSWORD);
    expect(sent).toContain(DEVNET_AUTH_PASSWORD);
    expect(sent).toContain(TOKEN);
    const shown = JSON.stringify(results);
    const logs = stack.stderr() + wrong.stderr();
    expect(logs).toContain('spend issued');
    expect(logs).toContain('spend preview');
    for (const secret of [KEYSTORE_PASSWORD, DEVNET_AUTH_PASSWORD, TOKEN, wrongPassword, newAuthPassword]) {
      expect(shown.includes(secret), `result shows ${secret}`).toBe(false);
      expect(logs.includes(secret), `stderr shows ${secret}`).toBe(false);
    }
  });
});
