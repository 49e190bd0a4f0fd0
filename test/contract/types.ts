export interface RpcExpectation {
  path: string;
  method: string;
  params?: Record<string, unknown> | unknown[];
}
export interface RestExpectation {
  path: string;
  query: Array<[string, string]>;
}
export interface RunnerExpectation {
  path: string;
  body: unknown;
}
export type Expectation = RpcExpectation | RestExpectation | RunnerExpectation;

export interface ContractExample {
  args: Record<string, unknown>;
  expect: Expectation | Expectation[];
  /** Raw answers keyed by JSON-RPC method or REST path. */
  answers?: Record<string, unknown>;
  /** The tool refuses this call before sending anything: the refusal's text contains this. */
  refusal?: string;
}

/** Credentials the contract harness configures; spend/wallet examples expect exactly these. */
export const KEYSTORE = { username: 'contract-user', password: 'Contract-Passw0rd!' } as const;
export const AUTH_TOKEN = 'contract-token-123';
export const AUTH_PASSWORD = 'contract-auth-pw';
