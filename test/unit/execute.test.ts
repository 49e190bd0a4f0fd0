import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type SpendLimits, type ToolDef, type Toolset } from '../../src/core/tool.js';
import { type Config, loadConfig } from '../../src/config.js';
import { ChainMcpError, HttpStatusError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import type { CallHooks } from '../../src/registry/context.js';
import { callTool } from '../../src/registry/execute.js';
import { Services } from '../../src/services.js';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { addressFor } from '../../src/devnet/state/index.js';
import { recordingNode } from '../helpers/recording-node.js';

/**
 * One tools/call end to end inside execute.ts with tools made for the test: the refusal text for
 * bad input, the request a catalogue entry sends, what a failed spend says, and the preview.
 * The node is the devnet on loopback; the tools' own behaviour is scripted.
 */

let devnet: Devnet;
beforeAll(async () => {
  devnet = await startDevnet();
  devnet.router.record = true;
  ARGS.to = addressFor(devnet.state, 'X', 'bob');
});
afterAll(async () => {
  await devnet.close();
});

const T0 = 1_800_000_000_000;

function setup(catalogue: ToolDef[], env: Record<string, string> = {}, extra: Partial<Config> = {}) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  const config = { ...loadConfig({ CHAIN_MCP_NODE_URL: devnet.nodeUrl, ...env }), ...extra };
  const services = new Services({ config, log: createLogger('debug', config.secrets, sink), catalogue, now: () => T0 });
  const call = (tool: ToolDef, args: unknown, hooks?: CallHooks) => callTool(services, tool, args, hooks);
  return { services, lines, call };
}

type Rpc = { method?: string; params?: unknown };
/** The requests the devnet received since `before`: path, method and params. */
const sent = (before: number) => devnet.router.requests.slice(before).map((r) => ({ path: r.path, body: r.body as Rpc }));

const textOf = (r: { content: Array<{ text: string }> }) => r.content.map((c) => c.text).join('\n');

const echo = defineTool({
  name: 'test_echo',
  title: 'Echo',
  description: 'Echoes its input.',
  tier: 'read',
  toolset: 'info',
  input: z.strictObject({
    name: z.string().max(5),
    list: z.array(z.string()).min(1).max(2).optional(),
    n: z.number().min(1).max(10).optional(),
    kind: z.enum(['a', 'b']).optional(),
    outputs: z.array(z.strictObject({ to: z.string() })).optional(),
  }),
  output: z.object({ name: z.string() }),
  run: async (input) => ({ name: input.name }),
  summarize: (o) => `hello ${o.name}`,
});

describe('bad input: one message naming the field, nothing sent', () => {
  const refusal = async (args: unknown) => {
    const r = await setup([echo as unknown as ToolDef]).call(echo as unknown as ToolDef, args);
    expect(r.isError).toBe(true);
    return textOf(r);
  };

  it('names the field and says what is wrong, for each kind of problem', async () => {
    expect(await refusal({})).toBe('Invalid input: name: required (string) (tool test_echo).');
    expect(await refusal({ name: 5 })).toBe('Invalid input: name: expected string (tool test_echo).');
    expect(await refusal({ name: 'abcdef' })).toBe('Invalid input: name: must be at most 5 characters (tool test_echo).');
    expect(await refusal({ name: 'a', list: [] })).toBe('Invalid input: list: must be at least 1 items (tool test_echo).');
    expect(await refusal({ name: 'a', list: ['x', 'y', 'z'] })).toBe('Invalid input: list: must be at most 2 items (tool test_echo).');
    expect(await refusal({ name: 'a', n: 11 })).toBe('Invalid input: n: must be at most 10 (tool test_echo).');
    expect(await refusal({ name: 'a', n: 0 })).toBe('Invalid input: n: must be at least 1 (tool test_echo).');
    expect(await refusal({ name: 'a', kind: 'c' })).toBe('Invalid input: kind: expected one of "a", "b" (tool test_echo).');
    expect(await refusal({ name: 'a', colour: 'red', size: 1 })).toBe('Invalid input: colour, size: unknown argument; remove it (tool test_echo).');
  });

  it('writes nested paths as a person reads them, and at most three problems', async () => {
    expect(await refusal({ name: 'a', outputs: [{ to: 'x' }, { to: 'y' }, { to: 3 }] })).toBe('Invalid input: outputs[2].to: expected string (tool test_echo).');
    expect(await refusal({ name: 7, list: [], n: 0, kind: 'z' })).toBe(
      'Invalid input: name: expected string; also list: must be at least 1 items; n: must be at least 1 (tool test_echo).',
    );
  });

  it('calls a non-object argument list "arguments"', async () => {
    expect(await refusal('text')).toBe('Invalid input: arguments: expected object (tool test_echo).');
  });

  it('accepts missing arguments as {} and answers with text and structuredContent', async () => {
    const open = { ...echo, name: 'test_open', input: z.strictObject({}), run: async () => ({ name: 'x' }) };
    const r = await setup([open as unknown as ToolDef]).call(open as unknown as ToolDef, undefined);
    expect(r).toEqual({ content: [{ type: 'text', text: 'hello x' }], structuredContent: { name: 'x' } });
  });
});

