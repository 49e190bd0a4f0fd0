import type { ContractExample } from '../types.js';

/** The local network runner's HTTP gateway (spec document 1, "Local test network runner"). */

export const RUNNER_EXEC_PATH = '/usr/local/bin/camino-node';
const CLUSTER = { clusterInfo: { nodeNames: [], nodeInfos: {}, pid: 77, rootDataDir: '/tmp/runner', healthy: false } };

export const examples: Record<string, ContractExample> = {
  runner_start: {
    args: { numNodes: 5, logLevel: 'DEBUG' },
    expect: { path: '/v1/control/start', body: { execPath: RUNNER_EXEC_PATH, numNodes: 5, logLevel: 'DEBUG' } },
    answers: { '/v1/control/start': CLUSTER },
  },
  runner_health: { args: {}, expect: { path: '/v1/control/health', body: {} }, answers: { '/v1/control/health': CLUSTER } },
  runner_uris: { args: {}, expect: { path: '/v1/control/uris', body: {} }, answers: { '/v1/control/uris': { uris: ['http://127.0.0.1:9650'] } } },
};
