import { noServices, type ServiceManager } from '../services.js';

/** The service manager `bench run` uses. */
export function createServiceManager(): ServiceManager {
  return noServices;
}