describe('answers that do not fit the output shape', () => {
  it('say which field is off and how to report it', async () => {
    const bad = defineTool({ ...echo, name: 'test_bad', run: async () => ({ name: 5 }) as unknown as { name: string } });
    const r = await setup([bad as unknown as ToolDef]).call(bad as unknown as ToolDef, { name: 'a' });
    expect(textOf(r)).toBe(
      'The answer for test_bad does not have the expected shape (name: Invalid input: expected string, received number).\nWhat to try: The node may run a different API version; report this with the node version (info_getNodeVersion).',
    );
  });

  it('a tool with neither run nor request is an internal error, logged', async () => {
    const empty = { ...echo, name: 'test_empty', run: undefined } as unknown as ToolDef;
    const { call, lines } = setup([empty]);
    const r = await call(empty, { name: 'a' });
    expect(textOf(r)).toBe('Tool test_empty has neither run nor request.');
    expect(lines.find((l) => l.msg === 'tool failed')).toMatchObject({ level: 50, tool: 'test_empty' });
  });

  it('other failures are logged at debug with their kind, not as tool failures', async () => {
    const failing = defineTool({
      ...echo,
      name: 'test_fail',
      run: async () => {
        throw new ChainMcpError('not_found', 'no such thing');
      },
    });
    const { call, lines } = setup([failing as unknown as ToolDef]);
    expect(textOf(await call(failing as unknown as ToolDef, { name: 'a' }))).toBe('no such thing');
    expect(lines.find((l) => l.msg === 'tool error')).toMatchObject({ level: 20, tool: 'test_fail', kind: 'not_found' });
    expect(lines.some((l) => l.msg === 'tool failed')).toBe(false);
  });
});

