import { z } from 'zod';
import { withShallowOutputs } from '../summarize/schema.js';
import { listLines } from '../summarize/format.js';
import { defineTool, type ToolDef } from '../core/tool.js';

/** Keystore API, endpoint /ext/keystore (spec document 1): the one read operation. */

export const keystoreTools: ToolDef[] = withShallowOutputs([
  defineTool({
    name: 'keystore_listUsers',
    title: 'Keystore users',
    description: "List the keystore user names on this node.",
    tier: 'read',
    toolset: 'keystore',
    input: z.strictObject({}),
    output: z.object({ count: z.number(), users: z.array(z.string()) }),
    request: { kind: 'rpc', endpoint: 'keystore', method: 'keystore.listUsers' },
    decode: (raw) => {
      const list = raw && typeof raw === 'object' && Array.isArray((raw as { users?: unknown }).users) ? ((raw as { users: unknown[] }).users) : [];
      const users = list.map((u) => String(u));
      return { count: users.length, users };
    },
    summarize: (o) => (o.count === 0 ? 'The node has no keystore users.' : [`${o.count} keystore user(s):`, ...listLines(o.users, 50, (u) => u)].join('\n')),
  }),
]);
