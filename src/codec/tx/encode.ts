import {
  CODEC_VERSION,
  type Credential,
  type InitialState,
  type OutputOwners,
  type SigIndicesAuth,
  type TransferableIn,
  type TransferableInput,
  type TransferableOut,
  type TransferableOutput,
  type TxChain,
  TYPE_IDS,
  type UnsignedTx,
  type Utxo,
  type UtxoOutput,
} from './types.js';
import { MAX_MEMO_BYTES, TxCodecError, Writer } from './wire.js';

/** codec.UpgradePrefix: the high 48 bits of an UpgradeVersionID. */
export const UPGRADE_PREFIX = 0xffffffffffff0000n;

const ID = 32;
const SHORT_ID = 20;
const SIGNATURE = 65;

function ownersBody(w: Writer, owners: OutputOwners): void {
  w.u64(owners.locktime).u32(owners.threshold);
  w.list(owners.addresses, (a, ww) => ww.fixed(a, SHORT_ID, 'an owner address'));
}

/** OutputOwners body (locktime, threshold, addresses) without a type ID. */
export function encodeOutputOwners(owners: OutputOwners): Uint8Array {
  const w = new Writer();
  ownersBody(w, owners);
  return w.finish();
}

function typeId(chain: TxChain, name: string): number {
  const table = TYPE_IDS[chain] as Record<string, number>;
  const id = table[name];
  if (id === undefined) throw new TxCodecError(`the ${chain}-chain codec has no ${name}`);
  return id;
}

function utxoOutput(w: Writer, chain: TxChain, out: UtxoOutput): void {
  switch (out.kind) {
    case 'secp.transfer':
      w.u32(typeId(chain, 'TransferOutput')).u64(out.amount);
      ownersBody(w, out.owners);
      return;
    case 'secp.mint':
      w.u32(typeId(chain, 'MintOutput'));
      ownersBody(w, out.owners);
      return;
    case 'locked':
      w.u32(typeId(chain, 'LockedOut')).fixed(out.lockIDs.depositTxID, ID, 'a deposit tx ID').fixed(out.lockIDs.bondTxID, ID, 'a bond tx ID');
      utxoOutput(w, chain, out.output);
      return;
    case 'stakeable':
      w.u32(typeId(chain, 'StakeableLockOut')).u64(out.locktime);
      utxoOutput(w, chain, out.output);
      return;
    case 'nft.transfer':
      w.u32(typeId(chain, 'NftTransferOutput')).u32(out.groupID).varBytes(out.payload);
      ownersBody(w, out.owners);
      return;
    case 'nft.mint':
      w.u32(typeId(chain, 'NftMintOutput')).u32(out.groupID);
      ownersBody(w, out.owners);
      return;
    case 'cross.transfer':
      w.u32(typeId(chain, 'CrossTransferOutput')).u64(out.amount);
      ownersBody(w, out.owners);
      w.fixed(out.recipient, SHORT_ID, 'a recipient');
      return;
    default:
      throw new TxCodecError(`unknown output kind ${(out as { kind: string }).kind}`);
  }
}

/** An output with its type ID: the bytes avax.SortTransferableOutputs compares after the asset ID. */
export function encodeTransferableOut(chain: TxChain, out: TransferableOut): Uint8Array {
  const w = new Writer();
  utxoOutput(w, chain, out);
  return w.finish();
}

function transferableIn(w: Writer, chain: TxChain, input: TransferableIn): void {
  if (input.kind === 'locked') {
    w.u32(typeId(chain, 'LockedIn')).fixed(input.lockIDs.depositTxID, ID, 'a deposit tx ID').fixed(input.lockIDs.bondTxID, ID, 'a bond tx ID');
    transferableIn(w, chain, input.input);
    return;
  }
  if (input.kind !== 'secp.transfer') throw new TxCodecError(`unknown input kind ${(input as { kind: string }).kind}`);
  w.u32(typeId(chain, 'TransferInput')).u64(input.amount);
  w.list(input.sigIndices, (i, ww) => ww.u32(i));
}

function inputs(w: Writer, chain: TxChain, list: readonly TransferableInput[]): void {
  w.list(list, (input, ww) => {
    ww.fixed(input.txID, ID, 'an input tx ID').u32(input.outputIndex).fixed(input.assetID, ID, 'an asset ID');
    transferableIn(ww, chain, input.input);
  });
}

function outputs(w: Writer, chain: TxChain, list: readonly TransferableOutput[]): void {
  w.list(list, (out, ww) => {
    ww.fixed(out.assetID, ID, 'an asset ID');
    utxoOutput(ww, chain, out.output);
  });
}

function auth(w: Writer, chain: TxChain, a: SigIndicesAuth | undefined, what: string): void {
  if (a === undefined) throw new TxCodecError(`${what} is required`);
  w.u32(typeId(chain, 'Input'));
  w.list(a.sigIndices, (i, ww) => ww.u32(i));
}

function baseFields(w: Writer, tx: Exclude<UnsignedTx, { chain: 'C' }>): void {
  if (tx.memo.length > MAX_MEMO_BYTES) throw new TxCodecError(`memo is ${tx.memo.length} bytes; the node takes at most ${MAX_MEMO_BYTES}`);
  w.u32(tx.networkID).fixed(tx.blockchainID, ID, 'the blockchain ID');
  outputs(w, tx.chain, tx.outputs);
  inputs(w, tx.chain, tx.inputs);
  w.varBytes(tx.memo);
}

function initialState(w: Writer, s: InitialState): void {
  w.u32(s.fxIndex);
  w.list(s.outputs, (o, ww) => utxoOutput(ww, 'X', o));
}