describe('the request a catalogue entry sends', () => {
  const rpcTool = (name: string, request: Record<string, unknown>, input = z.strictObject({ address: z.string().optional(), chain: z.string().optional() })) =>
    ({
      name,
      title: name,
      description: 'x',
      tier: 'read',
      toolset: 'info',
      input,
      output: z.object({}).passthrough(),
      request: { kind: 'rpc', endpoint: 'info', method: 'info.getNodeID', ...request },
      summarize: () => 'ok',
    }) as unknown as ToolDef;

  it('sends the input as params without undefined fields and without chain or confirm', async () => {
    const t = rpcTool('test_params', {});
    const { call } = setup([t]);
    const before = devnet.router.requests.length;
    await call(t, { address: 'a1', chain: 'X' });
    expect(sent(before).map((r) => [r.path, r.body.method, r.body.params])).toEqual([['/ext/info', 'info.getNodeID', { address: 'a1' }]]);
  });

  it('adds the keystore credentials where the entry asks, and says so plainly when none are configured', async () => {
    const t = rpcTool('test_creds', { credentials: true });
    const withUser = setup([t], { CHAIN_MCP_KEYSTORE_USER: 'alice', CHAIN_MCP_KEYSTORE_PASSWORD: 'Pw-123456789' });
    const before = devnet.router.requests.length;
    await withUser.call(t, { address: 'a1' });
    expect(sent(before).map((r) => r.body.params)).toEqual([{ address: 'a1', username: 'alice', password: 'Pw-123456789' }]);
    const r = await setup([t]).call(t, { address: 'a1' });
    expect(textOf(r)).toBe('No keystore user is configured.\nWhat to try: Set CHAIN_MCP_KEYSTORE_USER and CHAIN_MCP_KEYSTORE_PASSWORD in the server environment.');
    expect(devnet.router.requests.length).toBe(before + 1);
  });

  it('adds the admin secret only when it is configured', async () => {
    const t = rpcTool('test_secret', { adminSecret: true });
    let before = devnet.router.requests.length;
    await setup([t], { CHAIN_MCP_ADMIN_SECRET: 's3cret-admin-value' }).call(t, {});
    expect(sent(before).map((r) => r.body.params)).toEqual([{ secret: 's3cret-admin-value' }]);
    before = devnet.router.requests.length;
    await setup([t]).call(t, {});
    expect(sent(before).map((r) => r.body.params)).toEqual([{}]);
  });

  it('sends to the named chain', async () => {
    const t = rpcTool('test_chain', { endpoint: 'evm', method: 'eth_chainId' });
    const before = devnet.router.requests.length;
    await setup([t]).call(t, { chain: 'C' });
    expect(sent(before).map((r) => r.path)).toEqual(['/ext/bc/C/rpc']);
  });

  it('explains how to configure the indexer and the runner when they are not set', async () => {
    const indexer = { ...rpcTool('test_idx', {}), request: { kind: 'rest', path: () => '/v2' } } as unknown as ToolDef;
    const runner = { ...rpcTool('test_run', {}), request: { kind: 'runner', path: '/v1/status' } } as unknown as ToolDef;
    expect(textOf(await setup([indexer]).call(indexer, {}))).toBe(
      'The indexer is not configured.\nWhat to try: Set CHAIN_MCP_INDEXER_URL to the indexer base URL (for example http://127.0.0.1:8080) and restart the server.',
    );
    expect(textOf(await setup([runner]).call(runner, {}))).toBe(
      'The local network runner is not configured.\nWhat to try: Set CHAIN_MCP_RUNNER_URL to the runner HTTP gateway (for example http://127.0.0.1:8081) and restart the server.',
    );
  });

  it('a composite may only call read operations', async () => {
    const spendy = { ...echo, name: 'test_spendy', tier: 'spend' } as unknown as ToolDef;
    const composite = defineTool({ ...echo, name: 'test_composite', run: async (_i, ctx) => ({ name: String((await ctx.call('test_spendy', {})).name) }) });
    const r = await setup([spendy, composite as unknown as ToolDef]).call(composite as unknown as ToolDef, { name: 'a' });
    expect(textOf(r)).toBe('Composite step test_spendy is not a read operation.');
  });
});

describe('a node without the keystore API', () => {
  const keystore = {
    name: 'test_keystore',
    title: 'k',
    description: 'k',
    tier: 'read',
    toolset: 'keystore',
    input: z.strictObject({ endpoint: z.enum(['keystore', 'xvm']) }),
    output: z.object({}).passthrough(),
    run: async (input: { endpoint: 'keystore' | 'xvm' }, ctx: { rpc: (e: string, m: string, p?: unknown, o?: unknown) => Promise<unknown> }) =>
      (await (input.endpoint === 'keystore' ? ctx.rpc('keystore', 'keystore.listUsers') : ctx.rpc('xvm', 'xvm.getTx', {}, { chain: 'nowhere' }))) as Record<string, unknown>,
    summarize: () => 'ok',
  } as unknown as ToolDef;

  it('says how to enable it when /ext/keystore answers 404; a 404 elsewhere stays a plain 404', async () => {
    const off = await startDevnet({ keystoreApi: false });
    try {
      const config = loadConfig({ CHAIN_MCP_NODE_URL: off.nodeUrl, CHAIN_MCP_WIRE_NAMES: 'spec' });
      const services = new Services({ config, log: createLogger('silent', []), catalogue: [keystore] });
      expect(textOf(await callTool(services, keystore, { endpoint: 'keystore' }))).toBe(
        "The node's keystore API is disabled: /ext/keystore answered HTTP 404 (not found).\nWhat to try: Start the node with --api-keystore-enabled=true; wallet and spend tools need it.",
      );
      const elsewhere = textOf(await callTool(services, keystore, { endpoint: 'xvm' }));
      expect(elsewhere).toContain('/ext/bc/nowhere answered HTTP 404 (not found)');
      expect(elsewhere).not.toContain('keystore');
      await services.close();
    } finally {
      await off.close();
    }
  });

  it('other keystore failures keep their own text', async () => {
    const locked = await startDevnet({ authRequired: true });
    try {
      const services = new Services({ config: loadConfig({ CHAIN_MCP_NODE_URL: locked.nodeUrl }), log: createLogger('silent', []), catalogue: [keystore] });
      const text = textOf(await callTool(services, keystore, { endpoint: 'keystore' }));
      expect(text).toContain('answered HTTP 401 (unauthorized)');
      expect(text).not.toContain('disabled');
      await services.close();
    } finally {
      await locked.close();
    }
  });
});

