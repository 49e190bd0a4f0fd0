import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/catalogue/index.js';
import { needsConfirmation } from '../../src/core/tool.js';

/**
 * The tools that never act without the human's yes, named one by one: every spend, and the admin
 * operations that hand over or replace keys (issue 21). A catalogue entry that lost its
 * `confirmation: true` would run at once, so the list is pinned here, where the import-time
 * entries are checked (mutation testing's static pass runs the unit tests).
 */
describe('what needs the human to approve', () => {
  it('every spend tool and exactly these key and keystore operations', () => {
    const confirms = CATALOGUE.filter(needsConfirmation).map((t) => t.name).sort();
    const spends = CATALOGUE.filter((t) => t.tier === 'spend').map((t) => t.name);
    expect(spends.length).toBe(28);
    expect(confirms).toEqual(
      [...spends, 'keystore_deleteUser', 'keystore_exportUser', 'keystore_importUser', 'xvm_exportKey', 'xvm_importKey', 'cx_exportKey', 'cx_importKey', 'platform_exportKey'].sort(),
    );
  });
});
