/**
 * A node method's own answer (its JSON-RPC `result`), asked directly, as before a test replaces the
 * method; `T` is the shape the test reads (the simulator's answers are plain JSON).
 */
export async function nodeAnswer<T = Record<string, unknown>>(nodeUrl: string, path: string, method: string, params: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${nodeUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: T }).result;
}