/** A spend tool whose issuing request fails with the given error, or succeeds. */
function spendTool(toolset: Toolset, fail?: () => Error, limits?: (i: { to: string; amount: bigint }) => SpendLimits) {
  return defineTool({
    name: `test_spend_${toolset}`,
    title: 'Test spend',
    description: 'A scripted spend.',
    tier: 'spend',
    toolset,
    input: z.strictObject({ to: z.string(), amount: z.coerce.bigint() }),
    output: z.object({ txID: z.string() }),
    limits: limits ?? ((i) => ({ amount: i.amount, recipients: [i.to] })),
    plan: async (i) => ({ lines: [`Send ${i.amount} to ${i.to}`], details: { amount: i.amount, to: i.to } }),
    run: async () => {
      if (fail) throw fail();
      return { txID: 'tx-1' };
    },
    summarize: (o) => `issued ${o.txID}`,
  }) as unknown as ToolDef;
}

const SPEND_ENV = {
  CHAIN_MCP_ALLOW_SPEND: 'true',
  CHAIN_MCP_KEYSTORE_USER: 'alice',
  CHAIN_MCP_KEYSTORE_PASSWORD: 'Pw-123456789',
  CHAIN_MCP_APPROVAL: 'confirm-id',
};
/** A recipient on the devnet's network (set once the devnet runs). */
const ARGS = { to: '', amount: '5' };

async function previewThenConfirm(tool: ToolDef, env: Record<string, string> = {}, hooks?: CallHooks) {
  const s = setup([tool], { ...SPEND_ENV, ...env });
  const preview = await s.call(tool, ARGS, hooks);
  const id = (preview.structuredContent as { confirmationId: string }).confirmationId;
  return { ...s, preview, confirmed: await s.call(tool, { ...ARGS, confirm: id }, hooks) };
}

describe('spends whose answer is lost', () => {
  const lost: Array<[string, () => Error]> = [
    ['timeout', () => new ChainMcpError('timeout', 'The node did not answer.')],
    ['connection', () => new ChainMcpError('connection', 'The node hung up.')],
    ['malformed', () => new ChainMcpError('malformed', 'The answer was garbled.')],
    ['cancelled', () => new ChainMcpError('cancelled', 'The call was cancelled.')],
    ['too_large', () => new ChainMcpError('too_large', 'The answer was cut off.')],
    ['HTTP 502', () => new HttpStatusError(502, 'The node answered HTTP 502.')],
    ['HTTP 500', () => new HttpStatusError(500, 'The node answered HTTP 500.')],
  ];
  for (const [what, fail] of lost) {
    it(`${what}: an unknown outcome, never retried, with where to look`, async () => {
      const { confirmed, lines, services } = await previewThenConfirm(spendTool('platform', fail));
      // The rolling 24 h total counts it as sent: the safe side (issue 21).
      expect(await services.ledger.spent()).toBe(5n);
      const message = fail().message;
      expect(textOf(confirmed)).toBe(
        `The outcome of test_spend_platform is unknown: ${message} It was sent once and will not be retried.\nWhat to try: Do not send it again blindly. First check platform_getPendingValidators, platform_getSubnets or platform_getBalance, whichever the spend changes; only then decide with the human whether to preview it again.`,
      );
      expect(lines.find((l) => l.audit === 'unknown_outcome')).toMatchObject({ level: 40, tool: 'test_spend_platform' });
    });
  }

  it('names where to look for each toolset, and the balances for others', async () => {
    const hint = async (toolset: Toolset) => {
      const { confirmed } = await previewThenConfirm(spendTool(toolset, () => new ChainMcpError('timeout', 'slow.')));
      return textOf(confirmed).split('First check ')[1];
    };
    expect(await hint('xvm')).toMatch(/^xvm_getAddressTxs or xvm_getBalance/);
    expect(await hint('wallet')).toMatch(/^xvm_getAddressTxs or xvm_getBalance/);
    expect(await hint('cx')).toMatch(/^cx_getUTXOs on the destination/);
    expect(await hint('evm')).toMatch(/^eth_getTransactionCount of the sender/);
    expect(await hint('assistant')).toMatch(/^the balances \(account_overview\);/);
  });

  it('a refusal the node gave (HTTP 4xx, an RPC error) is a plain failure: nothing went through', async () => {
    const { confirmed, lines, services } = await previewThenConfirm(spendTool('xvm', () => new HttpStatusError(400, 'The node answered HTTP 400 (request refused).')));
    expect(textOf(confirmed)).toBe('The node answered HTTP 400 (request refused).');
    // Nothing went out: its share of the rolling 24 h total is given back.
    expect(await services.ledger.spent()).toBe(0n);
    expect(lines.find((l) => l.audit === 'failed')).toMatchObject({ kind: 'http_status' });
  });
});

