import { createRequire } from 'node:module';
import type {
  InitialState,
  OutputOwners,
  SigIndicesAuth,
  TransferableIn,
  TransferableInput,
  TransferableOut,
  TransferableOutput,
  UnsignedTx,
} from '../../src/codec/tx/index.js';

/**
 * The same transactions built with the vendor's own library, @c4tplatform/caminojs 1.4.0 (its low-level
 * classes, never its API client), so the codec is checked byte for byte against it. caminojs is CommonJS
 * and untyped here on purpose: it is a test oracle, not a dependency of the product.
 */

// biome-ignore lint/suspicious/noExplicitAny: the oracle library is loaded untyped.
type Any = any;
const require = createRequire(import.meta.url);
const cj: Any = require('@c4tplatform/caminojs');
const { LockedIDs }: Any = require('@c4tplatform/caminojs/dist/apis/platformvm/locked');
const { SubnetAuth }: Any = require('@c4tplatform/caminojs/dist/apis/platformvm/subnetauth');
const { UnlockDepositTx }: Any = require('@c4tplatform/caminojs/dist/apis/platformvm/unlockdeposittx');
const { ClaimAmount }: Any = require('@c4tplatform/caminojs/dist/apis/platformvm/claimtx');

const B: Any = cj.Buffer;
const buf = (b: Uint8Array): Any => B.from(b);
const bn = (x: bigint | number): Any => new cj.BN(x.toString());
const u32buf = (n: number): Any => {
  const b = B.alloc(4);
  b.writeUInt32BE(n, 0);
  return b;
};

type Vm = 'avm' | 'platformvm' | 'evm';

function secpOut(vm: Vm, amount: bigint, o: OutputOwners): Any {
  return new cj[vm].SECPTransferOutput(bn(amount), o.addresses.map(buf), bn(o.locktime), o.threshold);
}

function out(vm: Vm, o: TransferableOut): Any {
  if (o.kind === 'secp.transfer') return secpOut(vm, o.amount, o.owners);
  if (o.kind === 'locked') {
    const inner = o.output;
    return new cj.platformvm.LockedOut(
      bn(inner.amount),
      inner.owners.addresses.map(buf),
      bn(inner.owners.locktime),
      inner.owners.threshold,
      new LockedIDs(buf(o.lockIDs.depositTxID), buf(o.lockIDs.bondTxID)),
    );
  }
  throw new Error(`no caminojs mapping for ${o.kind}`);
}

function secpIn(vm: Vm, amount: bigint, sigIndices: number[]): Any {
  const i = new cj[vm].SECPTransferInput(bn(amount));
  for (const s of sigIndices) i.addSignatureIdx(s, B.alloc(20));
  return i;
}

function inp(vm: Vm, i: TransferableIn): Any {
  if (i.kind === 'secp.transfer') return secpIn(vm, i.amount, i.sigIndices);
  const locked = new cj.platformvm.LockedIn(bn(i.input.amount));
  for (const s of i.input.sigIndices) locked.addSignatureIdx(s, B.alloc(20));
  // caminojs keeps the lock IDs in a protected field with no setter.
  locked.ids = new LockedIDs(buf(i.lockIDs.depositTxID), buf(i.lockIDs.bondTxID));
  return locked;
}

const touts = (vm: Vm, list: TransferableOutput[]) => list.map((o) => new cj[vm].TransferableOutput(buf(o.assetID), out(vm, o.output)));
const tins = (vm: Vm, list: TransferableInput[]) =>
  list.map((i) => new cj[vm].TransferableInput(buf(i.txID), u32buf(i.outputIndex), buf(i.assetID), inp(vm, i.input)));

function auth(a: SigIndicesAuth | undefined): Any {
  const sa = new SubnetAuth();
  sa.setAddressIndices((a?.sigIndices ?? []).map(u32buf));
  return sa;
}

function initialStates(states: InitialState[]): Any {
  const is = new cj.avm.InitialStates();
  for (const st of states) {
    for (const o of st.outputs) {
      if (o.kind !== 'secp.transfer') throw new Error('only secp outputs are mapped in initial states');
      is.addOutput(secpOut('avm', o.amount, o.owners), st.fxIndex);
    }
  }
  return is;
}

