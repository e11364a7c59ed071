import { noServices, type ServiceManager } from '../services.js';

/** The service manager `bench run` uses. */
export function createServiceManager(): ServiceManager {
  return noServices;
}

export interface ServiceDescription {
  readonly name: string;
  readonly binary: string;
  readonly found: boolean;
  readonly version?: string;
  readonly aptPackage: string;
  readonly urlVariable: string;
}

/** Each backing service: found or not, its version, and how to get it. */
export async function describeServices(): Promise<ServiceDescription[]> {
  return [];
}
