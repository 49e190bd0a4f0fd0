import type { OutputOwners, TxChain, UnsignedTx, Utxo } from '../codec/tx/index.js';

/** The signer's key as the builders see it: public identifiers only, never the secret. */
export interface KeyRef {
  /** ripemd160(sha256(compressed public key)): the X/P address bytes, the only signer. */
  shortID: Uint8Array;
  /** The C-chain 0x address bytes (keccak256 of the uncompressed public key, last 20 bytes). */
  evmAddress: Uint8Array;
}

/** What the node told us about its network (info.getNetworkID, info.getBlockchainID, avm.getAssetDescription). */
export interface NetworkRef {
  networkID: number;
  /** 32-byte chain IDs of X, P and C on this node. */
  chainIDs: Record<TxChain, Uint8Array>;
  /** The fee asset (CAM) ID. */
  feeAssetID: Uint8Array;
}

/** Everything a builder needs besides the intent. `now` decides which UTXOs are spendable (locktime). */
export interface BuildEnv extends NetworkRef {
  key: KeyRef;
  /** info.getTxFee `txFee` in nCAM: what X/P BaseTx, Import, Export, Deposit, Unlock and Claim burn. */
  txFee: bigint;
  /** Unix seconds. */
  now: bigint;
}

/** An X/P recipient: defaults threshold 1, locktime 0. */
export interface Recipient {
  addresses: Uint8Array[];
  threshold?: number;
  locktime?: bigint;
}

export interface Payment {
  assetID: Uint8Array;
  amount: bigint;
  to: Recipient;
}

/** Per-asset totals keyed by the asset's cb58 ID. */
export type AssetTotals = Record<string, bigint>;

export interface BuildSummary {
  /** Everything the tx consumes (UTXOs, imported UTXOs, EVM inputs). */
  inputs: AssetTotals;
  /** Everything it creates (outputs, exported outputs, EVM outputs), change included. */
  outputs: AssetTotals;
  /** Fee burned in the fee asset: inputs − outputs, equal to the node's fee. */
  fee: bigint;
  /** What returns to the key, per asset. */
  change: AssetTotals;
}

/** A built, unsigned tx: sign `hash` with the key once per entry of `sigIndices` (credential order). */
export interface BuiltTx {
  chain: TxChain;
  unsigned: UnsignedTx;
  /** encodeUnsignedTx(unsigned). */
  bytes: Uint8Array;
  /** sha256(bytes): what is approved and signed. */
  hash: Uint8Array;
  /** One entry per credential, in credential order: the signature indices (all the key's). */
  sigIndices: number[][];
  summary: BuildSummary;
}

/** A UTXO the builder considered, with why it was or was not spendable by the key. */
export type SpendableUtxo = Utxo & { amount: bigint; sigIndex: number };

export type { OutputOwners };
