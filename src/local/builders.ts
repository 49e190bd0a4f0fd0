import { CAMINO_BUILDERS } from './camino.js';
import { type LocalBuilder, TRANSFER_BUILDERS } from './spends.js';

/** Every spend the local signer builds itself, by tool name (src/registry/local-spend.ts LOCAL_TOOLS names the same). */
export const LOCAL_BUILDERS: Readonly<Record<string, LocalBuilder>> = { ...TRANSFER_BUILDERS, ...CAMINO_BUILDERS };
