import { keccak_256 } from '@noble/hashes/sha3.js';
import { cb58Encode, parseCb58Id } from '../../codec/index.js';
import { type Asset, bareAddress, type CBlock, type Chain, type CTransaction, type DevnetState, sha256, type Tx, type Utxo } from '../state/index.js';

/**
 * The indexer's records (spec document 3, "Indexer records"), computed on every request
 * from the shared network model, so the indexer never disagrees with the node. Addresses
 * in responses carry no chain prefix; times are RFC 3339; amounts are decimal strings.
 */

export type Json = Record<string, unknown>;

const CHAINS: Chain[] = ['X', 'P', 'C'];
const VM: Record<Chain, string> = { X: 'avm', P: 'pvm', C: 'evm' };
const MAGELLAN_VM: Record<Chain, string> = { X: 'avm', P: 'pvm', C: 'cvm' };
const SECP_TRANSFER_OUTPUT = 7;
const NFT_TRANSFER_OUTPUT = 11;

export function rfc3339(unix: number): string {
  return new Date(unix * 1000).toISOString().replace('.000Z', 'Z');
}

export function chainOf(state: DevnetState, chainID: string): Chain | undefined {
  return CHAINS.find((c) => state.chains[c] === chainID);
}

/**
 * One chain of GET /v2. The spec names the native asset `nativeAssetID`; Magellan sends
 * `avaxAssetID`, lower-case aliases and VM names avm/pvm/cvm (magellan models/collections.go, api/v2.go).
 */
function chainRecord(state: DevnetState, c: Chain, camino: boolean): Json {
  if (!camino) return { chainID: state.chains[c], chainAlias: c, vm: VM[c], nativeAssetID: state.nativeAssetID, networkID: state.networkID };
  return { chainID: state.chains[c], chainAlias: c.toLowerCase(), vm: MAGELLAN_VM[c], avaxAssetID: state.nativeAssetID, networkID: state.networkID };
}

export function status(state: DevnetState, camino = false): Json {
  const chains: Json = {};
  for (const c of CHAINS) chains[state.chains[c]] = chainRecord(state, c, camino);
  return { network_id: state.networkID, chains };
}

export function legacyX(state: DevnetState, camino = false): Json {
  return chainRecord(state, 'X', camino);
}

/** Transactions the indexer has seen: accepted ones only. */
export function indexedTxs(state: DevnetState): Tx[] {
  return [...state.txs.values()].filter((t) => t.status === 'Accepted');
}

export function outputRecord(state: DevnetState, u: Utxo): Json {
  const tx = state.txs.get(u.txID);
  return {
    id: u.id,
    transactionID: u.txID,
    outputIndex: u.outputIndex,
    assetID: u.assetID,
    outputType: u.groupID !== undefined ? NFT_TRANSFER_OUTPUT : SECP_TRANSFER_OUTPUT,
    amount: u.amount.toString(),
    locktime: Number(u.locktime),
    threshold: u.threshold,
    addresses: u.addresses.map(bareAddress),
    timestamp: rfc3339(tx?.timestamp ?? u.timestamp),
    redeemingTransactionID: u.spentBy ?? '',
    chainID: state.chains[u.chain],
  };
}

function hexToBase64(hex: string): string {
  return Buffer.from(hex.replace(/^0x/, ''), 'hex').toString('base64');
}

function totals(items: Array<{ assetID: string; amount: bigint }>): Record<string, string> {
  const sums = new Map<string, bigint>();
  for (const i of items) sums.set(i.assetID, (sums.get(i.assetID) ?? 0n) + i.amount);
  return Object.fromEntries([...sums].map(([k, v]) => [k, v.toString()]));
}

export function txOutputs(state: DevnetState, tx: Tx): Utxo[] {
  return tx.outputs.map((id) => state.utxos.get(id)).filter((u): u is Utxo => u !== undefined);
}

