/**
 * The MCP floor: the least a stateless Streamable HTTP MCP server on Fastify can do per tools/call.
 * Like Helix's route (src/http/mcp/mcpRoute.ts), it builds a fresh SDK `Server` and transport per
 * POST and hands the parsed body to the transport; unlike it, there is no bearer check, no envelope
 * preflight, no store and one tool whose result is a constant. Helix's distance from this server is
 * what its auth, validation, service and storage add to the SDK's own per-request cost.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import Fastify, { type FastifyInstance } from 'fastify';

const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

export const MCP_FLOOR_PATH = '/mcp';
export const MCP_FLOOR_TOOL = 'floor_constant';
export const MCP_FLOOR_TEXT = 'ok';

const TOOLS: Tool[] = [
  {
    name: MCP_FLOOR_TOOL,
    description: 'Returns a constant.',
    inputSchema: { type: 'object', properties: { run_id: { type: 'string' } } },
  },
];
const RESULT: CallToolResult = { content: [{ type: 'text', text: MCP_FLOOR_TEXT }] };

const serverForRequest = (): Server => {
  // The same shared validator Helix uses, so the floor measures the same SDK path.
  const server = new Server(
    { name: 'helix-bench-mcp-floor', version: '0.0.0' },
    { capabilities: { tools: { listChanged: false } }, jsonSchemaValidator: SHARED_VALIDATOR },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async () => RESULT);
  return server;
};

export const buildMcpFloorApp = (): FastifyInstance => {
  const app = Fastify({ logger: false });
  app.post(MCP_FLOOR_PATH, async (request, reply) => {
    const server = serverForRequest();
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true }); // no sessionIdGenerator: stateless;
    await server.connect(transport);
    try {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const response = await transport.handleRequest(
        new Request(`http://floor${MCP_FLOOR_PATH}`, { method: 'POST', headers }),
        {
          parsedBody: request.body,
        },
      );
      const text = await response.text();
      reply.code(response.status);
      if (text === '') return reply.send();
      return reply.type('application/json; charset=utf-8').send(text);
    } finally {
      await server.close();
    }
  });
  return app;
};
