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
