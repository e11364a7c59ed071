// The wire engine's worker thread.
import { serveThread } from '../threads/serve-thread.js';
import { runWire } from './run-wire.js';

serveThread(runWire);