/** go-ethereum's common.Address String(): the EIP-55 mixed-case form. */
function eip55(address: string): string {
  const lower = address.replace(/^0x/i, '').toLowerCase();
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(lower))).toString('hex');
  return `0x${[...lower].map((c, i) => (Number.parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c)).join('')}`;
}

/** avalanchego ids.ID.Prefix(idx): sha256 of the index (uint64, big-endian) followed by the ID's bytes. */
function prefixedId(txID: string, idx: number): string {
  const bytes = new Uint8Array(40);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(idx));
  bytes.set(parseCb58Id(txID), 8);
  return cb58Encode(sha256(bytes));
}

const ATOMIC_EXPORT_OUTPUT = 0xfffffff1;
const ATOMIC_IMPORT_OUTPUT = 0xfffffff2;

/**
 * One EVM input of a C export or one 0x credit of a C import as Magellan lists it among the
 * transaction's inputs or outputs: a cvm_addresses row mapped to an output (magellan
 * services/indexes/avax/reader_list_txs.go `collectCvmTransactions`, `mapOutput`; the row from
 * services/indexes/cvm/writer.go `insertAddress`): the 0x address in `caddresses` (EIP-55),
 * `addresses` null, threshold 0, the output type naming the transaction's kind.
 */
function cvmRecord(state: DevnetState, tx: Tx, row: Record<string, unknown>, idx: number, camino: boolean): Json {
  return {
    id: prefixedId(tx.id, idx),
    transactionID: tx.id,
    outputIndex: idx,
    assetID: String(row.assetID),
    stake: false,
    frozen: false,
    stakeableout: false,
    genesisutxo: false,
    outputType: tx.type === 'export' ? ATOMIC_EXPORT_OUTPUT : ATOMIC_IMPORT_OUTPUT,
    amount: String(row.amount),
    locktime: 0,
    stakeLocktime: 0,
    threshold: 0,
    // Go's nil slice; a spec node lists no X/P owners as an empty list (spec: `addresses []string`).
    addresses: camino ? null : [],
    caddresses: [eip55(String(row.address))],
    timestamp: rfc3339(tx.timestamp),
    redeemingTransactionID: '',
    chainID: state.chains.C,
    inChainID: '',
    outChainID: '',
    groupID: 0,
    payload: null,
    block: String(tx.blockHeight ?? 0),
    nonce: Number(row.nonce ?? 0),
    rewardUtxo: false,
  };
}

const rows = (v: unknown): Array<Record<string, unknown>> => (Array.isArray(v) ? (v as Array<Record<string, unknown>>) : []);

export function transactionRecord(state: DevnetState, tx: Tx, camino: boolean): Json {
  const outputs = txOutputs(state, tx);
  // A C-Chain atomic transaction: Magellan's avm_transactions row typed by the cvm writer, its EVM
  // side from cvm_addresses (services/indexes/cvm/writer.go `indexTransaction`), totals of the X/P side only.
  const atomicC = tx.chain === 'C' && (tx.type === 'export' || tx.type === 'import');
  const evmIns = atomicC && tx.type === 'export' ? rows(tx.details?.ins).map((r, n) => ({ output: cvmRecord(state, tx, r, n, camino), credentials: camino ? null : [] })) : [];
  const evmOuts = atomicC && tx.type === 'import' ? rows(tx.details?.outs).map((r, n) => cvmRecord(state, tx, r, n, camino)) : [];
  const inputTotals = totals(tx.inputs);
  const outputTotals = totals(outputs);
  return {
    id: tx.id,
    chainID: state.chains[tx.chain],
    type: atomicC ? `atomic_${tx.type}_tx` : tx.type,
    inputs: [
      ...tx.inputs.map((i) => {
        const u = state.utxos.get(i.utxoID);
        const output = u ? outputRecord(state, u) : { id: i.utxoID, transactionID: i.txID, outputIndex: i.outputIndex, assetID: i.assetID, amount: i.amount.toString(), addresses: i.addresses.map(bareAddress) };
        return {
          output,
          credentials: i.addresses.map((a) => ({
            address: bareAddress(a),
            public_key: Buffer.from(sha256(`pub:${bareAddress(a)}`)).toString('base64'),
            signature: Buffer.from(sha256(`sig:${i.utxoID}`)).toString('base64'),
          })),
        };
      }),
      ...evmIns,
    ],
    outputs: [...outputs.map((u) => outputRecord(state, u)), ...evmOuts],
    memo: hexToBase64(tx.memo),
    // Go's omitempty: Magellan leaves an empty map of totals out (models/avax.go `Transaction`).
    ...(camino && atomicC && Object.keys(inputTotals).length === 0 ? {} : { inputTotals }),
    ...(camino && atomicC && Object.keys(outputTotals).length === 0 ? {} : { outputTotals }),
    reusedAddressTotals: null,
    timestamp: rfc3339(tx.timestamp),
    txFee: Number(tx.fee),
    genesis: false,
  };
}

