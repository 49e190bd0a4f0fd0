import { CARD_TOOL_LISTING, CARD_URI } from '../approval/card.js';
import type { ToolListing } from '../registry/listing.js';
import { viewFor } from './views.js';

/**
 * tools/list as an MCP Apps host receives it: spend tools name the approval card and the tools
 * with a picture worth showing name their view (how a host finds a tool's view), and, when the
 * card is on, the card's app-only tool is listed with visibility `["app"]` (a host keeps it from
 * the model and forwards the card's calls to it). Hosts without MCP Apps get the plain listing.
 */
export function appsListing(listing: readonly ToolListing[], confirms: (name: string) => boolean, cards: boolean): Array<ToolListing | typeof CARD_TOOL_LISTING> {
  const uriOf = (name: string) => (cards && confirms(name) ? CARD_URI : viewFor(name)?.uri);
  const tools = listing.map((t) => {
    const uri = uriOf(t.name);
    return uri ? { ...t, _meta: { ui: { resourceUri: uri } } } : t;
  });
  return cards ? [...tools, CARD_TOOL_LISTING] : tools;
}
