/**
 * The simulator's one in-memory network. Every endpoint family (node JSON-RPC and the
 * indexer) reads and changes this object, so node and indexer tell one consistent story.
 * It is a test double, not a node: it never claims consensus.
 */
export interface DevnetState {
  networkID: number;
  networkName: string;
  hrp: string;
  assetSymbol: string;
  nodeID: string;
  nodeIP: string;
  version: { version: string; databaseVersion: string; gitCommit: string; vmVersions: Record<string, string> };
  chains: Record<'X' | 'P' | 'C', string>;
  vms: Record<string, string[]>;
  bootstrapped: Set<string>;
  fees: { txFee: bigint; creationTxFee: bigint };
  peers: Array<{
    ip: string;
    publicIP: string;
    nodeID: string;
    version: string;
    lastSent: string;
    lastReceived: string;
    benched: string[];
    observedUptime: string;
  }>;
  uptime: { rewardingStakePercentage: number; weightedAveragePercentage: number };
  /** Simulated clock in Unix seconds; tests move it. */
  now(): number;
}

export function createState(): DevnetState {
  const chains = {
    X: '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed',
    P: '11111111111111111111111111111111LpoYY',
    C: '2CA6j5zYzasynPsFeNoqWkmTCt3VScMvXUZHbfDJ8k3oGzAPtU',
  } as const;
  const peers = Array.from({ length: 4 }, (_, i) => ({
    ip: `127.0.0.1:${9653 + 2 * i}`,
    publicIP: `127.0.0.1:${9653 + 2 * i}`,
    nodeID: PEER_NODE_IDS[i]!,
    version: i === 3 ? 'camino/1.1.17' : 'camino/1.1.18',
    lastSent: '2026-11-22T10:00:00Z',
    lastReceived: '2026-11-22T10:00:01Z',
    benched: i === 2 ? [chains.C] : [],
    observedUptime: String(99 - i),
  }));
  return {
    networkID: 12345,
    networkName: 'local',
    hrp: 'local',
    assetSymbol: 'CAM',
    nodeID: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
    nodeIP: '127.0.0.1:9651',
    version: {
      version: 'camino/1.1.18',
      databaseVersion: 'v1.4.5',
      gitCommit: '8d1f2a7c54b0e9f3a6c2d1e0b9a8f7e6d5c4b3a2',
      vmVersions: { xvm: 'v1.1.18', platform: 'v1.1.18', evm: 'v0.5.4' },
    },
    chains,
    vms: {
      jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq: ['xvm'],
      mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6: ['evm'],
      rWhpuQPF1kb72esV2momhMuTYGkEb1oHU8sDgZFNvpDbwVWAx: ['platform'],
    },
    bootstrapped: new Set(['X', 'P', 'C', chains.X, chains.P, chains.C]),
    fees: { txFee: 1_000_000n, creationTxFee: 10_000_000n },
    peers,
    uptime: { rewardingStakePercentage: 100, weightedAveragePercentage: 99.5 },
    now: () => Math.floor(Date.now() / 1000),
  };
}

const PEER_NODE_IDS = [
  'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ',
  'NodeID-NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN',
  'NodeID-GWPcbFJZFfZreETSoWjPimr846mXEKCtu',
  'NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5',
];
