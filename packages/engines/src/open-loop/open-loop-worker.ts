// The open-loop engine's worker thread.
import { serveThread } from '../threads/serve-thread.js';
import { runOpenLoop } from './run-open-loop.js';

serveThread(runOpenLoop);