/** Unsigned bytes: codec version (u16 0) + the tx's type ID (u32) + its fields in wire order. */
export function encodeUnsignedTx(tx: UnsignedTx): Uint8Array {
  const w = new Writer().u16(CODEC_VERSION);
  switch (tx.chain) {
    case 'C':
      if (tx.kind === 'import') {
        w.u32(TYPE_IDS.C.ImportTx).u32(tx.networkID).fixed(tx.blockchainID, ID, 'the blockchain ID').fixed(tx.sourceChain, ID, 'the source chain ID');
        inputs(w, 'C', tx.importedInputs);
        w.list(tx.outputs, (o, ww) => ww.fixed(o.address, SHORT_ID, 'an EVM address').u64(o.amount).fixed(o.assetID, ID, 'an asset ID'));
      } else {
        w.u32(TYPE_IDS.C.ExportTx).u32(tx.networkID).fixed(tx.blockchainID, ID, 'the blockchain ID').fixed(tx.destinationChain, ID, 'the destination chain ID');
        w.list(tx.inputs, (i, ww) => ww.fixed(i.address, SHORT_ID, 'an EVM address').u64(i.amount).fixed(i.assetID, ID, 'an asset ID').u64(i.nonce));
        outputs(w, 'C', tx.exportedOutputs);
      }
      return w.finish();
    case 'X':
    case 'P':
      break;
    default:
      throw new TxCodecError(`unknown chain ${String((tx as { chain: unknown }).chain)}`);
  }
  switch (tx.kind) {
    case 'base':
      w.u32(tx.chain === 'X' ? TYPE_IDS.X.BaseTx : TYPE_IDS.P.BaseTx);
      baseFields(w, tx);
      break;
    case 'createAsset':
      w.u32(TYPE_IDS.X.CreateAssetTx);
      baseFields(w, tx);
      w.str(tx.name).str(tx.symbol).u8(tx.denomination);
      w.list(tx.states, (s, ww) => initialState(ww, s));
      break;
    case 'import':
      w.u32(tx.chain === 'X' ? TYPE_IDS.X.ImportTx : TYPE_IDS.P.ImportTx);
      baseFields(w, tx);
      w.fixed(tx.sourceChain, ID, 'the source chain ID');
      inputs(w, tx.chain, tx.importedInputs);
      break;
    case 'export':
      w.u32(tx.chain === 'X' ? TYPE_IDS.X.ExportTx : TYPE_IDS.P.ExportTx);
      baseFields(w, tx);
      w.fixed(tx.destinationChain, ID, 'the destination chain ID');
      outputs(w, tx.chain, tx.exportedOutputs);
      break;
    case 'deposit':
      w.u32(TYPE_IDS.P.DepositTx);
      if (tx.upgradeVersion !== 0) w.u64(UPGRADE_PREFIX | BigInt(tx.upgradeVersion));
      baseFields(w, tx);
      w.fixed(tx.depositOfferID, ID, 'the deposit offer ID').u32(tx.depositDuration);
      w.u32(TYPE_IDS.P.OutputOwners);
      ownersBody(w, tx.rewardsOwner);
      if (tx.upgradeVersion >= 1) {
        w.fixed(tx.depositCreatorAddress ?? new Uint8Array(SHORT_ID), SHORT_ID, 'the deposit creator address');
        auth(w, 'P', tx.depositCreatorAuth, 'depositCreatorAuth');
        auth(w, 'P', tx.depositOfferOwnerAuth, 'depositOfferOwnerAuth');
      }
      break;
    case 'unlockDeposit':
      w.u32(TYPE_IDS.P.UnlockDepositTx);
      baseFields(w, tx);
      break;
    case 'claim':
      w.u32(TYPE_IDS.P.ClaimTx);
      baseFields(w, tx);
      w.list(tx.claimables, (c, ww) => {
        ww.fixed(c.id, ID, 'a claimable ID').u64(c.type).u64(c.amount);
        auth(ww, 'P', c.ownerAuth, 'a claimable ownerAuth');
      });
      break;
    default:
      throw new TxCodecError(`unknown tx kind ${(tx as { kind: string }).kind}`);
  }
  return w.finish();
}

/** The credential list that follows the unsigned tx in a signed tx: u32 count, then type 9 + signatures each. */
export function encodeCredentials(chain: TxChain, credentials: readonly Credential[]): Uint8Array {
  const w = new Writer();
  w.list(credentials, (c, ww) => {
    ww.u32(typeId(chain, 'Credential'));
    ww.list(c.signatures, (s, www) => www.fixed(s, SIGNATURE, 'a signature'));
  });
  return w.finish();
}

export function encodeSignedTx(tx: { unsigned: UnsignedTx; credentials: readonly Credential[] }): Uint8Array {
  const unsigned = encodeUnsignedTx(tx.unsigned);
  const creds = encodeCredentials(tx.unsigned.chain, tx.credentials);
  const out = new Uint8Array(unsigned.length + creds.length);
  out.set(unsigned);
  out.set(creds, unsigned.length);
  return out;
}

/** A UTXO as `getUTXOs` returns it (before the hex checksum). */
export function encodeUtxo(chain: TxChain, utxo: Utxo): Uint8Array {
  const w = new Writer().u16(CODEC_VERSION).fixed(utxo.txID, ID, 'a UTXO tx ID').u32(utxo.outputIndex).fixed(utxo.assetID, ID, 'an asset ID');
  utxoOutput(w, chain, utxo.output);
  return w.finish();
}
