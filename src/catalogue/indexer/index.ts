/**
 * Indexer API (spec document 3, "Indexer API"): read-only GET queries on CHAIN_MCP_INDEXER_URL.
 *
 * Choices where the spec leaves room (also in the README):
 * - The tools stay listed when CHAIN_MCP_INDEXER_URL is unset; a call then answers with an
 *   error saying which variable to set. A model that sees the tool can tell the user how to
 *   enable it, which a hidden tool cannot.
 * - Times (`startTime`, `endTime`) are accepted as Unix seconds or RFC 3339 and always sent
 *   as Unix seconds (one of the two forms the spec's `datetime` allows).
 * - Addresses may carry a chain prefix (X-, P-, C-) or not; the checksum is checked and the
 *   prefix stripped before sending, since the indexer ignores it and answers without it.
 * - `limit` defaults to 100 here (always sent), not the indexer's 5000, so one answer fits a chat.
 * - Chain filters take the chain ID or an alias the indexer reports in GET /v2 (X, P, C).
 * - `indexer_getCBlock` without `number` asks GET /v2/ctxdata/latest (any non-number id: the latest block).
 * - `indexer_getAggregates` without `chainID` sends every chain the indexer follows (Magellan requires one).
 * - `/v2/cblocks` gets the block limit and the transaction limit as two `limit` keys, in
 *   that order, and the block range as `blockStart`/`blockEnd` (the parameter table's names).
 */
import type { ToolDef } from '../../core/tool.js';
import { addressChainsTools, assetTools } from './assets.js';
import { cchainTools } from './cchain.js';
import { legacyTools, statusTools } from './status.js';
import { xpTools } from './xp.js';


export const indexerTools: ToolDef[] = [...statusTools, ...addressChainsTools, ...xpTools, ...assetTools, ...cchainTools, ...legacyTools];
