/**
 * A minimal MCP Apps host, built like ext-apps' examples/basic-host on its `AppBridge`: a host page
 * and a sandbox proxy on two loopback origins, the view written into the sandbox's inner iframe
 * under the CSP its resource declares, and the host side of the protocol played by `AppBridge`
 * in the page. The MCP connection is an SDK `Client` in this process (as in a desktop host, where
 * the bridge lives in the renderer and the client in the main process); the page reaches it
 * through three proxied methods: tools/list, tools/call, resources/read.
 *
 * It follows the MCP Apps spec on visibility: the model's tool list leaves out tools whose
 * `_meta.ui.visibility` lacks "model", and an app's tools/call is refused unless the tool is
 * listed by the same server with "app" in its visibility (omitted = both).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { build } from 'esbuild';
import type { Browser, Frame, Page } from 'playwright-core';

export const HOST_INFO = { name: 'chain-mcp basic host', version: '1' };

/** What this host offers a view (McpUiHostCapabilities): tools and resources proxied, both ways to tell the model. */
export const HOST_CAPABILITIES = {
  serverTools: {},
  serverResources: {},
  logging: {},
  updateModelContext: { text: {} },
  message: { text: {} },
  openLinks: {},
};

/** Something a view asked of the host, in order. */
export type HostEvent =
  | { kind: 'model-context'; params: { content?: Array<{ type: string; text?: string }>; structuredContent?: unknown } }
  | { kind: 'message'; params: { role: string; content: Array<{ type: string; text?: string }> } }
  | { kind: 'refused'; name: string }
  | { kind: 'tool-call'; name: string }
  | { kind: 'log'; params: unknown }
  | { kind: 'open-link'; url: string };

export interface HostContext {
  theme?: 'light' | 'dark';
  styles?: { variables?: Record<string, string> };
  [key: string]: unknown;
}

export interface MountOptions {
  /** The iframe's width in CSS pixels (the page is as wide). */
  width?: number;
  hostContext?: HostContext;
  /** Capabilities to offer instead of HOST_CAPABILITIES (a host without ui/message, say). */
  capabilities?: Record<string, unknown>;
}

export interface MountedView {
  page: Page;
  /** The view's own frame (the sandbox's inner iframe). */
  view: Frame;
  result: CallToolResult;
  events: HostEvent[];
  /** Content Security Policy complaints in any frame's console. */
  violations: string[];
  /** A host-context change, as a host sends on a theme switch. */
  setHostContext(ctx: HostContext): Promise<void>;
  /** The capabilities the view declared at initialize (McpUiAppCapabilities). */
  appCapabilities(): Promise<Record<string, unknown> | undefined>;
  /** ui/resource-teardown, as a host sends before it removes the view: the view's answer, or the error's message. */
  teardown(): Promise<{ result?: unknown; error?: string }>;
  close(): Promise<void>;
}

export interface AppsHost {
  /** The host page's origin and the sandbox's: two loopback origins. */
  hostOrigin: string;
  sandboxOrigin: string;
  /** The tools this host offers the model: tools/list without app-only ones. */
  modelTools(): Promise<Tool[]>;
  /**
   * The model calls `tool` (refused when the model may not see it); the host reads the view the
   * tool's listing names and shows the result in it.
   */
  callAndShow(tool: string, args: Record<string, unknown>, opts?: MountOptions): Promise<MountedView>;
  /** Shows a given tool result in the view at `uri` (a result the test shapes, such as a preview's lines). */
  show(uri: string, result: CallToolResult, opts?: MountOptions): Promise<MountedView>;
  close(): Promise<void>;
}

type Visibility = Array<'model' | 'app'>;
const visibility = (t: Tool): Visibility | undefined => (t._meta as { ui?: { visibility?: Visibility } } | undefined)?.ui?.visibility;
/** Spec: omitted means ["model", "app"]. */
export const modelMaySee = (t: Tool): boolean => visibility(t)?.includes('model') ?? true;
export const appMayCall = (t: Tool): boolean => visibility(t)?.includes('app') ?? true;

