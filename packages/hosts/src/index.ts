// Other machines for bench's stacks and services (--server-host, --database-host): the SSH transport, the agent's
// protocol and both its ends. The runner asks a host for targets and services and never knows which kind it got.
export { runAgent, AGENT_IDLE_MS, type AgentOptions } from './agent/agent.js';
export type { AgentProject } from './agent/agent-ops.js';
export { connectHost, type RemoteHost } from './remote/remote-host.js';
export { HOST_SILENT_MS } from './remote/agent-connection.js';
export { parseSshUrl, type SshHost } from './ssh/ssh-url.js';
export type { SshSettings } from './ssh/ssh-command.js';
export { AGENT_PROTOCOL } from './protocol/messages.js';
