import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { ProtoGrpcType } from './generated/agent.js';

export type * from './generated/index.js';
export type { ProtoGrpcType };

/** Absolute path of the agent contract. */
export const protoPath = fileURLToPath(new URL('../agent/v1/agent.proto', import.meta.url));

/** The loader options both sides use; they match the flags the types were generated with. */
export const LOADER_OPTIONS: protoLoader.Options = {
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  keepCase: false,
};

/** Metadata key carrying the node token (`Bearer <token>`). */
export const AUTH_METADATA_KEY = 'authorization';

let cached: ProtoGrpcType | undefined;

/** Loads the agent package once per process. */
export function loadAgentProto(): ProtoGrpcType {
  if (!cached) {
    const definition = protoLoader.loadSync(protoPath, LOADER_OPTIONS);
    cached = grpc.loadPackageDefinition(definition) as unknown as ProtoGrpcType;
  }
  return cached;
}

/** The service definition to add to a grpc.Server. */
export function agentServiceDefinition(): grpc.ServiceDefinition {
  return loadAgentProto().gpucloud.agent.v1.NodeAgent.service;
}

/**
 * The version of the agent contract this checkout speaks (HostInfo.protocol_version). A change
 * that an older peer would misread raises it; the control plane keeps every version it still
 * speaks in SUPPORTED_AGENT_PROTOCOLS and refuses an agent with any other.
 */
export const AGENT_PROTOCOL_VERSION = 1;
export const SUPPORTED_AGENT_PROTOCOLS: readonly number[] = [1];

/** The protocol an agent speaks, from its HostInfo.protocol_version (0: older than the field, 1). */
export function agentProtocolOf(reported: number | undefined): number {
  return reported ? reported : 1;
}
