import { afterEach, beforeEach } from 'vitest';
import { type Devnet, startDevnet } from '../../src/devnet/index.js';
import { type SpendHarness, spendHarness } from './spend-harness.js';

export interface HeldCamino {
  devnet: Devnet;
  h: SpendHarness;
  /** The node's clock in Unix seconds, held: a test moves it by setting this. */
  now: number;
}

/**
 * A Camino-dialect simulator (keystore API on) whose clock is held at its start, and a spend
 * harness against it: fresh for each test of the suite that calls this, closed after it.
 * `record` keeps every request the node gets; `serverClock` holds the server's clock at the same second.
 */
export function heldCamino(opts: { record?: boolean; serverClock?: boolean } = {}): HeldCamino {
  const held = {} as HeldCamino;
  beforeEach(async () => {
    held.devnet = await startDevnet({ dialect: 'camino', keystoreApi: true });
    held.now = held.devnet.state.now();
    held.devnet.state.now = () => held.now;
    if (opts.record) held.devnet.router.record = true;
    held.h = await spendHarness(held.devnet);
    // The server words dates against its own clock: the node's second, held.
    if (opts.serverClock) held.h.clock.now = held.now * 1000;
  });
  afterEach(async () => {
    await held.h.close();
    await held.devnet.close();
  });
  return held;
}
