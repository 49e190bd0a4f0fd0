import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { requestsFor, spendHarness } from '../helpers/spend-harness.js';

/**
 * The question to the human follows the call that asked it (mutation survivors, issue 25): when
 * the model's call is cancelled, the client's open approval question is withdrawn too, and a
 * client that fails to ask is recorded as a cancel, never as an answer it did not give.
 */
describe('approval questions and the call that asked them', () => {
  let devnet: Devnet;
  let to: string;
  const args = () => ({ amount: '1000000000', assetID: 'CAM', to });
  const sends = () => requestsFor(devnet, 'xvm.send');

  beforeAll(async () => {
    devnet = await startDevnet();
    devnet.router.record = true;
    to = devnet.state.users.get('alice')!.keys[1]!.x;
  });
  afterAll(() => devnet.close());

  for (const [channel, elicitation] of [
    ['form', { form: {} }],
    ['url', { url: {} }],
  ] as const) {
    it(`a cancelled call withdraws its ${channel} question, and nothing is sent`, async () => {
      const h = await spendHarness(devnet, { capabilities: { elicitation }, env: { CHAIN_MCP_APPROVAL_WAIT_MS: '0', CHAIN_MCP_APPROVAL_LINK: 'plain' } });
      const call = new AbortController();
      let asked = 0;
      let withdrawn: boolean | undefined;
      h.client.setRequestHandler('elicitation/create', async (_request, extra) => {
        // The session's first question is declined: the SDK cannot cancel a request whose id is 0
        // (its cancel handler skips a falsy id, modelcontextprotocol/typescript-sdk#2115), so the
        // cancelled question is the second one.
        if (asked++ === 0) return { action: 'decline' };
        call.abort();
        // Bounded: the human would keep the question open; the server must take it back.
        withdrawn = await new Promise<boolean>((resolve) => {
          if (extra.mcpReq.signal.aborted) return resolve(true);
          const timer = setTimeout(() => resolve(false), 3000);
          extra.mcpReq.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve(true);
          });
        });
        return { action: 'cancel' };
      });
      try {
        const first = await h.call('xvm_send', args());
        expect((await h.call('xvm_send', { ...args(), confirm: first.structured?.confirmationId })).structured?.status).toBe('declined');
        const p = await h.call('xvm_send', args());
        const before = sends();
        await expect(h.client.callTool({ name: 'xvm_send', arguments: { ...args(), confirm: p.structured?.confirmationId } }, { signal: call.signal })).rejects.toThrow();
        // Bounded wait for the client's question handler to finish.
        for (let i = 0; i < 50 && withdrawn === undefined; i++) await new Promise((r) => setTimeout(r, 100));
        expect(withdrawn).toBe(true);
        expect(sends()).toBe(before);
      } finally {
        await h.close();
      }
    });
  }

  it('a client that fails to ask counts as a cancel, in the answer and in the audit line', async () => {
    for (const [elicitation, approval, channel] of [
      [{ form: {} }, 'human', 'form-elicitation'],
      [{ url: {} }, 'human', 'url-elicitation'],
      [{ form: {} }, 'confirm-id', undefined],
    ] as const) {
      const h = await spendHarness(devnet, {
        capabilities: { elicitation },
        env: { CHAIN_MCP_APPROVAL: approval, CHAIN_MCP_APPROVAL_WAIT_MS: '0', CHAIN_MCP_APPROVAL_LINK: 'plain' },
        elicit: () => {
          throw new Error('the client could not show the question');
        },
      });
      const label = `${approval} ${JSON.stringify(elicitation)}`;
      try {
        const p = await h.call('xvm_send', args());
        const r = await h.call('xvm_send', { ...args(), confirm: p.structured?.confirmationId });
        expect(r.structured?.status, label).toBe('declined');
        const audit = h.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.audit === 'declined');
        expect(audit, label).toMatchObject({ answer: 'cancel', ...(channel ? { channel } : {}) });
        if (approval === 'confirm-id') expect(r.text, label).toContain('Declined by the human (cancel); nothing was sent.');
      } finally {
        await h.close();
      }
    }
  });
});
