import type { BuildEnv } from '../tx-builders/index.js';
import { formatChainAddress, parseCb58Id } from '../codec/index.js';
import type { TxChain } from '../codec/tx/index.js';
import type { NetworkInfo } from '../core/network.js';
import type { ToolContext } from '../core/tool.js';
import { ChainMcpError } from '../errors.js';
import type { LocalSigner } from '../signer/types.js';
import { txFees } from '../spend/plan.js';

/** The key's own addresses on this network: what the local signer may spend from and where change goes. */
export interface OwnKeyAddresses {
  x: string;
  p: string;
  /** The atomic form on C (`C-hrp1…`): where exports to C wait for the key. */
  cAtomic: string;
  /** The EVM address, EIP-55. */
  evm: string;
}

/** What every local build needs from the node, read fresh for each preview. */
export interface LocalEnv {
  build: BuildEnv;
  network: NetworkInfo;
  /** cb58 chain IDs as this node names them. */
  chainIDs: Record<TxChain, string>;
  own: OwnKeyAddresses;
  signer: LocalSigner;
}

export function ownAddressesOf(signer: LocalSigner, hrp: string): OwnKeyAddresses {
  const id = signer.addresses.shortId;
  return { x: formatChainAddress('X', hrp, id), p: formatChainAddress('P', hrp, id), cAtomic: formatChainAddress('C', hrp, id), evm: signer.addresses.evm };
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
}

/** Network ID, chain IDs, fee asset and fee from the node; the key's public side from the signer. */
export async function localEnv(ctx: ToolContext, signer: LocalSigner): Promise<LocalEnv> {
  const network = await ctx.network();
  if (!network.assetID) throw new ChainMcpError('not_configured', 'The node did not say which asset is native; the local signer cannot build a transaction.');
  const ids = await Promise.all(
    (['X', 'P', 'C'] as const).map(async (alias) => {
      const raw = (await ctx.rpc('info', 'info.getBlockchainID', { alias }, { retry: true })) as { blockchainID?: unknown };
      if (typeof raw?.blockchainID !== 'string') throw new ChainMcpError('malformed', `The node did not give the ${alias}-Chain's ID (info.getBlockchainID).`);
      return raw.blockchainID;
    }),
  );
  const chainIDs = { X: ids[0]!, P: ids[1]!, C: ids[2]! };
  const { txFee } = await txFees(ctx);
  return {
    network,
    chainIDs,
    own: ownAddressesOf(signer, network.hrp),
    signer,
    build: {
      networkID: Number(network.networkID),
      chainIDs: { X: parseCb58Id(chainIDs.X), P: parseCb58Id(chainIDs.P), C: parseCb58Id(chainIDs.C) },
      feeAssetID: parseCb58Id(network.assetID),
      key: { shortID: signer.addresses.shortId, evmAddress: hexBytes(signer.addresses.evm) },
      txFee,
      now: BigInt(Math.floor(ctx.now() / 1000)),
    },
  };
}