/**
 * The page side, bundled with esbuild from ext-apps' `app-bridge` entry for the browser (a string:
 * the build has no DOM types). `mountApp` does what basic-host's `initializeApp` does: sandbox
 * proxy ready, bridge connected, resource sent, wait for initialized, tool input, tool result.
 */
const PAGE_SOURCE = `
import { AppBridge, PostMessageTransport, buildAllowAttribute } from '@modelcontextprotocol/ext-apps/app-bridge';
const HOST_INFO = ${JSON.stringify(HOST_INFO)};
const appMayCall = (t) => { const v = t && t._meta && t._meta.ui && t._meta.ui.visibility; return !v || v.includes('app'); };
let bridge;
window.mountApp = async (m) => {
  const { tools } = await window.hostRpc('tools/list', {});
  const iframe = document.createElement('iframe');
  iframe.id = 'view';
  iframe.style.cssText = 'display:block;border:0;width:' + m.width + 'px;height:120px';
  iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  const allow = buildAllowAttribute(m.permissions);
  if (allow) iframe.setAttribute('allow', allow);
  const proxyReady = new Promise((resolve) => {
    const listener = (ev) => {
      if (ev.source === iframe.contentWindow && ev.data && ev.data.method === 'ui/notifications/sandbox-proxy-ready') {
        window.removeEventListener('message', listener);
        resolve();
      }
    };
    window.addEventListener('message', listener);
  });
  const url = new URL(m.sandboxUrl);
  if (m.csp) url.searchParams.set('csp', JSON.stringify(m.csp));
  iframe.src = url.href;
  document.body.appendChild(iframe);
  await proxyReady;
  bridge = new AppBridge(null, HOST_INFO, m.capabilities, { hostContext: m.hostContext });
  // The MCP Apps spec: an app may call only tools this server lists with "app" in their visibility.
  bridge.oncalltool = async (params) => {
    const tool = tools.find((t) => t.name === params.name);
    if (!tool || !appMayCall(tool)) {
      await window.hostEvent({ kind: 'refused', name: params.name });
      throw new Error('The host refuses this call: "' + params.name + '" is not listed with app visibility.');
    }
    await window.hostEvent({ kind: 'tool-call', name: params.name });
    return window.hostRpc('tools/call', { name: params.name, arguments: params.arguments || {} });
  };
  bridge.onreadresource = async (params) => window.hostRpc('resources/read', params);
  bridge.onupdatemodelcontext = async (params) => { await window.hostEvent({ kind: 'model-context', params }); return {}; };
  bridge.onmessage = async (params) => { await window.hostEvent({ kind: 'message', params }); return {}; };
  bridge.onloggingmessage = (params) => { window.hostEvent({ kind: 'log', params }); };
  bridge.onopenlink = async ({ url }) => { await window.hostEvent({ kind: 'open-link', url }); return {}; };
  bridge.onsizechange = ({ height }) => { if (height !== undefined) iframe.style.height = Math.min(height, 4000) + 'px'; };
  const initialized = new Promise((resolve) => { bridge.oninitialized = () => resolve(); });
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  await bridge.sendSandboxResourceReady({ html: m.html, csp: m.csp, permissions: m.permissions });
  await initialized;
  await bridge.sendToolInput({ arguments: m.input });
  await bridge.sendToolResult(m.result);
};
window.setHostContext = (ctx) => bridge.setHostContext(ctx);
window.appCapabilities = () => bridge.getAppCapabilities();
window.teardown = () => bridge.teardownResource({}).then((result) => ({ result }), (e) => ({ error: String(e && e.message || e) }));
`;

/**
 * The sandbox proxy (the spec's "Sandbox proxy" section): checks it is framed by the host origin,
 * makes the inner iframe, relays every message but its own two, writes the view's HTML into the
 * inner frame on sandbox-resource-ready. Its CSP comes as a header built from the resource's `csp`.
 */
