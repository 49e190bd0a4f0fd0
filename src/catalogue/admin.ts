import { z } from 'zod';
import { chainSelector } from '../core/fields.js';
import { defineTool, type ToolDef } from '../core/tool.js';
import { decodeSuccess, SuccessOut } from '../spend/result.js';

/** Contract chain admin API, /ext/bc/C/admin (spec document 2); off unless the node enables it. */

const done = SuccessOut;
const decode = decodeSuccess;
const input = z.strictObject({ chain: chainSelector('C') });

function simple(name: string, method: string, title: string, description: string, did: string): ToolDef {
  return defineTool({
    name,
    title,
    description,
    tier: 'admin',
    toolset: 'admin',
    input,
    output: done,
    request: { kind: 'rpc', endpoint: 'cadmin', method, params: () => ({}), adminSecret: true },
    decode,
    summarize: (o) => (o.success ? did : `The node did not confirm ${method}.`),
  });
}

export const adminTools: ToolDef[] = [
  defineTool({
    name: 'admin_setLogLevel',
    title: 'Set the C-Chain log level',
    description: "Set the C-Chain's log level (needs the node's EVM admin API enabled), e.g. to debug a problem.",
    tier: 'admin',
    toolset: 'admin',
    input: z.strictObject({
      level: z.string().regex(/^[A-Za-z]{1,16}$/, 'expected a level name such as info or debug').describe('Level name, e.g. trace, debug, info, warn, error.'),
      chain: chainSelector('C'),
    }),
    output: done,
    request: { kind: 'rpc', endpoint: 'cadmin', method: 'admin.setLogLevel', params: (i) => ({ level: i.level }), adminSecret: true },
    decode,
    summarize: (o, i) => (o.success ? `C-Chain log level set to ${i.level}.` : 'The node did not confirm the change.'),
    annotations: { idempotentHint: true },
  }),
  simple('admin_startCPUProfiler', 'admin.startCPUProfiler', 'Start the C-Chain CPU profiler', 'Start CPU profiling of the C-Chain; stop it with admin_stopCPUProfiler.', 'CPU profiler started; stop it with admin_stopCPUProfiler.'),
  simple('admin_stopCPUProfiler', 'admin.stopCPUProfiler', 'Stop the C-Chain CPU profiler', 'Stop CPU profiling of the C-Chain and write the profile on the node.', 'CPU profiler stopped; the profile is written on the node.'),
  simple('admin_memoryProfile', 'admin.memoryProfile', 'Write a C-Chain memory profile', 'Run a memory profile of the C-Chain and write it on the node.', 'Memory profile written on the node.'),
  simple('admin_lockProfile', 'admin.lockProfile', 'Write a C-Chain mutex profile', "Run a mutex profile of the C-Chain and write it to the chain's performance directory.", 'Mutex profile written on the node.'),
];
