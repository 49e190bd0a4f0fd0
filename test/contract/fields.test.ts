import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { needsConfirmation } from '../../src/core/tool.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { buildServer } from '../../src/server.js';
import { EXAMPLES } from './examples/index.js';
import { RUNNER_EXEC_PATH } from './examples/runner.js';
import { startFakeNode } from './fake-node.js';
import { AUTH_PASSWORD, AUTH_TOKEN, KEYSTORE } from './types.js';

/**
 * No field of a node's answer is dropped silently (issue 33): for every tool whose contract example
 * carries the node's answer, each field name of that answer reaches structuredContent (as a key,
 * or its value does), or is named here as left out, with why.
 */
const LEFT_OUT: Record<string, Record<string, string>> = {
  platform_getRewardUTXOs: { numFetched: 'shown as the count of UTXOs' },
  info_getNodeVersion: { databaseVersion: 'an internal version', rpcProtocolVersion: 'an internal version', sdkGitCommit: 'a build detail', sdkGitVersion: 'a build detail', gitCommit: 'a build detail', gitVersion: 'a build detail' },
  // Offers: the raw nominator and flags stay; these caps are folded into `open`/`notOpen`.
  platform_getAllDepositOffers: { upgradeVersion: 'codec detail', totalMaxRewardAmount: 'folded into open/notOpen', rewardedAmount: 'folded into open/notOpen', ownerAddress: 'the offer creator, not the depositor' },
  // The offer is read only to compute the deposit's dates and rewards (platform_getAllDepositOffers shows it).
  platform_getDeposits: { end: 'the offer window', unlockPeriodDuration: 'used: unlockPeriodStart', minDuration: 'the offer', maxDuration: 'the offer', minAmount: 'the offer', flags: 'the offer', noRewardsPeriodDuration: 'used: rewardsEnd', memo: 'offerMemo, when not empty' },
  xvm_getBalance: { txID: 'of utxoIDs: the UTXOs themselves are xvm_getUTXOs' },
  indexer_listTransactions: { startTime: 'the query window echoed', endTime: 'the query window echoed' },
};

const scalar = (v: unknown) => v === null || typeof v !== 'object';

/**
 * Every key name in a JSON value, at any depth, with the string form of its scalar values (or of
 * the items of a list of scalars). A key holding an object or a list of objects is a container:
 * its own fields are checked instead, so it is not listed.
 */
function fieldsOf(value: unknown, out = new Map<string, Set<string>>()): Map<string, Set<string>> {
  if (Array.isArray(value)) for (const v of value) fieldsOf(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const items = Array.isArray(v) ? v : [v];
      if (items.length > 0 && items.every(scalar)) {
        const seen = out.get(k) ?? new Set<string>();
        for (const item of items) if (item !== null) seen.add(String(item));
        out.set(k, seen);
      } else fieldsOf(v, out);
    }
  }
  return out;
}

/** Key names anywhere in structuredContent, containers included. */
function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysOf(v, out);
    }
  }
  return out;
}

describe('every field a node sends reaches structuredContent or is named as left out', () => {
  let client: Client;
  let close: () => Promise<void>;
  let node: Awaited<ReturnType<typeof startFakeNode>>;
  let indexer: Awaited<ReturnType<typeof startFakeNode>>;

  beforeAll(async () => {
    const runner = await startFakeNode();
    [node, indexer] = await Promise.all([startFakeNode({ dialect: 'camino' }), startFakeNode()]);
    const config = loadConfig({
      CHAIN_MCP_NODE_URL: node.url,
      CHAIN_MCP_INDEXER_URL: indexer.url,
      CHAIN_MCP_RUNNER_URL: runner.url,
      CHAIN_MCP_RUNNER_EXEC_PATH: RUNNER_EXEC_PATH,
      CHAIN_MCP_AUTH_TOKEN: AUTH_TOKEN,
      CHAIN_MCP_AUTH_PASSWORD: AUTH_PASSWORD,
      CHAIN_MCP_KEYSTORE_USER: KEYSTORE.username,
      CHAIN_MCP_KEYSTORE_PASSWORD: KEYSTORE.password,
      CHAIN_MCP_ALLOW_ADMIN: 'true',
    });
    const { mcp, services } = buildServer({ config, log: silentLogger() });
    const [a, b] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'fields', version: '0' });
    await mcp.connect(b);
    await client.connect(a);
    close = async () => {
      await client.close();
      await services.close();
      await Promise.all([node.close(), indexer.close(), runner.close()]);
    };
  });
  afterAll(() => close());

  // Reads with the node's (or indexer's) answer in their example: one test each.
  const checked = CATALOGUE.filter((t) => !needsConfirmation(t) && t.tier === 'read' && EXAMPLES[t.name]?.answers);

  it('checks a good share of the read tools', () => {
    expect(checked.length).toBeGreaterThan(40);
  });

  for (const tool of checked) {
    it(tool.name, async () => {
      const example = EXAMPLES[tool.name]!;
      node.setAnswers(example.answers!);
      indexer.setAnswers(example.answers!);
      const result = await client.callTool({ name: tool.name, arguments: example.args });
      expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
      const structured = JSON.stringify(result.structuredContent ?? {});
      const keys = keysOf(result.structuredContent);
      const left = LEFT_OUT[tool.name] ?? {};
      const missing: string[] = [];
      for (const answer of Object.values(example.answers!)) {
        for (const [field, values] of fieldsOf(answer)) {
          if (keys.has(field) || field in left) continue;
          // A field kept under another name: its value is there.
          if (values.size > 0 && [...values].every((v) => v === '' || structured.includes(JSON.stringify(v)) || structured.includes(v))) continue;
          missing.push(field);
        }
      }
      expect(missing, `${tool.name}: fields of the node's answer neither in structuredContent nor in LEFT_OUT`).toEqual([]);
    });
  }
});
