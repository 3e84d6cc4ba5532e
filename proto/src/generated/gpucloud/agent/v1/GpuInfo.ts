// Original file: agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface GpuInfo {
  'index'?: (number);
  'uuid'?: (string);
  'model'?: (string);
  'memoryTotalMib'?: (number | string | Long);
  'memoryUsedMib'?: (number | string | Long);
  'utilizationPercent'?: (number);
  'memoryUtilizationPercent'?: (number);
  'temperatureC'?: (number);
  'powerDrawW'?: (number | string);
  'powerLimitW'?: (number | string);
  'pciBusId'?: (string);
  'healthProblem'?: (string);
  'persistenceMode'?: (boolean);
  'migEnabled'?: (boolean);
  'fabricState'?: (string);
  'numaNode'?: (number);
  'nvlinkPeers'?: (string)[];
}

export interface GpuInfo__Output {
  'index': (number);
  'uuid': (string);
  'model': (string);
  'memoryTotalMib': (string);
  'memoryUsedMib': (string);
  'utilizationPercent': (number);
  'memoryUtilizationPercent': (number);
  'temperatureC': (number);
  'powerDrawW': (number);
  'powerLimitW': (number);
  'pciBusId': (string);
  'healthProblem': (string);
  'persistenceMode': (boolean);
  'migEnabled': (boolean);
  'fabricState': (string);
  'numaNode': (number);
  'nvlinkPeers': (string)[];
}