describe('the spend preview under CHAIN_MCP_APPROVAL=confirm-id', () => {
  it('shows the plan, a bound id, its expiry and the details as JSON (bigints as decimal strings)', async () => {
    const { preview } = await previewThenConfirm(spendTool('xvm'));
    const structured = preview.structuredContent as Record<string, unknown>;
    const id = structured.confirmationId as string;
    expect(textOf(preview)).toBe(
      `PREVIEW, nothing sent: Test spend\n- Send 5 to ${ARGS.to}\nTo execute once, ask the human to approve, then call test_spend_xvm again with the same arguments and confirm: "${id}" (valid 5 minutes).`,
    );
    expect(structured).toEqual({
      status: 'preview',
      preview: [`Send 5 to ${ARGS.to}`],
      confirmationId: id,
      expiresAt: new Date(T0 + 5 * 60 * 1000).toISOString(),
      details: { amount: '5', to: ARGS.to },
    });
  });

  it('asks the human through the client when it can, and a decline sends nothing', async () => {
    const asked: string[] = [];
    const { confirmed } = await previewThenConfirm(spendTool('xvm', () => new Error('must not run')), {}, {
      elicit: async (message) => {
        asked.push(message);
        return 'decline';
      },
    });
    expect(asked).toEqual([`Approve Test spend?\nSend 5 to ${ARGS.to}`]);
    expect(textOf(confirmed)).toBe('Declined by the human (decline); nothing was sent.');
    expect(confirmed.structuredContent).toEqual({ status: 'declined', preview: [`Send 5 to ${ARGS.to}`] });
  });

  it('an accepted elicitation sends once and reports the result', async () => {
    const { confirmed, lines } = await previewThenConfirm(spendTool('xvm'), {}, { elicit: async () => 'accept' });
    expect(textOf(confirmed)).toBe('issued tx-1');
    expect(confirmed.structuredContent).toEqual({ status: 'issued', preview: [`Send 5 to ${ARGS.to}`], result: { txID: 'tx-1' } });
    expect(lines.filter((l) => typeof l.audit === 'string').map((l) => l.audit)).toEqual(['preview', 'confirmed', 'issued']);
  });

  it('a spend tool without a preview or without limits is refused, never run', async () => {
    const noPlan = { ...spendTool('xvm'), plan: undefined } as ToolDef;
    expect(textOf(await setup([noPlan], SPEND_ENV).call(noPlan, ARGS))).toBe('Spend tool test_spend_xvm has no preview; refusing to run it.');
    const noLimits = { ...spendTool('xvm'), limits: undefined } as ToolDef;
    expect(textOf(await setup([noLimits], SPEND_ENV).call(noLimits, ARGS))).toBe('Spend tool test_spend_xvm declares no limits; refusing to run it.');
  });
});

