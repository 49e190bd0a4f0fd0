import { describe, expect, it } from 'vitest';
import { ptraceFinding } from '../../src/doctor.js';

describe('--check on who can read the process memory (Yama ptrace_scope)', () => {
  it('warns with the fix where a same-user process can read the memory: scope 0, or no Yama at all', () => {
    const zero = ptraceFinding('linux', () => '0\n');
    expect(zero?.level).toBe('warn');
    expect(zero?.text).toMatch(/^ptrace: kernel\.yama\.ptrace_scope is 0, so any process of your OS user can read this process's memory, an unlocked key included: set `sysctl kernel\.yama\.ptrace_scope=1`/);
    const none = ptraceFinding('linux', () => undefined);
    expect(none?.level).toBe('warn');
    expect(none?.text).toMatch(/^ptrace: Yama is not enabled/);
  });

  it('says ok for scope 1 to 3, and nothing off Linux', () => {
    for (const scope of ['1', '2', '3']) expect(ptraceFinding('linux', () => `${scope}\n`)).toEqual({ level: 'ok', text: expect.stringContaining(`ptrace_scope is ${scope}:`) });
    expect(ptraceFinding('darwin', () => '0')).toBeUndefined();
  });
});
