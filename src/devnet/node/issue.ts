/**
 * `avm.issueTx`, `platform.issueTx`, `avax.issueTx` as a node runs them (REAL-WIRE.md "Issuing"):
 * decode the signed bytes with the shared codec, check every input against the UTXO it spends
 * (exists, unspent, unlocked, same amount), every credential against that UTXO's owners (recover
 * the public key from each 65-byte signature over sha256 of the unsigned bytes), the fee (less
 * than needed is refused, more is burned, as a node does), then apply the transaction: inputs
 * consumed, outputs created under txID = sha256(signed bytes), exports into shared memory, a C
 * import credited to EVM balances and a C export debited with its nonce bumped.
 */
import { formatCb58Id, formatChainAddress } from '../../codec/index.js';
import {
  atomicFee,
  atomicGas,
  type DecodedSignedTx,
  decodeSignedTx,
  type EvmInput,
  type TransferableInput,
  type TransferableOutput,
  type TxChain,
  type UnsignedTx,
} from '../../codec/tx/index.js';
import { type Params, RpcFault, type RpcRouter, needString } from '../rpc.js';
import { pageUtxos } from './xvm.js';
import { addTx, type Chain, type DevnetState, evmAddressOfPublicKey, type NewUtxo, recoverSigner, sha256, type Utxo } from '../state/index.js';
import { applyCamino, CAMINO_KINDS } from './issue-camino.js';
import { checkCredential, findUtxo, hexOf, Refused } from './issue-verify.js';

const WEI_PER_UNIT = 1_000_000_000n;

/** How each chain's service words a failure (vms/avm/service.go, vms/platformvm/service.go, plugin/evm/service.go). */
const WORDING: Record<TxChain, { decode: string; verify: (why: string) => string }> = {
  X: { decode: 'problem decoding transaction', verify: (why) => why },
  P: { decode: "couldn't parse tx", verify: (why) => `couldn't issue tx: ${why}` },
  C: { decode: 'problem parsing transaction', verify: (why) => why },
};

/** The bytes of `tx` in `encoding` (hex with its checksum, as a Camino node takes them). */
function txBytes(p: Params, chain: TxChain): Uint8Array {
  const text = needString(p, 'tx');
  const encoding = p.encoding ?? 'hex';
  if (encoding !== 'hex') throw new RpcFault(`${WORDING[chain].decode}: unsupported encoding "${String(encoding)}"`);
  if (!/^0x([0-9a-fA-F]{2})*$/.test(text)) throw new RpcFault(`${WORDING[chain].decode}: invalid hex string`);
  const all = Buffer.from(text.slice(2), 'hex');
  if (all.length < 4) throw new RpcFault(`${WORDING[chain].decode}: missing checksum`);
  const body = all.subarray(0, all.length - 4);
  if (!Buffer.from(sha256(body).slice(-4)).equals(all.subarray(all.length - 4))) throw new RpcFault(`${WORDING[chain].decode}: invalid input checksum`);
  return new Uint8Array(body);
}

function letterOfChainId(state: DevnetState, id: Uint8Array): Chain | undefined {
  const cb58 = formatCb58Id(id);
  return (Object.entries(state.chains).find(([, known]) => known === cb58)?.[0] as Chain | undefined) ?? undefined;
}

interface Consumed {
  utxo: Utxo;
  amount: bigint;
}

