import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DevnetIndexer, startIndexer } from './indexer/server.js';
import { registerInfo } from './node/info.js';
import { registerIssue } from './node/issue.js';
import { registerPlatform } from './node/platform.js';
import { registerCamino } from './node/camino.js';
import { registerXvm } from './node/xvm.js';
import { registerCx } from './node/cx.js';
import { registerKeystore } from './node/keystore.js';
import { attachEvmSocket, registerEvm } from './node/evm.js';
import { startAnvil } from './anvil.js';
import { registerAdmin } from './node/admin.js';
import { authorizer, registerAuth } from './node/auth.js';
import { registerCxSpend } from './node/cx.spend.js';
import { registerKeystoreAdmin } from './node/keystore.admin.js';
import { registerPlatformSpend } from './node/platform.spend.js';
import { registerWallet } from './node/wallet.js';
import { registerXvmSpend } from './node/xvm.spend.js';
import { type RunnerGateway, startRunnerGateway } from './runner.js';
import { type DevnetDialect, RpcRouter } from './rpc.js';
import { formatBareBech32 } from '../codec/index.js';
import { ADDRESS_BYTES, createState, type DevnetState, fund, holdDeposit } from './state/index.js';

export interface DevnetOptions {
  /** Node API port on 127.0.0.1; 0 picks a free one. */
  port?: number;
  /** Require `Authorization: Bearer` on every endpoint but /ext/auth (`--api-auth-required`). */
  authRequired?: boolean;
  /** With authRequired: tokens that grant every endpoint from the start (tests that bring their own). */
  authTokens?: string[];
  log?: (line: string) => void;
  /** API names the node speaks: `camino` (a real node's avm/avax) or `spec` (default, the specification's names). */
  dialect?: DevnetDialect;
  /**
   * Serve /ext/keystore and let keystore-backed methods (avm.send, ...) find users. Default: off in
   * the `camino` dialect, as on a default caminogo (`api-keystore-enabled` false), on in `spec`.
   */
  keystoreApi?: boolean;
  /** Forward /ext/bc/C/rpc and /ext/bc/C/ws to a real anvil started here (stopped on close). */
  anvil?: boolean;
  /** The C-Chain admin API then requires this `secret` param. */
  adminSecret?: string;
  /**
   * A key of the user's own to fund at start (`chain-mcp --devnet` with a key file): 100 CAM on X,
   * 50 CAM on P and 10 CAM on C, so the first transfer needs no faucet. Public parts only.
   */
  fundKey?: { shortId: Uint8Array; evm: string };
}

export interface Devnet {
  nodeUrl: string;
  dialect: DevnetDialect;
  indexerUrl?: string;
  /** The indexer simulator (its request log lets tests count requests). */
  indexer?: DevnetIndexer;
  runnerUrl?: string;
  /** The keystore user the demo and tests sign with. */
  keystore: { username: string; password: string };
  /**
   * The local signer's funded account (a real secp256k1 key): X, P (unlocked, deposited, bonded), C,
   * and 20 CAM waiting on C from X. The private key lives only here, for tests and the demo.
   */
  localKey: { privateKey: Uint8Array; x: string; p: string; c: string };
  state: DevnetState;
  router: RpcRouter;
  /** The local network runner's HTTP gateway (runnerUrl). */
  runner: RunnerGateway;
  /** Switches the names the node speaks while it runs (a node replaced or upgraded under a running server). */
  setDialect(dialect: DevnetDialect): void;
  close(): Promise<void>;
}

/** Families register their methods on the router; adding one is one line here. */
const FAMILIES: Array<(router: RpcRouter, state: DevnetState) => void> = [registerInfo, registerPlatform, registerCamino, registerXvm, registerCx, registerKeystore, registerEvm, registerXvmSpend, registerWallet, registerPlatformSpend, registerCxSpend, registerKeystoreAdmin, registerAdmin, registerIssue];

