import { buildMachinery } from './spend/machinery.js';
import { ServicesCore, type ServicesOptions } from './services-core.js';

/**
 * The process's services with the spend machinery built at construction: a key file that cannot
 * be opened throws here. For tests and tools that build services themselves; a start of the
 * server (main.ts, through server.ts's createServices) uses {@link ServicesCore}, which loads the
 * machinery only where the configuration can reach it.
 */
export class Services extends ServicesCore {
  constructor(opts: ServicesOptions) {
    super(opts, buildMachinery);
  }
}