/** Inputs of an X/P tx or a C import: found, unspent, unlocked (or a matching locked.In), same amount, signed. */
function consume(state: DevnetState, tx: DecodedSignedTx, chain: TxChain, inputs: readonly TransferableInput[], source: Chain | undefined, credOffset: number): Consumed[] {
  const now = BigInt(state.now());
  return inputs.map((input, i) => {
    const u = findUtxo(state, chain, input, source);
    if (!u) {
      const where = source ? state.chains[source] : undefined;
      if (chain === 'C') throw new Refused(`failed to fetch import UTXOs from ${where} due to: not found`);
      if (chain === 'P') throw new Refused(source ? `failed to get UTXO ${formatCb58Id(input.txID)}:${input.outputIndex}: not found` : 'failed to read consumed UTXO: not found');
      throw new Refused('missing utxo');
    }
    const lockedUtxo = u.lock !== 'unlocked' || u.depositTxID !== undefined || u.bondTxID !== undefined;
    if (input.input.kind === 'locked' || lockedUtxo) {
      // Only an UnlockDepositTx may consume deposited outputs (utxo/camino_locked.go).
      throw new Refused("can't spend locked utxo");
    }
    if (u.locktime > now) throw new Refused('failed to verify transfer: output is time locked');
    if (formatCb58Id(input.assetID) !== u.assetID) throw new Refused('failed to verify transfer: asset ID of the input differs from its UTXO');
    if (input.input.amount !== u.amount) throw new Refused('failed to verify transfer: utxo amount and input amount are not equivalent');
    const cred = tx.tx.credentials[credOffset + i];
    if (!cred) throw new Refused(`tx has ${tx.tx.credentials.length} credentials but more inputs; they must be the same`);
    checkCredential(u, input.input.sigIndices, cred.signatures, tx.unsignedHash);
    return { utxo: u, amount: u.amount };
  });
}

/** The outputs a tx creates here and the ones it exports, as the ledger records them. */
function newOutputs(state: DevnetState, chain: Chain, outs: readonly TransferableOutput[], dest: Chain | undefined): NewUtxo[] {
  return outs.map((o) => {
    const out = o.output;
    if (out.kind !== 'secp.transfer') throw new Refused(chain === 'P' ? 'input or output has locks' : 'unsupported output type');
    const letter = dest ?? chain;
    return {
      assetID: formatCb58Id(o.assetID),
      amount: out.amount,
      addresses: out.owners.addresses.map((a) => formatChainAddress(letter, state.hrp, a)),
      chain: letter,
      locktime: out.owners.locktime,
      threshold: out.owners.threshold,
      ...(dest ? { sourceChain: chain } : {}),
    };
  });
}

function produced(outs: readonly NewUtxo[], into: Map<string, bigint>): void {
  for (const o of outs) into.set(o.assetID, (into.get(o.assetID) ?? 0n) + o.amount);
}

/** Less than the fee is refused with the chain's own words; more is accepted and burned. */
function flowCheck(state: DevnetState, chain: TxChain, consumed: Map<string, bigint>, made: Map<string, bigint>, fee: bigint): bigint {
  const native = state.nativeAssetID;
  for (const [asset, out] of made) {
    const need = out + (asset === native ? fee : 0n);
    const have = consumed.get(asset) ?? 0n;
    if (have < need) {
      if (chain === 'P') throw new Refused(`asset ${asset} burned ${have - out} unlocked, but needed to burn ${asset === native ? fee : 0n}: burned less tokens, than needed to`);
      if (chain === 'C') throw new Refused('import tx flow check failed due to: insufficient funds');
      throw new Refused('insufficient funds');
    }
  }
  const burnt = (consumed.get(native) ?? 0n) - (made.get(native) ?? 0n);
  if (!made.has(native) && burnt < fee) {
    if (chain === 'P') throw new Refused(`asset ${native} burned ${burnt} unlocked, but needed to burn ${fee}: burned less tokens, than needed to`);
    if (chain === 'C') throw new Refused('import tx flow check failed due to: insufficient funds');
    throw new Refused('insufficient funds');
  }
  return burnt;
}

function checkHeader(state: DevnetState, chain: TxChain, u: UnsignedTx): void {
  if (u.networkID !== state.networkID) throw new Refused(`tx has wrong network ID: expected ${state.networkID} but got ${u.networkID}`);
  if (formatCb58Id(u.blockchainID) !== state.chains[chain]) throw new Refused('tx has wrong chain ID');
}

/** The C-chain atomic fee the node asks for now (plugin/evm/tx.go calculateDynamicFee). */
export function cAtomicFee(state: DevnetState, unsignedLength: number, signatures: number): bigint {
  return atomicFee(atomicGas(unsignedLength, signatures), state.cBaseFee);
}

