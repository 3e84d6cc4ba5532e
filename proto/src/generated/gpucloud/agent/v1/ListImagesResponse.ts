// Original file: agent/v1/agent.proto

import type { ImageSummary as _gpucloud_agent_v1_ImageSummary, ImageSummary__Output as _gpucloud_agent_v1_ImageSummary__Output } from '../../../gpucloud/agent/v1/ImageSummary';
import type { Long } from '@grpc/proto-loader';

export interface ListImagesResponse {
  'images'?: (_gpucloud_agent_v1_ImageSummary)[];
  'pulling'?: (string)[];
  'diskTotalBytes'?: (number | string | Long);
  'diskFreeBytes'?: (number | string | Long);
}

export interface ListImagesResponse__Output {
  'images': (_gpucloud_agent_v1_ImageSummary__Output)[];
  'pulling': (string)[];
  'diskTotalBytes': (string);
  'diskFreeBytes': (string);
}
