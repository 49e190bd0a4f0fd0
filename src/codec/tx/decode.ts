import { hexChecksumDecode } from '../index.js';
import { encodeTransferableOut, UPGRADE_PREFIX } from './encode.js';
import { sha256, txIdOf } from './hash.js';
import { compareBytes, compareEvm, compareInputs, compareOutputs } from './sort.js';
import {
  CLAIM_TYPES,
  CODEC_VERSION,
  type ClaimAmount,
  type Credential,
  type DecodedSignedTx,
  type EvmInput,
  type EvmOutput,
  type InitialState,
  type LockIDs,
  type OutputOwners,
  type SecpTransferOutput,
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
import { MAX_CODEC_BYTES, MAX_MEMO_BYTES, Reader, TxCodecError } from './wire.js';

const ID = 32;
const SHORT_ID = 20;
const SIGNATURE = 65;
const MAX_UPGRADE_VERSION = 1;

function fail(message: string): never {
  throw new TxCodecError(message);
}

/**
 * Whether the node's syntactic checks run (sorted and unique lists, non-zero amounts, spendable owners,
 * memo size, non-empty import/export lists) on top of the codec's own (type IDs, lengths, trailing bytes).
 * Set for the length of one synchronous decode call.
 */
let verifying = true;

/** A syntactic rule the node applies after parsing: refused only when verifying. */
function rule(ok: boolean, message: string): void {
  if (verifying && !ok) fail(message);
}

function withVerify<T>(verify: boolean | undefined, run: () => T): T {
  const before = verifying;
  verifying = verify ?? true;
  try {
    return run();
  } finally {
    verifying = before;
  }
}

/** `verify: false` parses as the codec does and skips the syntactic rules (for test vectors and diagnostics). */
export interface DecodeOptions {
  verify?: boolean;
}

function checkChain(chain: TxChain): void {
  if (chain !== 'X' && chain !== 'P' && chain !== 'C') fail(`unknown chain ${String(chain)}`);
}

/** secp256k1fx.OutputOwners.Verify. */
function owners(r: Reader): OutputOwners {
  const locktime = r.u64('locktime');
  const threshold = r.u32('threshold');
  const addresses = r.list('addresses', (rr) => rr.fixed(SHORT_ID, 'an address'));
  rule(threshold <= addresses.length, 'output is unspendable (threshold above the number of addresses)');
  rule(threshold !== 0 || addresses.length === 0, 'output representation should be optimized (threshold 0 with addresses)');
  for (let i = 1; i < addresses.length; i++) {
    rule(compareBytes(addresses[i - 1] as Uint8Array, addresses[i] as Uint8Array) < 0, 'addresses not sorted and unique');
  }
  return { locktime, threshold, addresses };
}

function sigIndices(r: Reader): number[] {
  const list = r.list('signature indices', (rr) => rr.u32('a signature index'));
  for (let i = 1; i < list.length; i++) rule((list[i - 1] as number) < (list[i] as number), 'signatures not sorted and unique');
  return list;
}

function lockIDs(r: Reader): LockIDs {
  return { depositTxID: r.fixed(ID, 'a deposit tx ID'), bondTxID: r.fixed(ID, 'a bond tx ID') };
}

function isZero(id: Uint8Array): boolean {
  return id.every((b) => b === 0);
}

function secpTransferOutput(r: Reader): SecpTransferOutput {
  const amount = r.u64('an output amount');
  const o = owners(r);
  rule(amount !== 0n, 'output has no value');
  return { kind: 'secp.transfer', amount, owners: o };
}

function innerTransferOutput(chain: TxChain, r: Reader, outer: string): SecpTransferOutput {
  const t = r.u32('an output type ID');
  if (t !== TYPE_IDS[chain].TransferOutput) fail(`${outer} must wrap a TransferOutput (type ${TYPE_IDS[chain].TransferOutput}), got type ${t}`);
  return secpTransferOutput(r);
}

/** An output where the codec's interface is TransferableOut (tx outputs) or verify.State (UTXOs). */
function output(chain: TxChain, r: Reader, inUtxo: boolean): UtxoOutput {
  const t = r.u32('an output type ID');
  if (t === TYPE_IDS[chain].TransferOutput) return secpTransferOutput(r);
  if (chain === 'P') {
    if (t === TYPE_IDS.P.LockedOut) {
      const ids = lockIDs(r);
      // locked.Out.Verify refuses only nesting; a UTXO with both IDs empty (anyone's DepositTx can
      // leave one at any address) is read as it is, and no builder takes it.
      if (!inUtxo) rule(!(isZero(ids.depositTxID) && isZero(ids.bondTxID)), 'locked output has no lock IDs');
      return { kind: 'locked', lockIDs: ids, output: innerTransferOutput('P', r, 'a locked output') };
    }
    if (t === TYPE_IDS.P.StakeableLockOut) {
      const locktime = r.u64('a stakeable locktime');
      rule(locktime !== 0n, 'invalid locktime: a stakeable locked output has locktime 0');
      return { kind: 'stakeable', locktime, output: innerTransferOutput('P', r, 'a stakeable locked output') };
    }
  }
  if (inUtxo && chain === 'P' && t === TYPE_IDS.P.CrossTransferOutput) {
    // secp256k1fx.CrossTransferOutput: the TransferOutput's fields inline, then the recipient.
    const { amount, owners: o } = secpTransferOutput(r);
    const recipient = r.fixed(SHORT_ID, 'a recipient');
    rule(!isZero(recipient), 'receipient cannot be empty');
    return { kind: 'cross.transfer', amount, owners: o, recipient };
  }
  if (inUtxo && (chain === 'X' || chain === 'P') && t === TYPE_IDS[chain].MintOutput) return { kind: 'secp.mint', owners: owners(r) };
  if (inUtxo && chain === 'X') {
    if (t === TYPE_IDS.X.NftTransferOutput) {
      const groupID = r.u32('a group ID');
      const payload = r.varBytes('an NFT payload', 1024);
      return { kind: 'nft.transfer', groupID, payload, owners: owners(r) };
    }
    if (t === TYPE_IDS.X.NftMintOutput) {
      const groupID = r.u32('a group ID');
      return { kind: 'nft.mint', groupID, owners: owners(r) };
    }
  }
  return fail(`unexpected ${chain}-chain output type ID ${t}`);
}

function transferableIn(chain: TxChain, r: Reader): TransferableIn {
  const t = r.u32('an input type ID');
  if (t === TYPE_IDS[chain].TransferInput) {
    const amount = r.u64('an input amount');
    const s = sigIndices(r);
    rule(amount !== 0n, 'input has no value');
    return { kind: 'secp.transfer', amount, sigIndices: s };
  }
  if (chain === 'P' && t === TYPE_IDS.P.LockedIn) {
    const ids = lockIDs(r);
    rule(!(isZero(ids.depositTxID) && isZero(ids.bondTxID)), 'locked input has no lock IDs');
    const inner = transferableIn('P', r);
    if (inner.kind !== 'secp.transfer') fail('a locked input must wrap a TransferInput');
    return { kind: 'locked', lockIDs: ids, input: inner };
  }
  return fail(`unexpected ${chain}-chain input type ID ${t}`);
}

function inputs(chain: TxChain, r: Reader, what: string): TransferableInput[] {
  const list = r.list(what, (rr) => {
    const txID = rr.fixed(ID, 'an input tx ID');
    const outputIndex = rr.u32('an output index');
    const assetID = rr.fixed(ID, 'an asset ID');
    return { txID, outputIndex, assetID, input: transferableIn(chain, rr) };
  });
  for (let i = 1; i < list.length; i++) {
    rule(compareInputs(list[i - 1] as TransferableInput, list[i] as TransferableInput) < 0, `${what} not sorted and unique`);
  }
  return list;
}

function outputs(chain: TxChain, r: Reader, what: string): TransferableOutput[] {
  const list = r.list(what, (rr) => {
    const assetID = rr.fixed(ID, 'an asset ID');
    return { assetID, output: output(chain, rr, false) as TransferableOut };
  });
  for (let i = 1; i < list.length; i++) {
    rule(compareOutputs(chain, list[i - 1] as TransferableOutput, list[i] as TransferableOutput) <= 0, `${what} not sorted`);
  }
  return list;
}

function auth(r: Reader, what: string): SigIndicesAuth {
  const t = r.u32(`${what} type ID`);
  if (t !== TYPE_IDS.P.Input) fail(`${what}: expected a secp256k1fx.Input (type ${TYPE_IDS.P.Input}), got type ${t}`);
  return { sigIndices: sigIndices(r) };
}

interface Base {
  networkID: number;
  blockchainID: Uint8Array;
  outputs: TransferableOutput[];
  inputs: TransferableInput[];
  memo: Uint8Array;
}

function base(chain: TxChain, r: Reader): Base {
  const networkID = r.u32('networkID');
  const blockchainID = r.fixed(ID, 'blockchainID');
  const outs = outputs(chain, r, 'outputs');
  const ins = inputs(chain, r, 'inputs');
  const memo = r.varBytes('memo');
  rule(memo.length <= MAX_MEMO_BYTES, `memo too large: ${memo.length} > ${MAX_MEMO_BYTES}`);
  return { networkID, blockchainID, outputs: outs, inputs: ins, memo };
}

function version(r: Reader): void {
  const v = r.u16('the codec version');
  if (v !== CODEC_VERSION) fail(`unknown codec version ${v}`);
}

function unsignedBody(chain: TxChain, r: Reader): UnsignedTx {
  version(r);
  const t = r.u32('the tx type ID');
  if (chain === 'C') {
    const networkID = r.u32('networkID');
    const blockchainID = r.fixed(ID, 'blockchainID');
    if (t === TYPE_IDS.C.ImportTx) {
      const sourceChain = r.fixed(ID, 'sourceChain');
      const importedInputs = inputs('C', r, 'importedInputs');
      const outs: EvmOutput[] = r.list('EVM outputs', (rr) => ({
        address: rr.fixed(SHORT_ID, 'an EVM address'),
        amount: rr.u64('an EVM output amount'),
        assetID: rr.fixed(ID, 'an asset ID'),
      }));
      for (let i = 1; i < outs.length; i++) rule(compareEvm(outs[i - 1] as EvmOutput, outs[i] as EvmOutput) < 0, 'EVM outputs not sorted and unique');
      rule(importedInputs.length > 0, 'tx has no imported inputs');
      rule(outs.length > 0, 'tx has no EVM outputs');
      return { chain, kind: 'import', networkID, blockchainID, sourceChain, importedInputs, outputs: outs };
    }
    if (t === TYPE_IDS.C.ExportTx) {
      const destinationChain = r.fixed(ID, 'destinationChain');
      const ins: EvmInput[] = r.list('EVM inputs', (rr) => ({
        address: rr.fixed(SHORT_ID, 'an EVM address'),
        amount: rr.u64('an EVM input amount'),
        assetID: rr.fixed(ID, 'an asset ID'),
        nonce: rr.u64('a nonce'),
      }));
      for (let i = 1; i < ins.length; i++) rule(compareEvm(ins[i - 1] as EvmInput, ins[i] as EvmInput) < 0, 'EVM inputs not sorted and unique');
      rule(ins.length > 0, 'tx has no EVM inputs');
      const exportedOutputs = outputs('C', r, 'exportedOutputs');
      rule(exportedOutputs.length > 0, 'no export outputs');
      return { chain, kind: 'export', networkID, blockchainID, destinationChain, inputs: ins, exportedOutputs };
    }
    return fail(`unexpected C-chain atomic tx type ID ${t}`);
  }
  if (chain === 'X') {
    switch (t) {
      case TYPE_IDS.X.BaseTx:
        return { chain, kind: 'base', ...base(chain, r) };
      case TYPE_IDS.X.CreateAssetTx: {
        const b = base(chain, r);
        const name = r.str('name');
        const symbol = r.str('symbol');
        const denomination = r.u8('denomination');
        const states: InitialState[] = r.list('initial states', (rr) => ({
          fxIndex: rr.u32('fxIndex'),
          outputs: rr.list('initial state outputs', (r3) => output('X', r3, true)),
        }));
        // avm CreateAssetTx.SyntacticVerify / InitialState.Verify: states sorted and unique by fx index,
        // each state's outputs sorted by their codec bytes.
        for (let i = 1; i < states.length; i++) {
          rule((states[i - 1] as InitialState).fxIndex < (states[i] as InitialState).fxIndex, 'initial states not sorted and unique');
        }
        for (const st of states) {
          const enc = st.outputs.map((o) => encodeTransferableOut('X', o as TransferableOut));
          for (let i = 1; i < enc.length; i++) rule(compareBytes(enc[i - 1] as Uint8Array, enc[i] as Uint8Array) < 0, 'outputs not sorted');
        }
        rule(denomination <= 32, 'denomination is too large (at most 32)');
        return { chain, kind: 'createAsset', ...b, name, symbol, denomination, states };
      }
      case TYPE_IDS.X.ImportTx: {
        const b = base(chain, r);
        const sourceChain = r.fixed(ID, 'sourceChain');
        const importedInputs = inputs(chain, r, 'importedInputs');
        rule(importedInputs.length > 0, 'tx has no imported inputs');
        return { chain, kind: 'import', ...b, sourceChain, importedInputs };
      }
      case TYPE_IDS.X.ExportTx: {
        const b = base(chain, r);
        const destinationChain = r.fixed(ID, 'destinationChain');
        const exportedOutputs = outputs(chain, r, 'exportedOutputs');
        rule(exportedOutputs.length > 0, 'no export outputs');
        return { chain, kind: 'export', ...b, destinationChain, exportedOutputs };
      }
      default:
        return fail(`unexpected X-chain tx type ID ${t}`);
    }
  }
  switch (t) {
    case TYPE_IDS.P.BaseTx:
      return { chain, kind: 'base', ...base(chain, r) };
    case TYPE_IDS.P.ImportTx: {
      const b = base(chain, r);
      const sourceChain = r.fixed(ID, 'sourceChain');
      const importedInputs = inputs(chain, r, 'importedInputs');
      rule(importedInputs.length > 0, 'tx has no imported inputs');
      return { chain, kind: 'import', ...b, sourceChain, importedInputs };
    }
    case TYPE_IDS.P.ExportTx: {
      const b = base(chain, r);
      const destinationChain = r.fixed(ID, 'destinationChain');
      const exportedOutputs = outputs(chain, r, 'exportedOutputs');
      rule(exportedOutputs.length > 0, 'no export outputs');
      return { chain, kind: 'export', ...b, destinationChain, exportedOutputs };
    }
    case TYPE_IDS.P.DepositTx: {
      let upgradeVersion: 0 | 1 = 0;
      const probe = r.peekU64();
      if (probe !== undefined && (probe & UPGRADE_PREFIX) === UPGRADE_PREFIX) {
        r.u64('the upgrade version');
        const v = Number(probe & 0xffffn);
        if (v > MAX_UPGRADE_VERSION) fail(`incompatible upgrade version: ${v}`);
        upgradeVersion = v as 0 | 1;
      }
      const b = base(chain, r);
      const depositOfferID = r.fixed(ID, 'depositOfferID');
      const depositDuration = r.u32('depositDuration');
      const ot = r.u32('the rewards owner type ID');
      if (ot !== TYPE_IDS.P.OutputOwners) fail(`rewardsOwner: expected OutputOwners (type ${TYPE_IDS.P.OutputOwners}), got type ${ot}`);
      const rewardsOwner = owners(r);
      if (upgradeVersion === 0) return { chain, kind: 'deposit', upgradeVersion, ...b, depositOfferID, depositDuration, rewardsOwner };
      const depositCreatorAddress = r.fixed(SHORT_ID, 'depositCreatorAddress');
      const depositCreatorAuth = auth(r, 'depositCreatorAuth');
      const depositOfferOwnerAuth = auth(r, 'depositOfferOwnerAuth');
      return {
        chain,
        kind: 'deposit',
        upgradeVersion,
        ...b,
        depositOfferID,
        depositDuration,
        rewardsOwner,
        depositCreatorAddress,
        depositCreatorAuth,
        depositOfferOwnerAuth,
      };
    }
    case TYPE_IDS.P.UnlockDepositTx:
      return { chain, kind: 'unlockDeposit', ...base(chain, r) };
    case TYPE_IDS.P.ClaimTx: {
      const b = base(chain, r);
      const claimables: ClaimAmount[] = r.list('claimables', (rr) => ({
        id: rr.fixed(ID, 'a claimable ID'),
        type: rr.u64('a claim type'),
        amount: rr.u64('a claim amount'),
        ownerAuth: auth(rr, 'a claimable ownerAuth'),
      }));
      // txs.ClaimTx.SyntacticVerify.
      rule(claimables.length > 0, 'no deposit txs with rewards or claimables to claim');
      const seen = new Set<string>();
      for (const c of claimables) {
        rule(c.amount !== 0n, 'zero claimed amount');
        rule(c.type <= CLAIM_TYPES.activeDepositReward, 'wrong claim type');
        const key = Buffer.from(c.id).toString('hex');
        rule(!seen.has(key), 'non-unique deposit tx id or claimable owner id');
        seen.add(key);
      }
      return { chain, kind: 'claim', ...b, claimables };
    }
    default:
      return fail(`unexpected P-chain tx type ID ${t}`);
  }
}

function guardSize(bytes: Uint8Array): void {
  if (!(bytes instanceof Uint8Array)) fail('expected bytes');
  if (bytes.length > MAX_CODEC_BYTES) fail(`${bytes.length} bytes exceed the codec's maximum of ${MAX_CODEC_BYTES}`);
}

/** Unsigned tx bytes (as built, before credentials) back to the tx; every byte must be used. */
export function decodeUnsignedTx(chain: TxChain, bytes: Uint8Array, opts: DecodeOptions = {}): UnsignedTx {
  checkChain(chain);
  guardSize(bytes);
  return withVerify(opts.verify, () => {
    const r = new Reader(bytes);
    const tx = unsignedBody(chain, r);
    r.end('unsigned tx');
    return tx;
  });
}

function credentials(chain: TxChain, r: Reader): Credential[] {
  return r.list('credentials', (rr) => {
    const t = rr.u32('a credential type ID');
    if (t !== TYPE_IDS[chain].Credential) fail(`unexpected ${chain}-chain credential type ID ${t} (only secp256k1fx credentials, type 9, are read)`);
    return { signatures: rr.list('signatures', (r3) => r3.fixed(SIGNATURE, 'a signature')) };
  });
}

/** Signed tx bytes (what `issueTx` carries): the tx, its credentials, its ID and the hash every credential signs. */
export function decodeSignedTx(chain: TxChain, bytes: Uint8Array, opts: DecodeOptions = {}): DecodedSignedTx {
  checkChain(chain);
  guardSize(bytes);
  const r = new Reader(bytes);
  const unsigned = withVerify(opts.verify, () => unsignedBody(chain, r));
  const unsignedLength = r.offset;
  const creds = credentials(chain, r);
  r.end('signed tx');
  const unsignedBytes = bytes.slice(0, unsignedLength);
  const signedBytes = bytes.slice();
  return { tx: { unsigned, credentials: creds }, unsignedBytes, signedBytes, txID: txIdOf(signedBytes), unsignedHash: sha256(unsignedBytes) };
}

/** One UTXO's bytes (codec version + UTXO ID + asset + output). */
export function decodeUtxo(chain: TxChain, bytes: Uint8Array, opts: DecodeOptions = {}): Utxo {
  checkChain(chain);
  guardSize(bytes);
  return withVerify(opts.verify, () => {
    const r = new Reader(bytes);
    version(r);
    const txID = r.fixed(ID, 'a UTXO tx ID');
    const outputIndex = r.u32('an output index');
    const assetID = r.fixed(ID, 'an asset ID');
    const out = output(chain, r, true);
    r.end('UTXO');
    return { txID, outputIndex, assetID, output: out };
  });
}

/** One UTXO as `getUTXOs` returns it with `encoding: "hex"` (0x + bytes + 4-byte checksum). */
export function decodeUtxoHex(chain: TxChain, hex: string): Utxo {
  return decodeUtxo(chain, hexChecksumDecode(hex));
}

/** A `getUTXOs` page decoded one by one: what decodes, and what does not with why (a fx this codec does not read). */
export interface DecodedUtxoList {
  utxos: Utxo[];
  undecodable: { index: number; reason: string }[];
}

/**
 * Decodes each hex UTXO of a `getUTXOs` reply; one the codec cannot read (a property-fx output, say) is listed
 * in `undecodable` instead of failing the whole page, so a builder can still spend the rest.
 */
export function decodeUtxoHexList(chain: TxChain, hexes: readonly string[]): DecodedUtxoList {
  const out: DecodedUtxoList = { utxos: [], undecodable: [] };
  hexes.forEach((hex, index) => {
    try {
      out.utxos.push(decodeUtxoHex(chain, hex));
    } catch (err) {
      out.undecodable.push({ index, reason: err instanceof Error ? err.message : String(err) });
    }
  });
  return out;
}
