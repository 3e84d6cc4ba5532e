// The package's API for other packages (control-plane and e2e tests start a real agent in-process).
export { type AgentRuntime, type RunningAgent, startAgent } from './agent.js';
export {
  type AgentConfig,
  type AgentOptions,
  ConfigError,
  configFromCli,
  parsePortRange,
  parseSimulatedGpus,
  resolveConfig,
} from './config.js';
export {
  type SimulatedGpuControl,
  simulatedGpuControlPath,
  simulatedUuid,
  writeSimulatedGpuControl,
} from './gpu/simulated-gpu-probe.js';
export { AGENT_VERSION } from './version.js';