describe('the spend preview under CHAIN_MCP_APPROVAL=human', () => {
  it('puts the exact amount and every limit in force on what the human approves', async () => {
    const tool = spendTool('xvm');
    const s = setup([tool], {
      ...SPEND_ENV,
      CHAIN_MCP_APPROVAL: 'human',
      CHAIN_MCP_MAX_SPEND: '1000',
      CHAIN_MCP_MAX_SPEND_PER_DAY: '5000',
      CHAIN_MCP_ALLOWED_RECIPIENTS: ARGS.to,
      CHAIN_MCP_EXPECT_NETWORK_ID: '12345',
    });
    const preview = await s.call(tool, ARGS, { elicit: async () => 'accept' });
    const id = (preview.structuredContent as { confirmationId: string }).confirmationId;
    const approval = await s.services.approvals.get(id.split('.')[0]!);
    expect(approval?.lines).toEqual([
      `Send 5 to ${ARGS.to}`,
      'Amount in smallest units: 5',
      'Limit in force: at most 1000 smallest units per spend (CHAIN_MCP_MAX_SPEND)',
      'Limit in force: at most 5000 smallest units in any 24 hours, fees included (CHAIN_MCP_MAX_SPEND_PER_DAY); 0 sent in the last 24 hours',
      'Limit in force: recipients only from CHAIN_MCP_ALLOWED_RECIPIENTS (1)',
      'Limit in force: network 12345 only (CHAIN_MCP_EXPECT_NETWORK_ID)',
    ]);
    expect(textOf(preview)).toContain('the human is then asked to approve in their client. Your confirm alone sends nothing.');
  });

  it('no amount line when the spend has no amount, no limit lines when none is set', async () => {
    const tool = spendTool('xvm', undefined, (i) => ({ recipients: [i.to] }));
    const s = setup([tool], { ...SPEND_ENV, CHAIN_MCP_APPROVAL: 'human' });
    const preview = await s.call(tool, ARGS, { elicit: async () => 'accept' });
    const id = (preview.structuredContent as { confirmationId: string }).confirmationId;
    expect((await s.services.approvals.get(id.split('.')[0]!))?.lines).toEqual([`Send 5 to ${ARGS.to}`]);
  });

  it('a confirm for an id the server has no approval for is refused', async () => {
    const tool = spendTool('xvm', () => new Error('must not run'));
    const s = setup([tool], { ...SPEND_ENV, CHAIN_MCP_APPROVAL: 'human' });
    const preview = await s.call(tool, ARGS, { elicit: async () => 'accept' });
    const id = (preview.structuredContent as { confirmationId: string }).confirmationId;
    await s.services.approvals.forget((await s.services.approvals.get(id.split('.')[0]!))!);
    const r = await s.call(tool, { ...ARGS, confirm: id }, { elicit: async () => 'accept' });
    expect(textOf(r)).toBe(
      'Confirmation refused: this preview has no approval waiting (expired, or the server restarted). Nothing was sent.\nWhat to try: Call the tool again without confirm to get a fresh preview.',
    );
  });
});

describe('retries follow the tier: reads retry, every other tier sends once', () => {
  // A node whose first info.getNodeID of each round is HTTP 503 (transient), the rest answered.
  let asked = 0;
  const node = recordingNode((req, res) => {
    const rpc = JSON.parse(req.body) as { id: number; method: string };
    if (rpc.method === 'info.getNodeID' && ++asked === 1) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('bootstrapping');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result: { nodeID: 'NodeID-1' } }));
  });
  let nodeUrl = '';
  beforeAll(async () => {
    nodeUrl = await node.listen();
  });
  afterAll(() => node.close());

  const tierTool = (tier: string) =>
    ({
      name: `test_${tier}_call`,
      title: 'Tier call',
      description: 'x',
      tier,
      toolset: 'info',
      input: z.strictObject({}),
      output: z.object({}).passthrough(),
      request: { kind: 'rpc', endpoint: 'info', method: 'info.getNodeID' },
      summarize: (o: { nodeID?: string }) => `node ${o.nodeID}`,
    }) as unknown as ToolDef;

  it.each([
    ['read', 2, false],
    ['wallet', 1, true],
    ['admin', 1, true],
  ])('a %s tool asks %i time(s) after a transient HTTP 503', async (tier, requests, isError) => {
    asked = 0;
    const t = tierTool(tier);
    const { call, services } = setup([t], { CHAIN_MCP_NODE_URL: nodeUrl });
    const r = await call(t, {});
    await services.close();
    expect(asked).toBe(requests);
    expect(r.isError === true).toBe(isError);
    expect(textOf(r)).toBe(isError ? `The node at ${nodeUrl}/ext/info answered HTTP 503 (service unavailable): bootstrapping.\nWhat to try: The node may still be bootstrapping; try again shortly.` : 'node NodeID-1');
  });
});

describe('the admin secret goes only to the entries that take it', () => {
  it('a configured CHAIN_MCP_ADMIN_SECRET is not added to an entry without adminSecret', async () => {
    const t = {
      name: 'test_plain',
      title: 'Plain',
      description: 'x',
      tier: 'read',
      toolset: 'info',
      input: z.strictObject({}),
      output: z.object({}).passthrough(),
      request: { kind: 'rpc', endpoint: 'info', method: 'info.getNodeID' },
      summarize: () => 'ok',
    } as unknown as ToolDef;
    const before = devnet.router.requests.length;
    await setup([t], { CHAIN_MCP_ADMIN_SECRET: 's3cret-admin-value' }).call(t, {});
    expect(sent(before).map((r) => r.body.params)).toEqual([{}]);
  });
});

