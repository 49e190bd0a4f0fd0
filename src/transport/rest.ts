import { ChainMcpError } from '../errors.js';
import type { HttpClient } from './http.js';
import { parseNodeJson } from './json.js';

/** Query parameters in order; a repeated key (chainID, address) appears once per value. */
export type QueryPairs = ReadonlyArray<readonly [string, string]>;

export function buildQuery(pairs: QueryPairs): string {
  const search = new URLSearchParams();
  for (const [key, value] of pairs) search.append(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** GET-only JSON client for the indexer. Indexer errors are `{"code": <status>, "message": "..."}`. */
export class RestClient {
  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
    private readonly service: string,
  ) {}

  /** Returns the parsed body; `null` stays `null` (the indexer's answer for an unknown ID). */
  async get(path: string, query: QueryPairs, signal?: AbortSignal): Promise<unknown> {
    const res = await this.http.send({
      method: 'GET',
      url: this.baseUrl + path + buildQuery(query),
      headers: { accept: 'application/json' },
      retry: true,
      signal,
      service: this.service,
      decode: (text) => {
        try {
          return parseNodeJson(text);
        } catch {
          throw new ChainMcpError('malformed', `The ${this.service} answered ${path} with a body that is not JSON.`, {
            hint: `Check that the ${this.service} URL is right.`,
            transient: true,
          });
        }
      },
    });
    const body = res.value;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const { code, message } = body as { code?: unknown; message?: unknown };
      if (typeof code === 'number' && code >= 400 && typeof message === 'string' && Object.keys(body).length <= 3) {
        throw new ChainMcpError(code === 404 ? 'not_found' : 'http_status', `The ${this.service} refused ${path}: ${message}`, {
          ...(code >= 400 && code < 500 ? { hint: 'The request itself was refused: change the argument the message names; retrying it unchanged fails again.' } : {}),
        });
      }
    }
    return body;
  }

  /** POST with a JSON body, for the network runner's gateway (never retried). */
  async post(path: string, body: unknown, signal?: AbortSignal): Promise<unknown> {
    const res = await this.http.send({
      method: 'POST',
      url: this.baseUrl + path,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body ?? {}),
      retry: false,
      signal,
      service: this.service,
    });
    try {
      return res.text.trim() ? parseNodeJson(res.text) : {};
    } catch {
      throw new ChainMcpError('malformed', `The ${this.service} answered ${path} with a body that is not JSON.`);
    }
  }
}