function applyXP(state: DevnetState, chain: 'X' | 'P', d: DecodedSignedTx): { txID: string } {
  const u = d.tx.unsigned;
  checkHeader(state, chain, u);
  if (u.chain === 'C') throw new Refused('unexpected C-chain tx');
  if (chain === 'P' && CAMINO_KINDS.has(u.kind)) return applyCamino(state, d);
  if (u.kind !== 'base' && u.kind !== 'import' && u.kind !== 'export') {
    throw new Refused(`this simulator issues only base, import, export, deposit, unlock-deposit and claim transactions (got ${u.kind})`);
  }
  const own = consume(state, d, chain, u.inputs, undefined, 0);
  let source: Chain | undefined;
  let imported: Consumed[] = [];
  if (u.kind === 'import') {
    source = letterOfChainId(state, u.sourceChain);
    if (!source || source === chain) throw new Refused('import from an unknown chain');
    imported = consume(state, d, chain, u.importedInputs, source, u.inputs.length);
  }
  if (d.tx.credentials.length !== own.length + imported.length) {
    throw new Refused(`tx has ${d.tx.credentials.length} credentials but ${own.length + imported.length} inputs; they must be the same`);
  }
  const outs = newOutputs(state, chain, u.outputs, undefined);
  let dest: Chain | undefined;
  let exported: NewUtxo[] = [];
  if (u.kind === 'export') {
    dest = letterOfChainId(state, u.destinationChain);
    if (!dest || dest === chain) throw new Refused('export to an unknown chain');
    exported = newOutputs(state, chain, u.exportedOutputs, dest);
  }
  const consumed = new Map<string, bigint>();
  for (const c of [...own, ...imported]) consumed.set(c.utxo.assetID, (consumed.get(c.utxo.assetID) ?? 0n) + c.amount);
  const made = new Map<string, bigint>();
  produced([...outs, ...exported], made);
  const burnt = flowCheck(state, chain, consumed, made, state.fees.txFee);
  const tx = addTx(state, {
    chain,
    type: u.kind,
    inputs: [...own, ...imported].map((c) => c.utxo.id),
    outputs: [...outs, ...exported],
    memo: `0x${hexOf(u.memo)}`,
    fee: burnt,
    ...(source ? { sourceChain: source } : {}),
    ...(dest ? { destinationChain: dest } : {}),
    id: d.txID,
    bytes: d.signedBytes,
  });
  return { txID: tx.id };
}

