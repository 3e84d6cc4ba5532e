// Original file: agent/v1/agent.proto

import type { GpuInfo as _gpucloud_agent_v1_GpuInfo, GpuInfo__Output as _gpucloud_agent_v1_GpuInfo__Output } from '../../../gpucloud/agent/v1/GpuInfo';
import type { Long } from '@grpc/proto-loader';

export interface HostInfo {
  'hostname'?: (string);
  'agentVersion'?: (string);
  'os'?: (string);
  'kernel'?: (string);
  'arch'?: (string);
  'cpuModel'?: (string);
  'cpuCores'?: (number);
  'memoryTotalBytes'?: (number | string | Long);
  'diskTotalBytes'?: (number | string | Long);
  'diskFreeBytes'?: (number | string | Long);
  'dockerAvailable'?: (boolean);
  'dockerVersion'?: (string);
  'dockerError'?: (string);
  'nvidiaDriverVersion'?: (string);
  'cudaVersion'?: (string);
  'containerToolkitVersion'?: (string);
  'simulated'?: (boolean);
  'unsafeReason'?: (string);
  'gpus'?: (_gpucloud_agent_v1_GpuInfo)[];
  'portRangeStart'?: (number);
  'portRangeEnd'?: (number);
  'publicHost'?: (string);
  'gpuDevicePath'?: (string);
  'containerToolkitMode'?: (string);
  'nvidiaContainerCliVersion'?: (string);
  'nvidiaContainerRuntimeHookVersion'?: (string);
  'nvidiaCdiHookVersion'?: (string);
  'warnings'?: (string)[];
  'gpuProbeError'?: (string);
  'protocolVersion'?: (number);
  'agentBuild'?: (string);
  'imageDiskFreeBytes'?: (number | string | Long);
  'imageDiskTotalBytes'?: (number | string | Long);
  'volumeDiskFreeBytes'?: (number | string | Long);
  'volumeDiskTotalBytes'?: (number | string | Long);
  'certificateExpiresUnixMs'?: (number | string | Long);
}

export interface HostInfo__Output {
  'hostname': (string);
  'agentVersion': (string);
  'os': (string);
  'kernel': (string);
  'arch': (string);
  'cpuModel': (string);
  'cpuCores': (number);
  'memoryTotalBytes': (string);
  'diskTotalBytes': (string);
  'diskFreeBytes': (string);
  'dockerAvailable': (boolean);
  'dockerVersion': (string);
  'dockerError': (string);
  'nvidiaDriverVersion': (string);
  'cudaVersion': (string);
  'containerToolkitVersion': (string);
  'simulated': (boolean);
  'unsafeReason': (string);
  'gpus': (_gpucloud_agent_v1_GpuInfo__Output)[];
  'portRangeStart': (number);
  'portRangeEnd': (number);
  'publicHost': (string);
  'gpuDevicePath': (string);
  'containerToolkitMode': (string);
  'nvidiaContainerCliVersion': (string);
  'nvidiaContainerRuntimeHookVersion': (string);
  'nvidiaCdiHookVersion': (string);
  'warnings': (string)[];
  'gpuProbeError': (string);
  'protocolVersion': (number);
  'agentBuild': (string);
  'imageDiskFreeBytes': (string);
  'imageDiskTotalBytes': (string);
  'volumeDiskFreeBytes': (string);
  'volumeDiskTotalBytes': (string);
  'certificateExpiresUnixMs': (string);
}
