// bench's backing services: the manager a run uses, the registry of services, and the contract of one.
export { noServices, type ServiceManager, type ServiceNeeds, type CounterReading } from './service-manager.js';
export { createServiceManager } from './create-service-manager.js';
export { serviceDefinitions, describeServices, type ServiceDescription } from './registry.js';
export type { RunningService, ServiceDefinition, ServiceStartOptions } from './service.js';
export type { DatabaseProbe } from './tfb-data.js';