const SANDBOX_SCRIPT = (hostOrigin: string) => `(function(){
var HOST=${JSON.stringify(hostOrigin)};
if(window.self===window.top||!document.referrer||new URL(document.referrer).origin!==HOST)throw new Error('sandbox: not framed by the host');
var OWN=location.origin;var inner=document.createElement('iframe');inner.style.cssText='display:block;width:100%;height:100%;border:0';
inner.setAttribute('sandbox','allow-scripts allow-same-origin allow-forms');document.body.appendChild(inner);
window.addEventListener('message',function(ev){
if(ev.source===window.parent){if(ev.origin!==HOST)return;var d=ev.data;
if(d&&d.method==='ui/notifications/sandbox-resource-ready'){var p=d.params||{};
if(p.permissions&&p.permissions.clipboardWrite)inner.setAttribute('allow','clipboard-write');
var doc=inner.contentDocument;doc.open();doc.write(String(p.html));doc.close();return}
if(d&&typeof d.method==='string'&&d.method.indexOf('ui/notifications/sandbox-')===0)return;
inner.contentWindow.postMessage(d,'*')}
else if(ev.source===inner.contentWindow){if(ev.origin!==OWN)return;window.parent.postMessage(ev.data,HOST)}});
window.parent.postMessage({jsonrpc:'2.0',method:'ui/notifications/sandbox-proxy-ready',params:{}},HOST)})();`;

interface Csp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** The sandbox page's CSP header from the resource's declared domains (nothing beyond them). */
export function sandboxCsp(csp: Csp | undefined): string {
  const list = (xs: string[] | undefined) => (xs ?? []).filter((d) => /^https?:\/\/[A-Za-z0-9.*:-]+$/.test(d)).join(' ');
  const res = list(csp?.resourceDomains);
  const frames = list(csp?.frameDomains);
  const bases = list(csp?.baseUriDomains);
  return [
    "default-src 'self' 'unsafe-inline'",
    `script-src 'self' 'unsafe-inline' ${res}`.trim(),
    `style-src 'self' 'unsafe-inline' ${res}`.trim(),
    `img-src 'self' data: ${res}`.trim(),
    `font-src 'self' data: ${res}`.trim(),
    `connect-src 'self' ${list(csp?.connectDomains)}`.trim(),
    frames ? `frame-src ${frames}` : "frame-src 'none'",
    "object-src 'none'",
    bases ? `base-uri ${bases}` : "base-uri 'none'",
  ].join('; ');
}

let bundled: Promise<string> | undefined;