/** Addresses (bare) a transaction touches: owners of its inputs and outputs. */
export function txAddresses(state: DevnetState, tx: Tx): Set<string> {
  const set = new Set<string>();
  for (const i of tx.inputs) for (const a of i.addresses) set.add(bareAddress(a));
  for (const u of txOutputs(state, tx)) for (const a of u.addresses) set.add(bareAddress(a));
  return set;
}

export function txAssets(state: DevnetState, tx: Tx): Set<string> {
  return new Set([...tx.inputs.map((i) => i.assetID), ...txOutputs(state, tx).map((u) => u.assetID)]);
}

/** Address record: per asset, unspent balance, totals received and sent, counts. */
export function addressRecord(state: DevnetState, bare: string, chains?: Set<Chain>): Json | undefined {
  const assets = new Map<string, { balance: bigint; received: bigint; sent: bigint; txs: Set<string>; utxos: number }>();
  for (const u of state.utxos.values()) {
    if (!u.addresses.some((a) => bareAddress(a) === bare)) continue;
    if (chains && !chains.has(u.chain)) continue;
    const entry = assets.get(u.assetID) ?? { balance: 0n, received: 0n, sent: 0n, txs: new Set<string>(), utxos: 0 };
    entry.received += u.amount;
    entry.txs.add(u.txID);
    if (u.spentBy) {
      entry.sent += u.amount;
      entry.txs.add(u.spentBy);
    } else {
      entry.balance += u.amount;
      entry.utxos += 1;
    }
    assets.set(u.assetID, entry);
  }
  if (assets.size === 0) return undefined;
  const spentSomething = [...assets.values()].some((a) => a.sent > 0n);
  return {
    address: bare,
    publicKey: spentSomething ? Buffer.from(sha256(`pub:${bare}`)).toString('base64') : null,
    assets: Object.fromEntries(
      [...assets].map(([id, a]) => [
        id,
        {
          id,
          transactionCount: a.txs.size,
          utxoCount: a.utxos,
          balance: a.balance.toString(),
          totalReceived: a.received.toString(),
          totalSent: a.sent.toString(),
        },
      ]),
    ),
  };
}

/** Every bare address the indexer has seen in an output. */
export function knownAddresses(state: DevnetState): string[] {
  const set = new Set<string>();
  for (const u of state.utxos.values()) for (const a of u.addresses) set.add(bareAddress(a));
  return [...set].sort();
}

export function addressChains(state: DevnetState, bare: string): string[] {
  const chains = new Set<Chain>();
  for (const u of state.utxos.values()) if (u.addresses.some((a) => bareAddress(a) === bare)) chains.add(u.chain);
  return CHAINS.filter((c) => chains.has(c)).map((c) => state.chains[c]);
}

export function assetRecord(state: DevnetState, a: Asset): Json {
  const supply = a.kind === 'native' && a.supply === 0n ? state.supply : a.supply;
  return {
    id: a.id,
    chainID: state.chains.X,
    name: a.name,
    symbol: a.symbol,
    alias: a.alias ?? '',
    currentSupply: supply.toString(),
    timestamp: rfc3339(a.timestamp),
    denomination: a.denomination,
    variableCap: a.kind === 'variableCap' ? 1 : 0,
    nft: a.kind === 'nft' ? 1 : 0,
  };
}

