import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

/**
 * The smallest useful MCP server built with the same SDK and zod: one tool, stdio. The cold
 * start benchmark runs it beside chain-mcp to show what the SDK and Node cost on their own.
 */
const server = new McpServer({ name: 'minimal', version: '0.0.0' });
server.registerTool(
  'echo',
  { title: 'Echo', description: 'Return the text.', inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);
await server.connect(new StdioServerTransport());
