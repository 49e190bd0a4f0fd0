/**
 * The simulator's one in-memory network. Every endpoint family (node JSON-RPC and the
 * indexer) reads and changes this object, so node and indexer tell one consistent story.
 * It is a test double, not a node: it never claims consensus.
 *
 * The model (all IDs are real-looking encodings: cb58 over sha256 of a label, bech32
 * addresses with the network's hrp over 20-byte payloads, node IDs via formatNodeId):
 * - `config`: what platform.getConfiguration answers (durations in nanoseconds, bigint).
 * - `assets`: by asset ID; the native asset (9 decimals, symbol `assetSymbol`), a fixed-cap,
 *   a variable-cap (with minter sets) and an NFT asset. `supply` is what exists now.
 * - `users`: keystore users; each owns keys, and one key gives the same bech32 payload on
 *   X and P (`X-local1...`, `P-local1...`) and a C hex address (`0x...`).
 * - `utxos`: every output ever created, by UTXO ID, spent or not (`spentBy`). `chain` is
 *   where it can be consumed; an atomic UTXO (in shared memory, waiting for an import)
 *   has `sourceChain` = the chain it was exported from. P-chain UTXOs carry a lock state.
 *   Addresses are chain-prefixed (`X-local1...`, `P-...`, `C-...` for atomic UTXOs on C).
 * - `txs`: every X/P/C(atomic) transaction, by ID: inputs (spent UTXO IDs with their
 *   amounts), outputs (UTXO IDs it created, including exported ones), status, block height.
 * - `pBlocks`: platform-chain blocks (height = index); `cBlocks`: contract-chain blocks
 *   with EVM transactions (for the indexer and the devnet's own EVM answers);
 *   `cBalances`: wei per lowercase 0x address; `cNonces`.
 * - `validators` (current, with delegators), `pendingValidators`, `pendingDelegators`,
 *   `subnets`, `blockchains`, `depositOffers`, `addressStates` (bitmask per bare bech32),
 *   `rewardUtxos` (staking tx ID -> reward UTXO IDs), `supply`, height = pBlocks.length-1.
 *
 * Change state only through the functions of ledger.ts and blocks.ts (createUtxo, spendUtxos, addTx,
 * addCBlock, ...) so that balances, transactions and the indexer's views stay consistent.
 * Seed data is deterministic apart from times, which are relative to the creation time.
 */
export * from './blocks.js';
export * from './deposits.js';
export * from './ids.js';
export * from './keys.js';
export * from './ledger.js';
export * from './local-account.js';
export * from './seed.js';
export * from './types.js';
export * from './wire.js';
