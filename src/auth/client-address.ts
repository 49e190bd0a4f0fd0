import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/**
 * CHAIN_MCP_TRUSTED_PROXIES as a lookup: the addresses and networks (`10.0.0.0/8`, `::1`) whose
 * forwarding headers name the client. Nothing else is trusted: a header from any other peer,
 * loopback included (where the model runs too), is the sender's own word.
 */
export function trustedProxies(entries: readonly string[] | undefined): BlockList | undefined {
  if (!entries?.length) return undefined;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
function plain(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function trusted(list: BlockList, address: string): boolean {
  const type = isIP(address);
  return type !== 0 && list.check(address, type === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The client's address for the unauthenticated rate limit. From a trusted proxy: its `X-Real-IP`
 * (which the proxy sets), else the right-most `X-Forwarded-For` entry that is not itself a trusted
 * proxy (each proxy appends the peer it saw); from anyone else, the socket's peer.
 */
export function clientAddress(req: IncomingMessage, proxies: BlockList | undefined): string {
  const peer = plain(req.socket.remoteAddress ?? 'unknown');
  if (!proxies || !trusted(proxies, peer)) return peer;
  const real = req.headers['x-real-ip'];
  if (typeof real === 'string' && isIP(plain(real.trim())) !== 0) return plain(real.trim());
  const forwarded = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''))
    .split(',')
    .map((hop) => plain(hop.trim()))
    .filter((hop) => isIP(hop) !== 0);
  for (let i = hops.length - 1; i >= 0; i--) if (!trusted(proxies, hops[i]!)) return hops[i]!;
  return hops[0] ?? peer;
}