/** The page script: ext-apps' AppBridge and PostMessageTransport bundled for the browser (once per process). */
export function hostPageScript(): Promise<string> {
  bundled ??= build({
    stdin: { contents: PAGE_SOURCE, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'js' },
    bundle: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    legalComments: 'none',
    write: false,
    logLevel: 'error',
  }).then((r) => r.outputFiles[0]!.text);
  return bundled;
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const origin = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

/** Starts the host's two loopback servers; each `callAndShow` opens a page of `browser` on the host origin. */
export async function startAppsHost(client: Client, browser: Browser): Promise<AppsHost> {
  const script = await hostPageScript();
  let hostOrigin = '';
  const sandbox = await listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/sandbox.html') {
      res.writeHead(404).end();
      return;
    }
    let csp: Csp | undefined;
    try {
      csp = url.searchParams.has('csp') ? (JSON.parse(url.searchParams.get('csp')!) as Csp) : undefined;
    } catch {
      csp = undefined;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': sandboxCsp(csp), 'cache-control': 'no-store' });
    res.end(`<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;height:100%}</style></head><body><script>${SANDBOX_SCRIPT(hostOrigin)}</script></body></html>`);
  });
  const host = await listen((req, res) => {
    if (req.url === '/host.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
      return;
    }
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html><head><meta charset="utf-8"><title>MCP Apps host</title></head><body style="margin:0"><script src="/host.js"></script></body></html>');
      return;
    }
    res.writeHead(404).end();
  });
  hostOrigin = origin(host);
  const sandboxOrigin = origin(sandbox);
  const pages = new Set<Page>();

  const listTools = async () => (await client.listTools()).tools;

  return {
    hostOrigin,
    sandboxOrigin,
    modelTools: async () => (await listTools()).filter(modelMaySee),
    async callAndShow(name, args, opts = {}) {
      const tool = (await listTools()).find((t) => t.name === name);
      if (!tool || !modelMaySee(tool)) throw new Error(`The model has no tool "${name}" in this host.`);
      const uri = (tool._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
      if (!uri?.startsWith('ui://')) throw new Error(`"${name}" names no ui:// view.`);
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      return mount(uri, args, result, opts);
    },
    show: (uri, result, opts = {}) => mount(uri, {}, result, opts),
    async close() {
      for (const p of pages) await p.close().catch(() => undefined);
      await new Promise<void>((r) => host.close(() => r()));
      await new Promise<void>((r) => sandbox.close(() => r()));
    },
  };

  async function mount(uri: string, args: Record<string, unknown>, result: CallToolResult, opts: MountOptions): Promise<MountedView> {
      const read = await client.readResource({ uri });
      const content = read.contents[0] as { mimeType?: string; text?: string; _meta?: { ui?: { csp?: Csp; permissions?: Record<string, unknown> } } };
      if (read.contents.length !== 1 || content.mimeType !== 'text/html;profile=mcp-app' || typeof content.text !== 'string') {
        throw new Error(`${uri} is not one MCP App HTML resource.`);
      }
      const width = opts.width ?? 640;
      const page = await browser.newPage({ viewport: { width, height: 800 }, colorScheme: opts.hostContext?.theme ?? 'light' });
      pages.add(page);
      const events: HostEvent[] = [];
      const violations: string[] = [];
      page.on('console', (msg) => {
        if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
      });
      await page.exposeFunction('hostEvent', (e: HostEvent) => {
        events.push(e);
      });
      await page.exposeFunction('hostRpc', async (method: string, params: Record<string, unknown>) => {
        if (method === 'tools/list') return { tools: await listTools() };
        if (method === 'tools/call') return client.callTool(params as { name: string; arguments?: Record<string, unknown> });
        if (method === 'resources/read') return client.readResource(params as { uri: string });
        throw new Error(`The host does not proxy ${method}.`);
      });
      await page.goto(`${hostOrigin}/`);
      const hostContext = { displayMode: 'inline', platform: 'web', containerDimensions: { width, maxHeight: 4000 }, theme: 'light', ...opts.hostContext };
      await page.evaluate(
        (m) => (globalThis as unknown as { mountApp: (x: unknown) => Promise<void> }).mountApp(m),
        {
          sandboxUrl: `${sandboxOrigin}/sandbox.html`,
          html: content.text,
          csp: content._meta?.ui?.csp,
          permissions: content._meta?.ui?.permissions,
          input: args,
          result,
          width,
          hostContext,
          capabilities: opts.capabilities ?? HOST_CAPABILITIES,
        } as const,
      );
      const outer = (await (await page.waitForSelector('iframe#view')).contentFrame())!;
      const view = (await (await outer.waitForSelector('iframe')).contentFrame())!;
      return {
        page,
        view,
        result,
        events,
        violations,
        setHostContext: (ctx) => page.evaluate((c) => (globalThis as unknown as { setHostContext: (x: unknown) => void }).setHostContext(c), ctx as never),
        appCapabilities: () => page.evaluate(() => (globalThis as unknown as { appCapabilities: () => Record<string, unknown> | undefined }).appCapabilities()),
        teardown: () => page.evaluate(() => (globalThis as unknown as { teardown: () => Promise<{ result?: unknown; error?: string }> }).teardown()),
        close: async () => {
          pages.delete(page);
          await page.close();
        },
      };
  }
}