const hex = (n: bigint | number): string => `0x${n.toString(16)}`;

export function cTransactionRecord(block: CBlock, t: CTransaction): Json {
  return {
    type: 2,
    block: String(block.number),
    hash: t.hash,
    createdAt: rfc3339(block.timestamp),
    nonce: t.nonce,
    gasPrice: t.gasPrice.toString(),
    maxFeePerGas: t.maxFeePerGas.toString(),
    maxPriorityFeePerGas: t.maxPriorityFeePerGas.toString(),
    gasLimit: Number(t.gasLimit),
    value: t.value.toString(),
    input: t.input,
    fromAddr: t.from,
    toAddr: t.to ?? '',
    v: '0x1',
    r: `0x${Buffer.from(sha256(`r:${t.hash}`)).toString('hex')}`,
    s: `0x${Buffer.from(sha256(`s:${t.hash}`)).toString('hex')}`,
    receipt: {
      root: '0x',
      status: t.status,
      cumulativeGasUsed: hex(block.transactions.slice(0, t.index + 1).reduce((s, x) => s + x.gasUsed, 0n)),
      logsBloom: `0x${'00'.repeat(256)}`,
      logs: t.logs.map((l) => ({
        address: l.address,
        topics: l.topics,
        data: l.data,
        blockNumber: hex(block.number),
        transactionHash: t.hash,
        transactionIndex: hex(t.index),
        blockHash: block.hash,
        logIndex: hex(l.logIndex),
        removed: false,
      })),
      type: '0x2',
      transactionHash: t.hash,
      contractAddress: t.contractAddress ?? '0x0000000000000000000000000000000000000000',
      transactionIndex: hex(t.index),
      gasUsed: hex(t.gasUsed),
      blockHash: block.hash,
      blockNumber: hex(block.number),
      effectiveGasPrice: hex(t.gasPrice),
    },
  };
}

/** `/v2/ctxdata/<n>`: header fields as the EVM encodes them (hex quantities). */
export function cBlockRecord(block: CBlock): Json {
  return {
    hash: block.hash,
    header: {
      parentHash: block.parentHash,
      sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
      miner: block.miner,
      stateRoot: `0x${Buffer.from(sha256(`state:${block.number}`)).toString('hex')}`,
      transactionsRoot: `0x${Buffer.from(sha256(`txroot:${block.number}`)).toString('hex')}`,
      receiptsRoot: `0x${Buffer.from(sha256(`receipts:${block.number}`)).toString('hex')}`,
      logsBloom: `0x${'00'.repeat(256)}`,
      difficulty: '0x1',
      number: hex(block.number),
      gasLimit: hex(block.gasLimit),
      gasUsed: hex(block.gasUsed),
      timestamp: hex(block.timestamp),
      extraData: block.extraData,
      mixHash: `0x${'00'.repeat(32)}`,
      nonce: '0x0000000000000000',
      extDataHash: `0x${'00'.repeat(32)}`,
      baseFeePerGas: hex(block.baseFeePerGas),
      extDataGasUsed: '0x0',
      blockGasCost: '0x0',
      hash: block.hash,
    },
    transactions: block.transactions.map((t) => cTransactionRecord(block, t)),
  };
}

/** Item of `/v2/cblocks` `blocks` (shape not shown by the spec; this is the simulator's choice). */
export function cBlockListItem(block: CBlock): Json {
  return {
    number: String(block.number),
    hash: block.hash,
    parentHash: block.parentHash,
    timestamp: block.timestamp,
    miner: block.miner,
    gasLimit: block.gasLimit.toString(),
    gasUsed: block.gasUsed.toString(),
    baseFeePerGas: block.baseFeePerGas.toString(),
    evmTx: block.transactions.length,
    atomicTx: 0,
  };
}
