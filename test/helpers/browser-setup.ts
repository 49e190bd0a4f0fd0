import { findChromium } from '../../tools/browser.js';

/**
 * Vitest globalSetup: finds (and for the npm browser, unpacks once) the Chromium before the test
 * workers start, so parallel browser tests neither race to unpack nor spend their timeout on it.
 * No browser is not an error here: each browser test fails on its own with the one-line message.
 */
export default function setup(): void {
  try {
    findChromium();
  } catch {
    // Reported by the browser tests themselves.
  }
}
