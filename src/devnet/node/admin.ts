import { type Params, RpcFault, type RpcRouter, needString } from '../rpc.js';
import type { DevnetState } from '../state.js';

/** Contract chain admin API (/ext/bc/C/admin, spec document 2): log level and profilers. */

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'crit', 'fatal', 'off']);
const profiling = new WeakMap<DevnetState, { cpu: boolean; level: string }>();

/**
 * With `secret`, every call must carry it as the `secret` param, checked with the
 * error text of caminogo's node admin API (api/admin/service.go, ValidateRequest).
 */
export function registerAdmin(router: RpcRouter, state: DevnetState, secret?: string): void {
  const path = '/ext/bc/C/admin';
  const guarded = (handler: (p: Params) => unknown) => (p: Params) => {
    if (secret !== undefined && p.secret !== secret) throw new RpcFault('secret arg missing or wrong');
    return handler(p);
  };
  const model = () => {
    const m = profiling.get(state) ?? { cpu: false, level: 'info' };
    profiling.set(state, m);
    return m;
  };
  router
    .on(path, 'admin.setLogLevel', guarded((p) => {
      const level = needString(p, 'level').toLowerCase();
      if (!LEVELS.has(level)) throw new RpcFault(`failed to parse log level "${String(p.level)}"`);
      model().level = level;
      return router.emptyReply();
    }))
    .on(path, 'admin.startCPUProfiler', guarded(() => {
      if (model().cpu) throw new RpcFault('CPU profiler is already running');
      model().cpu = true;
      return router.emptyReply();
    }))
    .on(path, 'admin.stopCPUProfiler', guarded(() => {
      if (!model().cpu) throw new RpcFault('CPU profiler is not running');
      model().cpu = false;
      return router.emptyReply();
    }))
    .on(path, 'admin.memoryProfile', guarded(() => router.emptyReply()))
    .on(path, 'admin.lockProfile', guarded(() => router.emptyReply()));
}
