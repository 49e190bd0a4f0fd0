import { build, type Plugin } from 'esbuild';

/**
 * The ext-apps `App` class (the view side of the MCP Apps protocol) as one browser script, for
 * the views and the approval card to inline: their HTML is self-contained under a hash-only CSP,
 * so the class cannot be loaded from anywhere. The result sets `var McpApps = { App }`.
 * src/core/app-class.ts holds it; test/unit/views-app-class.test.ts rebuilds it and fails
 * when the two differ (UPDATE_APP_CLASS=1 rewrites the file, e.g. after an ext-apps update).
 */
export async function buildAppClass(root: string): Promise<string> {
  const result = await build({
    stdin: { contents: "export { App } from '@modelcontextprotocol/ext-apps';", resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'iife',
    globalName: 'McpApps',
    target: 'es2020',
    platform: 'browser',
    legalComments: 'none',
    write: false,
    logLevel: 'error',
    plugins: [onlyEnglishZodMessages],
  });
  return result.outputFiles[0]!.text.trim();
}

/**
 * zod's classic entry imports every locale (~110 KB) though only English is ever configured;
 * the others become empty modules.
 */
const onlyEnglishZodMessages: Plugin = {
  name: 'only-english-zod-messages',
  setup(b) {
    b.onResolve({ filter: /\/locales\/[a-zA-Z-]+\.js$/ }, (args) =>
      /\/en\.js$/.test(args.path) || !args.resolveDir.includes('zod') ? undefined : { path: args.path, namespace: 'zod-locale-stub' },
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locale-stub' }, () => ({ contents: 'export default function () { return {}; }', loader: 'js' }));
  },
};

/** The generated module's text. */
export function appClassModule(code: string, version: string): string {
  return `// biome-ignore-all lint: generated, minified third-party code
// Generated from @modelcontextprotocol/ext-apps ${version} by tools/views/app-class.ts; do not edit.
// UPDATE_APP_CLASS=1 npx vitest run test/unit/views-app-class.test.ts rewrites it.
/** The ext-apps App class as a browser script: defines \`var McpApps = { App }\`. */
export const APP_CLASS: string = ${JSON.stringify(code)};
`;
}
