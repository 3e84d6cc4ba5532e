// The package's API for other packages (control-plane and e2e tests start a real agent in-process).
export { type AgentEngine, type AgentRuntime, type RunningAgent, startAgent } from './agent.js';
export {
  type AgentConfig,
  type AgentOptions,
  ConfigError,
  configFromCli,
  parsePortRange,
  parseSimulatedGpus,
  resolveConfig,
} from './config.js';
export { containerName, LABELS, type ManagedLabelValues, managedLabels } from './docker/labels.js';
export {
  MemoryContainerClient,
  type MemoryContainerClientOptions,
  type MemoryExecCall,
  type MemoryImage,
} from './docker/memory-container-client.js';
export { type JoinOptions, type JoinResult, joinControlPlane } from './fleet/join.js';
export {
  type SimulatedGpuControl,
  simulatedGpuControlPath,
  simulatedUuid,
  writeSimulatedGpuControl,
} from './gpu/simulated-gpu-probe.js';
export type { StaticHostFacts } from './host/host-facts.js';
export { AGENT_BUILD, AGENT_VERSION } from './version.js';
