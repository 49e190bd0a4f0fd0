import { describe, expect, it } from 'vitest';
import { splitHead } from '../../src/approval/head.js';

describe('splitHead: what a person checks first', () => {
  it('the head runs to the total line and the warnings right after it; the rest is detail, in order', () => {
    const lines = ['Send 2 CAM to X-a', 'Send 1 CAM to X-b', 'Total leaving your key: 3.001 CAM', 'NOT your address: X-a', 'Lock: none', 'Network: local', 'Shared: later lines are detail', 'Fee: 0.001 CAM'];
    expect(splitHead(lines)).toEqual({ head: lines.slice(0, 5), details: lines.slice(5) });
  });

  it('without a total line (the keystore signer) the first three lines lead', () => {
    expect(splitHead(['a', 'b', 'c', 'd'])).toEqual({ head: ['a', 'b', 'c'], details: ['d'] });
    expect(splitHead(['a'])).toEqual({ head: ['a'], details: [] });
  });
});

describe('splitHead: the edges (issue 40)', () => {
  it('a total on the first line leads with the warnings after it, whatever their kind', () => {
    const lines = ['Total leaving your key: 1 CAM', 'NOT your address: X-a', 'Lock: until 2027', 'Shared: 2 of 3 sign', 'Contract call: 0xa9059cbb', 'Fee: 0.001 CAM', 'Lock: a later line is detail'];
    expect(splitHead(lines)).toEqual({ head: lines.slice(0, 5), details: lines.slice(5) });
  });

  it('warnings running to the last line all lead, with nothing left as detail; a total with no warning after it leads alone', () => {
    const lines = ['Send 1 CAM to X-a', 'Total leaving your key: 1.001 CAM', 'NOT your address: X-a', 'Lock: none'];
    expect(splitHead(lines)).toEqual({ head: lines, details: [] });
    expect(splitHead(['Total leaving your key: 0 CAM'])).toEqual({ head: ['Total leaving your key: 0 CAM'], details: [] });
    // A total first with no warning after it leads alone (not the first three lines).
    expect(splitHead(['Total leaving your key: 1 CAM', 'Fee: 0.001 CAM', 'Network: local'])).toEqual({ head: ['Total leaving your key: 1 CAM'], details: ['Fee: 0.001 CAM', 'Network: local'] });
  });

  it('without a total line, a warning after the first three lines stays detail', () => {
    expect(splitHead(['a', 'b', 'c', 'NOT your address: X-a', 'd'])).toEqual({ head: ['a', 'b', 'c'], details: ['NOT your address: X-a', 'd'] });
    expect(splitHead([])).toEqual({ head: [], details: [] });
  });
});
