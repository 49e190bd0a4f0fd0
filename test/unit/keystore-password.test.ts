import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { passwordProblem } from '../../src/catalogue/keystore.admin.js';
import { loadConfig } from '../../src/config.js';
import type { ToolContext, ToolDef } from '../../src/core/tool.js';
import type { ChainMcpError } from '../../src/errors.js';

/** The keystore password rule a node enforces, checked before keystore_createUser asks it (mutation survivors, issue 25). */
describe('keystore password strength', () => {
  it('takes 8 to 1024 characters with lower and upper case letters, a number and a symbol', () => {
    expect(passwordProblem('Aa1!aaaa')).toBeUndefined();
    expect(passwordProblem(`Aa1!${'a'.repeat(1020)}`)).toBeUndefined();
  });

  it('names the length problem first, at both ends', () => {
    expect(passwordProblem('Aa1!aaa')).toBe('is shorter than 8 characters');
    expect(passwordProblem(`Aa1!${'a'.repeat(1021)}`)).toBe('is longer than 1024 characters');
  });

  it('names every kind of character that is missing, in order', () => {
    expect(passwordProblem('AAAA1!AA')).toBe('lacks a lower-case letter');
    expect(passwordProblem('aaaa1!aa')).toBe('lacks an upper-case letter');
    expect(passwordProblem('Aaaaa!aa')).toBe('lacks a number');
    expect(passwordProblem('Aaaaa1aa')).toBe('lacks a symbol');
    expect(passwordProblem('aaaaaaaa')).toBe('lacks an upper-case letter, a number, a symbol');
    expect(passwordProblem('        ')).toBe('lacks a lower-case letter, an upper-case letter, a number');
  });
});

describe('keystore admin entries (mutation survivors, issue 25)', () => {
  const tool = (name: string): ToolDef => CATALOGUE.find((t) => t.name === name)!;

  it('keystore_createUser refuses a weak configured password before any request, saying how to fix it', async () => {
    let asked = 0;
    const ctx = {
      config: loadConfig({ CHAIN_MCP_KEYSTORE_USER: 'alice', CHAIN_MCP_KEYSTORE_PASSWORD: 'weakpassword' }),
      rpc: async () => {
        asked++;
        return {};
      },
    } as unknown as ToolContext;
    const err = await tool('keystore_createUser').run!({} as never, ctx).then(
      () => undefined,
      (e: unknown) => e as ChainMcpError,
    );
    expect(err?.message).toBe('Invalid configuration: CHAIN_MCP_KEYSTORE_PASSWORD lacks an upper-case letter, a number, a symbol; the node rejects weak passwords.');
    expect(err?.hint).toMatch(/^Use at least 8 characters with upper and lower case letters, numbers and symbols/);
    expect(asked).toBe(0);
  });

  it('the importKey tools take only a PrivateKey-<cb58> key, refused naming the field', () => {
    for (const name of ['xvm_importKey', 'cx_importKey']) {
      const r = tool(name).input.safeParse({ privateKey: 'PrivateKey-notcb58' });
      expect(r.success, name).toBe(false);
      expect(r.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual(['privateKey: expected PrivateKey-<cb58>']);
    }
  });
});
