import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { EXTENSION_ID, getUiCapability, RESOURCE_MIME_TYPE as EXT_APPS_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { cardHtml, hostShowsCards, RESOURCE_MIME_TYPE, UI_EXTENSION_ID } from '../../src/approval/card.js';
import { APP_CLASS } from '../../src/core/app-class.js';
import { VIEWS, viewHtml } from '../../src/views/views.js';
import { appClassModule, buildAppClass } from '../../tools/views/app-class.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const FILE = new URL('../../src/core/app-class.ts', import.meta.url);

describe('the inlined ext-apps App class', () => {
  it('src/core/app-class.ts is the current build of the installed ext-apps', async () => {
    const version = (JSON.parse(readFileSync(new URL('../../node_modules/@modelcontextprotocol/ext-apps/package.json', import.meta.url), 'utf8')) as { version: string }).version;
    const expected = appClassModule(await buildAppClass(ROOT), version);
    if (process.env.UPDATE_APP_CLASS === '1') writeFileSync(FILE, expected);
    // Compared as booleans: a diff of a 250 KB line helps nobody; the fix is UPDATE_APP_CLASS=1.
    expect(readFileSync(FILE, 'utf8') === expected, 'src/core/app-class.ts is stale: UPDATE_APP_CLASS=1 npx vitest run test/unit/views-app-class.test.ts').toBe(true);
  });

  it('every view and the approval card run on it, with no hand-written protocol of their own', async () => {
    for (const html of [...(await Promise.all(VIEWS.map(viewHtml))), await cardHtml()]) {
      expect(html.includes(APP_CLASS), html.slice(0, 120)).toBe(true);
      // The App class names the protocol's methods itself; the views' own code no longer does.
      expect(html.replace(APP_CLASS, '')).not.toMatch(/ui\/initialize|ui\/notifications|postMessage/);
    }
  });

  it('the MIME type and extension id spelled in src/approval/card.ts are those of the installed ext-apps', () => {
    expect(RESOURCE_MIME_TYPE).toBe(EXT_APPS_MIME_TYPE);
    expect(UI_EXTENSION_ID).toBe(EXTENSION_ID);
    // hostShowsCards reads the capability as ext-apps' getUiCapability does.
    const shapes: Array<ClientCapabilities | undefined> = [
      undefined,
      {},
      { extensions: {} },
      { extensions: { [EXTENSION_ID]: {} } },
      { extensions: { [EXTENSION_ID]: { mimeTypes: ['text/html'] } } },
      { extensions: { [EXTENSION_ID]: { mimeTypes: [EXT_APPS_MIME_TYPE] } } },
      { extensions: { 'other/ext': { mimeTypes: [EXT_APPS_MIME_TYPE] } } },
    ];
    for (const caps of shapes) expect(hostShowsCards(caps), JSON.stringify(caps)).toBe(getUiCapability(caps)?.mimeTypes?.includes(EXT_APPS_MIME_TYPE) === true);
  });
});
