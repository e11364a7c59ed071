// The autocannon engine's worker thread.
import { serveThread } from '../threads/serve-thread.js';
import { runAutocannon } from './run-autocannon.js';

serveThread(runAutocannon);
