import { describe, expect, it } from 'vitest';
import { passwordProblem } from '../../src/catalogue/keystore.admin.js';

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