describe('the audit trail of a spend (one log line per step, no secrets)', () => {
  const audits = (lines: Array<Record<string, unknown>>) =>
    lines.filter((l) => typeof l.audit === 'string').map(({ level, time, pid, hostname, name, ...rest }) => rest);

  it('confirm-id: preview, confirmed and issued name the tool, the amount, the recipients and the txID', async () => {
    const { lines } = await previewThenConfirm(spendTool('xvm'));
    const facts = { tool: 'test_spend_xvm', amount: '5', recipients: [ARGS.to] };
    expect(audits(lines)).toEqual([
      { audit: 'preview', ...facts, msg: 'spend preview' },
      { audit: 'confirmed', ...facts, msg: 'spend confirmed' },
      { audit: 'issued', ...facts, txID: 'tx-1', msg: 'spend issued' },
    ]);
  });

  it('confirm-id: a forged id is refused with the reason, a declined elicitation with the answer', async () => {
    const tool = spendTool('xvm', () => new Error('must not run'));
    const s = setup([tool], SPEND_ENV);
    const preview = await s.call(tool, ARGS);
    const id = (preview.structuredContent as { confirmationId: string }).confirmationId;
    const forged = `${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`;
    const refused = await s.call(tool, { ...ARGS, confirm: forged });
    expect(refused.isError).toBe(true);
    const declined = await s.call(tool, { ...ARGS, confirm: id }, { elicit: async () => 'cancel' });
    expect(textOf(declined)).toBe('Declined by the human (cancel); nothing was sent.');
    const facts = { tool: 'test_spend_xvm', amount: '5', recipients: [ARGS.to] };
    expect(audits(s.lines).slice(1)).toEqual([
      { audit: 'refused', ...facts, why: textOf(refused).split('\n')[0], msg: 'spend confirmation refused' },
      { audit: 'declined', ...facts, answer: 'cancel', msg: 'spend declined' },
    ]);
  });

  it('human: the form answer is asked once, and approved or declined is logged with its channel', async () => {
    for (const answer of ['accept', 'decline'] as const) {
      const tool = spendTool('xvm');
      const s = setup([tool], { ...SPEND_ENV, CHAIN_MCP_APPROVAL: 'human' });
      let asked = 0;
      const hooks: CallHooks = {
        elicit: async () => {
          asked++;
          return answer;
        },
      };
      const preview = await s.call(tool, ARGS, hooks);
      const id = (preview.structuredContent as { confirmationId: string }).confirmationId;
      const r = await s.call(tool, { ...ARGS, confirm: id }, hooks);
      expect(asked).toBe(1);
      expect(textOf(r)).toBe(answer === 'accept' ? 'issued tx-1' : 'Declined by the human; nothing was sent.');
      const state = answer === 'accept' ? 'approved' : 'declined';
      expect(audits(s.lines).filter((l) => l.channel === 'form-elicitation' && !('answer' in l))).toEqual([
        { audit: state, tool: 'test_spend_xvm', channel: 'form-elicitation', msg: answer === 'accept' ? 'spend approved by the human' : 'spend declined' },
      ]);
      await s.services.close();
    }
  });

  it('human: a confirm before the human decided is refused as not approved, logged, and sends nothing', async () => {
    const tool = spendTool('xvm', () => new Error('must not run'));
    const s = setup([tool], { ...SPEND_ENV, CHAIN_MCP_APPROVAL: 'human' }, { approvalWaitMs: 0 });
    const hooks: CallHooks = { appCard: true };
    const preview = await s.call(tool, ARGS, hooks);
    const id = (preview.structuredContent as { confirmationId: string }).confirmationId;
    const r = await s.call(tool, { ...ARGS, confirm: id }, hooks);
    expect(textOf(r)).toBe(
      'Not approved by the human yet; nothing was sent.\nWhat to try: Ask the human to approve (or decline) this exact preview, then call again with the same confirm. The model cannot approve it.',
    );
    expect(audits(s.lines).at(-1)).toEqual({ audit: 'not_approved', tool: 'test_spend_xvm', msg: 'spend not approved yet' });
    await s.services.close();
  });
});

