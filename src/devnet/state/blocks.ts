/** P-chain blocks and C-chain (EVM) blocks: appending them moves heights, wei and nonces. */
import { hexAddressFor, hexHashFor, registeredId } from './ids.js';
import type { CBlock, CLog, CTransaction, DevnetState, PBlock } from './types.js';

export function addPBlock(state: DevnetState, txIDs: string[], timestamp = state.now()): PBlock {
  const parent = state.pBlocks[state.pBlocks.length - 1];
  const height = state.pBlocks.length;
  const block: PBlock = {
    id: registeredId(`pblock:${height}:${txIDs.join(',')}`),
    parentID: parent?.id ?? registeredId('pblock:genesis-parent'),
    height,
    timestamp,
    txIDs,
  };
  state.pBlocks.push(block);
  return block;
}

/** Height of the last accepted P-chain block. */
export function pHeight(state: DevnetState): number {
  return state.pBlocks.length - 1;
}

export interface NewCTx {
  from: string;
  to: string | null;
  value: bigint;
  input?: string;
  gasLimit?: bigint;
  gasUsed?: bigint;
  status?: 1 | 0;
  logs?: Array<Omit<CLog, 'logIndex'>>;
  /** A signed transaction's own hash (keccak256 of its bytes) and the price it pays per gas. */
  hash?: string;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
}

/** Appends a C-chain block with the given EVM transactions; moves wei and nonces. */
export function addCBlock(state: DevnetState, txs: NewCTx[], timestamp = state.now()): CBlock {
  const parent = state.cBlocks[state.cBlocks.length - 1];
  const number = state.cBlocks.length;
  let logIndex = 0;
  const transactions: CTransaction[] = txs.map((t, index) => {
    const from = t.from.toLowerCase();
    const nonce = state.cNonces.get(from) ?? 0;
    state.cNonces.set(from, nonce + 1);
    const gasUsed = t.gasUsed ?? 21_000n;
    const gasPrice = t.gasPrice ?? state.cBaseFee + state.cPriorityFee;
    const ok = t.status ?? 1;
    const fee = gasUsed * gasPrice;
    state.cBalances.set(from, (state.cBalances.get(from) ?? 0n) - fee - (ok ? t.value : 0n));
    if (ok && t.to) state.cBalances.set(t.to.toLowerCase(), (state.cBalances.get(t.to.toLowerCase()) ?? 0n) + t.value);
    const hash = t.hash ?? hexHashFor(`ctx:${number}:${index}:${from}:${nonce}`);
    return {
      hash,
      blockNumber: number,
      index,
      from,
      to: t.to ? t.to.toLowerCase() : null,
      value: t.value,
      nonce,
      gasPrice,
      maxFeePerGas: t.maxFeePerGas ?? state.cBaseFee * 2n,
      maxPriorityFeePerGas: t.maxPriorityFeePerGas ?? state.cPriorityFee,
      gasLimit: t.gasLimit ?? 21_000n,
      gasUsed,
      input: t.input ?? '0x',
      status: ok,
      contractAddress: t.to ? null : hexAddressFor(`contract:${from}:${nonce}`),
      logs: (t.logs ?? []).map((l) => ({ ...l, logIndex: logIndex++ })),
    };
  });
  const block: CBlock = {
    number,
    hash: hexHashFor(`cblock:${number}`),
    parentHash: parent?.hash ?? `0x${'00'.repeat(32)}`,
    timestamp,
    miner: '0x0100000000000000000000000000000000000000',
    gasLimit: 8_000_000n,
    gasUsed: transactions.reduce((s, t) => s + t.gasUsed, 0n),
    baseFeePerGas: state.cBaseFee,
    extraData: '0x',
    transactions,
  };
  state.cBlocks.push(block);
  for (const listener of state.cBlockListeners) listener(block);
  return block;
}
