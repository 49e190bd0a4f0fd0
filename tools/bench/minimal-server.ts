import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

/**
 * The smallest useful MCP server built with the same SDK and zod: one tool, stdio, both eras
 * (serveStdio). The cold start benchmark runs it beside chain-mcp to show what the SDK and Node
 * cost on their own.
 */
serveStdio(() => {
  const server = new McpServer({ name: 'minimal', version: '0.0.0' });
  server.registerTool(
    'echo',
    { title: 'Echo', description: 'Return the text.', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
});