describe('the approval card (MCP Apps hosts)', () => {
  it('links the card in _meta with the facts and a one-time secret, and tells the model the human decides there', async () => {
    const tool = spendTool('xvm');
    const s = setup([tool], { ...SPEND_ENV, CHAIN_MCP_APPROVAL: 'human' });
    const preview = await s.call(tool, ARGS, { appCard: true });
    const structured = preview.structuredContent as Record<string, unknown>;
    const id = structured.confirmationId as string;
    expect(structured.approvalUrl).toBeUndefined();
    expect(textOf(preview)).toContain('The human approves or declines on the approval card shown with this preview.');
    const meta = (preview as { _meta?: Record<string, { secret?: unknown; lines?: unknown; title?: unknown }> })._meta;
    expect(meta?.ui).toEqual({ resourceUri: 'ui://chain-mcp/approval-card.html' });
    const card = meta?.['chain-mcp/approval'];
    expect(card?.title).toBe('Test spend');
    expect(card?.lines).toEqual([`Send 5 to ${ARGS.to}`, 'Amount in smallest units: 5']);
    expect(typeof card?.secret).toBe('string');
    expect(JSON.stringify(preview.content) + JSON.stringify(structured)).not.toContain(String(card?.secret));
    expect((await s.services.approvals.get(id.split('.')[0]!))?.state).toBe('pending');
    await s.services.close();
  });

  it('puts no _meta on a preview for a host without views', async () => {
    const tool = spendTool('xvm');
    const s = setup([tool], { ...SPEND_ENV, CHAIN_MCP_APPROVAL: 'human' });
    const preview = await s.call(tool, ARGS, { elicit: async () => 'accept' });
    expect('_meta' in preview).toBe(false);
    await s.services.close();
  });
});

describe('smaller promises of a call', () => {
  it('says how short a string is allowed to be, in characters', async () => {
    const coded = { ...echo, name: 'test_coded', input: z.strictObject({ code: z.string().min(3) }) } as unknown as ToolDef;
    const r = await setup([coded]).call(coded, { code: 'ab' });
    expect(textOf(r)).toBe('Invalid input: code: must be at least 3 characters (tool test_coded).');
  });

  it('a composite step that does not exist is refused by name, not as a crash', async () => {
    const composite = defineTool({ ...echo, name: 'test_lost', run: async (_i, ctx) => ({ name: String((await ctx.call('test_missing', {})).name) }) });
    const r = await setup([composite as unknown as ToolDef]).call(composite as unknown as ToolDef, { name: 'a' });
    expect(textOf(r)).toBe('Composite step test_missing is not a read operation.');
  });

  it('a spend preview without details has none in structuredContent', async () => {
    const plain = { ...spendTool('xvm'), plan: async () => ({ lines: ['Send it'] }) } as ToolDef;
    const preview = await setup([plain], SPEND_ENV).call(plain, ARGS);
    expect(preview.isError).toBeUndefined();
    const structured = preview.structuredContent as Record<string, unknown>;
    expect(structured.preview).toEqual(['Send it']);
    expect(structured.details).toBeUndefined();
  });
});

describe('the audit trail under CHAIN_MCP_APPROVAL=human, continued', () => {
  function clocked() {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    const clock = { now: T0 };
    const tool = spendTool('xvm', () => new Error('must not run'));
    const config = loadConfig({ CHAIN_MCP_NODE_URL: devnet.nodeUrl, ...SPEND_ENV, CHAIN_MCP_APPROVAL: 'human' });
    const services = new Services({ config, log: createLogger('debug', config.secrets, sink), catalogue: [tool], now: () => clock.now });
    return { lines, clock, tool, services, call: (args: unknown, hooks?: CallHooks) => callTool(services, tool, args, hooks) };
  }
  const audits = (lines: Array<Record<string, unknown>>) => lines.filter((l) => typeof l.audit === 'string').map(({ audit, tool, state, why }) => ({ audit, tool, state, why }));

  it('a forged confirm is refused and logged with the reason', async () => {
    const { lines, services, call } = clocked();
    const preview = await call(ARGS, { appCard: true });
    const id = (preview.structuredContent as { confirmationId: string }).confirmationId;
    const r = await call({ ...ARGS, confirm: `${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}` }, { appCard: true });
    expect(r.isError).toBe(true);
    expect(audits(lines).at(-1)).toEqual({ audit: 'refused', tool: 'test_spend_xvm', state: undefined, why: textOf(r).split('\n')[0] });
    await services.close();
  });

  it('an approval nobody decided is logged as expired when the next preview sweeps it', async () => {
    const { lines, clock, services, call } = clocked();
    await call(ARGS, { appCard: true });
    clock.now += 5 * 60 * 1000 + 1;
    await call(ARGS, { appCard: true });
    expect(audits(lines).filter((l) => l.audit !== 'preview')).toEqual([{ audit: 'expired', tool: 'test_spend_xvm', state: 'pending', why: undefined }]);
    await services.close();
  });
});
