/**
 * The local signer's cost, measured in a fresh process (run by tools/bench/run.ts):
 * - `load`: importing what the first X/P/C spend loads (builders, transaction codec, curve) into a process that has
 *   loaded the server and the catalogue, as a running server has; the EVM codec, which only an EVM send loads, apart;
 * - `work`: the signer's own work per spend (build an X send from the key's UTXOs, decode the bytes back to the
 *   preview's view, sign), the first one and the median and p95 of the next ones. No node round trips.
 * Prints one JSON line.
 */

const mode = process.argv[2] ?? 'load';

async function load(): Promise<Record<string, number>> {
  // What a running server has loaded before its first spend: the server and the catalogue.
  await import('../../src/server.js');
  await import('../../src/catalogue/index.js');
  const started = performance.now();
  await import('../../src/local/spends.js');
  await import('../../src/local/render.js');
  const curve = performance.now();
  await import('../../src/signer/index.js');
  const evm = performance.now();
  await import('../../src/codec/evm-tx.js');
  const done = performance.now();
  return { loadMs: evm - started, buildAndCodecMs: curve - started, curveMs: evm - curve, evmMs: done - evm };
}

async function work(): Promise<Record<string, number>> {
  const { startDevnet } = await import('../../src/devnet/index.js');
  const { encodeUtxo } = await import('../../src/devnet/state/index.js');
  const { buildBaseTx } = await import('../../src/tx-builders/index.js');
  const { decodeUnsignedTx, decodeUtxo, viewTx } = await import('../../src/codec/tx/index.js');
  const { parseCb58Id, parseChainAddress } = await import('../../src/codec/index.js');
  const { signBuilt } = await import('../../src/local/spends.js');
  const { signerFromPrivateKey } = await import('../../src/signer/index.js');
  const devnet = await startDevnet({ dialect: 'camino' });
  try {
    const state = devnet.state;
    const signer = signerFromPrivateKey(devnet.localKey.privateKey);
    const utxos = [...state.utxos.values()].filter((u) => !u.spentBy && u.chain === 'X' && !u.sourceChain && u.addresses.includes(devnet.localKey.x)).map((u) => decodeUtxo('X', encodeUtxo(u)));
    const env = {
      networkID: state.networkID,
      chainIDs: { X: parseCb58Id(state.chains.X), P: parseCb58Id(state.chains.P), C: parseCb58Id(state.chains.C) },
      feeAssetID: parseCb58Id(state.nativeAssetID),
      key: { shortID: signer.addresses.shortId, evmAddress: Uint8Array.from(Buffer.from(signer.addresses.evm.slice(2), 'hex')) },
      txFee: state.fees.txFee,
      now: BigInt(state.now()),
    };
    const to = parseChainAddress(state.users.get('alice')!.keys[0]!.x).bytes;
    const once = (amount: bigint) => {
      const built = buildBaseTx(env, { chain: 'X', utxos, payments: [{ assetID: env.feeAssetID, amount, to: { addresses: [to] } }] });
      viewTx(decodeUnsignedTx('X', built.bytes), { hrp: state.hrp });
      return signBuilt(built, signer).length;
    };
    let t = performance.now();
    once(1_500_000_000n);
    const firstMs = performance.now() - t;
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      t = performance.now();
      once(1_500_000_000n + BigInt(i));
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return { firstMs, medianMs: times[Math.floor(times.length / 2)]!, p95Ms: times[Math.floor(times.length * 0.95)]!, utxos: utxos.length };
  } finally {
    await devnet.close();
  }
}

(mode === 'work' ? work() : load()).then(
  (r) => {
    process.stdout.write(`${JSON.stringify(r)}\n`);
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(`signer-probe: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