function applyC(state: DevnetState, d: DecodedSignedTx): { txID: string } {
  const u = d.tx.unsigned;
  if (u.chain !== 'C') throw new Refused('unexpected X/P tx');
  checkHeader(state, 'C', u);
  const native = state.nativeAssetID;
  if (u.kind === 'import') {
    const source = letterOfChainId(state, u.sourceChain);
    if (!source || source === 'C') throw new Refused('import from an unknown chain');
    const imported = consume(state, d, 'C', u.importedInputs, source, 0);
    if (d.tx.credentials.length !== imported.length) throw new Refused(`tx has ${d.tx.credentials.length} credentials but ${imported.length} inputs; they must be the same`);
    const signatures = u.importedInputs.reduce((n, i) => n + (i.input.kind === 'locked' ? i.input.input : i.input).sigIndices.length, 0);
    const fee = cAtomicFee(state, d.unsignedBytes.length, signatures);
    const consumed = new Map<string, bigint>();
    for (const c of imported) consumed.set(c.utxo.assetID, (consumed.get(c.utxo.assetID) ?? 0n) + c.amount);
    const made = new Map<string, bigint>();
    for (const o of u.outputs) made.set(formatCb58Id(o.assetID), (made.get(formatCb58Id(o.assetID)) ?? 0n) + o.amount);
    const burnt = flowCheck(state, 'C', consumed, made, fee);
    for (const o of u.outputs) {
      if (formatCb58Id(o.assetID) !== native) throw new Refused('this simulator credits only the native asset on C');
      const to = `0x${hexOf(o.address)}`;
      state.cBalances.set(to, (state.cBalances.get(to) ?? 0n) + o.amount * WEI_PER_UNIT);
    }
    const tx = addTx(state, {
      chain: 'C',
      type: 'import',
      inputs: imported.map((c) => c.utxo.id),
      outputs: [],
      sourceChain: source,
      fee: burnt,
      details: { outs: u.outputs.map((o) => ({ address: `0x${hexOf(o.address)}`, amount: o.amount.toString(), assetID: formatCb58Id(o.assetID) })) },
      id: d.txID,
      bytes: d.signedBytes,
    });
    return { txID: tx.id };
  }
  const dest = letterOfChainId(state, u.destinationChain);
  if (!dest || dest === 'C') throw new Refused('export to an unknown chain');
  if (d.tx.credentials.length !== u.inputs.length) throw new Refused(`tx has ${d.tx.credentials.length} credentials but ${u.inputs.length} inputs; they must be the same`);
  u.inputs.forEach((input: EvmInput, i) => {
    const address = `0x${hexOf(input.address)}`;
    const sig = d.tx.credentials[i]!.signatures;
    const pk = sig.length === 1 ? recoverSigner(d.unsignedHash, sig[0]!) : undefined;
    if (!pk || evmAddressOfPublicKey(pk) !== address) throw new Refused(`invalid signature for the EVM input of ${address}`);
    if (formatCb58Id(input.assetID) !== native) throw new Refused('this simulator exports only the native asset from C');
    const nonce = BigInt(state.cNonces.get(address) ?? 0);
    if (input.nonce !== nonce) throw new Refused(`invalid nonce for ${address}: expected ${nonce}, got ${input.nonce}`);
    if ((state.cBalances.get(address) ?? 0n) < input.amount * WEI_PER_UNIT) throw new Refused(`insufficient funds: ${address} cannot pay ${input.amount}`);
  });
  const exported = newOutputs(state, 'C', u.exportedOutputs, dest);
  const consumed = new Map<string, bigint>();
  for (const i of u.inputs) consumed.set(formatCb58Id(i.assetID), (consumed.get(formatCb58Id(i.assetID)) ?? 0n) + i.amount);
  const made = new Map<string, bigint>();
  produced(exported, made);
  const fee = cAtomicFee(state, d.unsignedBytes.length, u.inputs.length);
  const burnt = flowCheck(state, 'C', consumed, made, fee);
  for (const input of u.inputs) {
    const address = `0x${hexOf(input.address)}`;
    state.cBalances.set(address, (state.cBalances.get(address) ?? 0n) - input.amount * WEI_PER_UNIT);
    state.cNonces.set(address, Number(input.nonce) + 1);
  }
  const tx = addTx(state, {
    chain: 'C',
    type: 'export',
    inputs: [],
    outputs: exported,
    destinationChain: dest,
    fee: burnt,
    details: { ins: u.inputs.map((i) => ({ address: `0x${hexOf(i.address)}`, amount: i.amount.toString(), assetID: formatCb58Id(i.assetID), nonce: i.nonce.toString() })) },
    id: d.txID,
    bytes: d.signedBytes,
  });
  return { txID: tx.id };
}

/** The issueTx of one chain: decode, verify, apply; the node's own wording for each refusal. */
export function issueTx(state: DevnetState, p: Params, chain: TxChain): { txID: string } {
  return issueBytes(state, txBytes(p, chain), chain);
}

/**
 * Signed bytes, however they were encoded on the wire: decoded, verified and applied, in either
 * dialect. The answer is always the bytes' own txID (sha256 of them), never a made-up one.
 */
export function issueBytes(state: DevnetState, bytes: Uint8Array, chain: TxChain): { txID: string } {
  let decoded: DecodedSignedTx;
  try {
    decoded = decodeSignedTx(chain, bytes);
  } catch (err) {
    throw new RpcFault(`${WORDING[chain].decode}: ${(err as Error).message}`);
  }
  if (state.txs.has(decoded.txID)) throw new RpcFault(WORDING[chain].verify(`tx ${decoded.txID} already issued`));
  try {
    return chain === 'C' ? applyC(state, decoded) : applyXP(state, chain, decoded);
  } catch (err) {
    if (err instanceof Refused) throw new RpcFault(WORDING[chain].verify(err.message));
    throw err;
  }
}

/**
 * platform.issueTx (/ext/P): the P-chain's only way in for signed bytes; decoded and verified in both
 * dialects. And platform.getUTXOs, which a wallet that builds its own P transactions reads first.
 */
export function registerIssue(router: RpcRouter, state: DevnetState): void {
  router.on('/ext/P', 'platform.issueTx', (p) => issueTx(state, p, 'P')).on('/ext/P', 'platform.getUTXOs', (p) => pageUtxos(state, 'P', p, ['P'], false));
}