async function listen(server: Server, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const CAM = 1_000_000_000n;

function fundUserKey(state: DevnetState, key: { shortId: Uint8Array; evm: string }, camino: boolean): void {
  const bech32 = formatBareBech32(state.hrp, key.shortId);
  // The simulator's UTXO encodings find an address's bytes here.
  ADDRESS_BYTES.set(bech32, key.shortId);
  fund(state, 'X', `X-${bech32}`, [100n * CAM]);
  fund(state, 'P', `P-${bech32}`, [50n * CAM]);
  const c = key.evm.toLowerCase();
  state.cBalances.set(c, (state.cBalances.get(c) ?? 0n) + 10n * CAM * 1_000_000_000n);
  // A holder's first questions and spends, at once: a deposit in its unlock period, rewards to claim
  // (Camino's own; a node of the spec's API has neither).
  if (!camino) return;
  holdDeposit(state, `P-${bech32}`, `your-key:deposit:${bech32}`, FUNDED.deposit);
  state.claimables.push({ owner: { locktime: 0n, threshold: 1, addresses: [`P-${bech32}`] }, validatorRewards: FUNDED.validatorRewards, expiredDepositRewards: 0n });
}

/** What --devnet gives the user's own key besides 100 CAM on X, 50 on P and 10 on C. */
export const FUNDED = { deposit: 20n * CAM, validatorRewards: 1_500_000_000n } as const;

/** Starts the simulator on loopback. */
export async function startDevnet(opts: DevnetOptions = {}): Promise<Devnet> {
  const state = createState();
  const router = new RpcRouter();
  const speak = (dialect: DevnetDialect) => {
    router.dialect = dialect;
    // A real node names its VMs by alias: avm, evm, platform.
    const { xvm, avm, ...others } = state.version.vmVersions;
    const version = xvm ?? avm ?? '';
    state.version.vmVersions = dialect === 'camino' ? { avm: version, ...others } : { xvm: version, ...others };
  };
  speak(opts.dialect ?? 'spec');
  // Camino's C-Chain base fee is fixed at 200 gwei (caminoethvm params/camino_config.go SunrisePhase0BaseFee).
  if (opts.dialect === 'camino') state.cBaseFee = 200_000_000_000n;
  const keystoreApi = opts.keystoreApi ?? (opts.dialect ?? 'spec') !== 'camino';
  state.keystoreApi = keystoreApi;
  const families = !keystoreApi ? FAMILIES.filter((f) => f !== registerKeystore && f !== registerKeystoreAdmin) : FAMILIES;
  for (const register of families) register(router, state);
  if (opts.adminSecret !== undefined) registerAdmin(router, state, opts.adminSecret);
  if (opts.authRequired) {
    registerAuth(router, state);
    router.authorize = authorizer(state, opts.authTokens);
  }
  if (opts.fundKey) fundUserKey(state, opts.fundKey, opts.dialect === 'camino');
  const node = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      router.handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(String((err as Error).message));
      });
    });
  });
  node.keepAliveTimeout = 5_000;
  const anvil = opts.anvil ? await startAnvil({ chainId: state.evmChainId }) : undefined;
  if (anvil) state.evmUpstream = { url: anvil.url, wsUrl: anvil.wsUrl };
  const detachEvmSocket = attachEvmSocket(node, router, state);
  const nodeUrl = await listen(node, opts.port ?? 0);
  opts.log?.(`devnet: node API at ${nodeUrl}`);
  const indexer = await startIndexer(state, { dialect: router.dialect });
  opts.log?.(`devnet: indexer API at ${indexer.url}`);
  const runner = await startRunnerGateway(nodeUrl);
  const devnet: Devnet = {
    nodeUrl,
    dialect: router.dialect,
    indexerUrl: indexer.url,
    runnerUrl: runner.url,
    runner,
    indexer,
    keystore: { username: 'devnet', password: 'Devnet-Passw0rd!' },
    localKey: { privateKey: state.localKey!.privateKey, x: state.localKey!.x, p: state.localKey!.p, c: state.localKey!.c },
    state,
    router,
    setDialect: (dialect) => {
      speak(dialect);
      devnet.dialect = dialect;
    },
    close: async () => {
      detachEvmSocket();
      await anvil?.stop();
      await indexer.close();
      await runner.close();
      await new Promise<void>((resolve) => {
        node.closeAllConnections();
        node.close(() => resolve());
      });
    },
  };
  return devnet;
}