/** The unsigned bytes caminojs writes for the same tx (codec version + type ID + body). */
export function caminojsUnsignedBytes(tx: UnsignedTx): Uint8Array {
  let inner: Any;
  let vm: Vm;
  if (tx.chain === 'C') {
    vm = 'evm';
    if (tx.kind === 'import') {
      const outs = tx.outputs.map((o) => new cj.evm.EVMOutput(buf(o.address), bn(o.amount), buf(o.assetID)));
      inner = new cj.evm.ImportTx(tx.networkID, buf(tx.blockchainID), buf(tx.sourceChain), tins('evm', tx.importedInputs), outs, bn(0));
    } else {
      const ins = tx.inputs.map((i) => new cj.evm.EVMInput(buf(i.address), bn(i.amount), buf(i.assetID), bn(i.nonce)));
      inner = new cj.evm.ExportTx(tx.networkID, buf(tx.blockchainID), buf(tx.destinationChain), ins, touts('evm', tx.exportedOutputs));
    }
  } else {
    vm = tx.chain === 'X' ? 'avm' : 'platformvm';
    const args = [tx.networkID, buf(tx.blockchainID), touts(vm, tx.outputs), tins(vm, tx.inputs), buf(tx.memo)] as const;
    switch (tx.kind) {
      case 'base':
        inner = new cj[vm].BaseTx(...args);
        break;
      case 'createAsset':
        inner = new cj.avm.CreateAssetTx(...args, tx.name, tx.symbol, tx.denomination, initialStates(tx.states));
        break;
      case 'import':
        inner = new cj[vm].ImportTx(...args, buf(tx.sourceChain), tins(vm, tx.importedInputs));
        break;
      case 'export':
        inner = new cj[vm].ExportTx(...args, buf(tx.destinationChain), touts(vm, tx.exportedOutputs));
        break;
      case 'deposit': {
        const owner = new cj.platformvm.ParseableOutput(
          new cj.platformvm.SECPOwnerOutput(tx.rewardsOwner.addresses.map(buf), bn(tx.rewardsOwner.locktime), tx.rewardsOwner.threshold),
        );
        inner = new cj.platformvm.DepositTx(
          tx.upgradeVersion,
          ...args,
          buf(tx.depositOfferID),
          tx.depositDuration,
          owner,
          tx.upgradeVersion === 1 ? buf(tx.depositCreatorAddress as Uint8Array) : undefined,
        );
        if (tx.upgradeVersion === 1) {
          inner.depositCreatorAuth = auth(tx.depositCreatorAuth);
          inner.ownerAuth = auth(tx.depositOfferOwnerAuth);
        }
        break;
      }
      case 'unlockDeposit':
        inner = new UnlockDepositTx(...args);
        break;
      case 'claim':
        inner = new cj.platformvm.ClaimTx(
          ...args,
          tx.claimables.map((c) => new ClaimAmount(buf(c.id), Number(c.type), bn(c.amount), c.ownerAuth.sigIndices.map(u32buf))),
        );
        break;
      default:
        throw new Error('unmapped tx kind');
    }
  }
  return new Uint8Array(new cj[vm].UnsignedTx(inner).toBuffer());
}

/** caminojs parses bytes into its classes and writes them back. */
export function caminojsReparse(chain: 'X' | 'P' | 'C', bytes: Uint8Array): Uint8Array {
  const vm: Vm = chain === 'X' ? 'avm' : chain === 'P' ? 'platformvm' : 'evm';
  const u = new cj[vm].UnsignedTx();
  u.fromBuffer(buf(bytes));
  return new Uint8Array(u.toBuffer());
}

/** caminojs parses one UTXO's bytes into its UTXO class and writes them back. */
export function caminojsReparseUtxo(chain: 'X' | 'P', bytes: Uint8Array): Uint8Array {
  const u = new cj[chain === 'X' ? 'avm' : 'platformvm'].UTXO();
  u.fromBuffer(buf(bytes));
  return new Uint8Array(u.toBuffer());
}

/** What caminojs's EVMInput.getNonce() answers after parsing a C export's bytes. */
export function caminojsParsedNonces(bytes: Uint8Array): string[] {
  const u = new cj.evm.UnsignedTx();
  u.fromBuffer(buf(bytes));
  return u
    .getTransaction()
    .getInputs()
    .map((i: Any) => i.getNonce().toString());
}

/** The threshold caminojs writes for an owner built with threshold 0. */
export function caminojsWrittenThreshold(addresses: Uint8Array[]): number {
  const out = new cj.avm.SECPTransferOutput(bn(1n), addresses.map(buf), bn(0n), 0);
  return out.getThreshold();
}
