/** The node and chain: client version, network, peers, chain ID, height, sync. */
import { z } from 'zod';
import type { ToolDef } from '../../core/tool.js';
import { chain, dec, evmTool, obj, str } from './shared.js';

export const nodeTools: ToolDef[] = [
  evmTool({
    name: 'web3_clientVersion',
    title: 'EVM client version',
    description: "Get the C-Chain EVM client's version.",
    input: z.strictObject({ chain }),
    output: z.object({ clientVersion: z.string() }),
    params: () => [],
    decode: (raw) => ({ clientVersion: str(raw) }),
    summarize: (o) => `EVM client: ${o.clientVersion}`,
  }),
  evmTool({
    name: 'net_version',
    title: 'EVM network ID',
    description: 'Get the C-Chain EVM network ID (not the platform network ID).',
    input: z.strictObject({ chain }),
    output: z.object({ networkVersion: z.string() }),
    params: () => [],
    decode: (raw) => ({ networkVersion: str(raw) }),
    summarize: (o) => `EVM network ID: ${o.networkVersion}`,
  }),
  evmTool({
    name: 'net_listening',
    title: 'EVM listening?',
    description: 'Check whether the C-Chain EVM client listens for peers.',
    input: z.strictObject({ chain }),
    output: z.object({ listening: z.boolean() }),
    params: () => [],
    decode: (raw) => ({ listening: raw === true }),
    summarize: (o) => (o.listening ? 'The EVM client is listening for peers.' : 'The EVM client is not listening for peers.'),
  }),
  evmTool({
    name: 'net_peerCount',
    title: 'EVM peer count',
    description: 'Count the C-Chain EVM client\'s peers.',
    input: z.strictObject({ chain }),
    output: z.object({ peerCount: z.string() }),
    params: () => [],
    decode: (raw) => ({ peerCount: dec(raw) }),
    summarize: (o) => `${o.peerCount} EVM peer(s).`,
  }),
  evmTool({
    name: 'eth_chainId',
    title: 'EVM chain ID',
    description: 'Get the EVM chain ID C-Chain transactions are signed with (500 main, 501 test).',
    input: z.strictObject({ chain }),
    output: z.object({ chainId: z.string(), hex: z.string() }),
    params: () => [],
    decode: (raw) => ({ chainId: dec(raw), hex: str(raw) }),
    summarize: (o) => `EVM chain ID ${o.chainId} (${o.hex}).`,
  }),
  evmTool({
    name: 'eth_blockNumber',
    title: 'Latest C-Chain block',
    description: 'Get the number of the latest C-Chain block.',
    input: z.strictObject({ chain }),
    output: z.object({ blockNumber: z.string() }),
    params: () => [],
    decode: (raw) => ({ blockNumber: dec(raw) }),
    summarize: (o) => `Latest C-Chain block: ${o.blockNumber}.`,
  }),
  evmTool({
    name: 'eth_syncing',
    title: 'EVM sync status',
    description: 'Check whether the C-Chain EVM client is syncing, with progress.',
    input: z.strictObject({ chain }),
    output: z.object({ syncing: z.boolean(), currentBlock: z.string().optional(), highestBlock: z.string().optional() }),
    params: () => [],
    decode: (raw) => {
      if (!raw || typeof raw !== 'object') return { syncing: false };
      const r = obj(raw);
      return { syncing: true, currentBlock: dec(r.currentBlock), highestBlock: dec(r.highestBlock) };
    },
    summarize: (o) => (o.syncing ? `Syncing: block ${o.currentBlock} of ${o.highestBlock}.` : 'Not syncing: the EVM is up to date.'),
  }),
];
