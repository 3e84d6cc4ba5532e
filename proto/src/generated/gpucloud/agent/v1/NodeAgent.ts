// Original file: agent/v1/agent.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AgentEvent as _gpucloud_agent_v1_AgentEvent, AgentEvent__Output as _gpucloud_agent_v1_AgentEvent__Output } from '../../../gpucloud/agent/v1/AgentEvent';
import type { ConsoleInput as _gpucloud_agent_v1_ConsoleInput, ConsoleInput__Output as _gpucloud_agent_v1_ConsoleInput__Output } from '../../../gpucloud/agent/v1/ConsoleInput';
import type { ConsoleOutput as _gpucloud_agent_v1_ConsoleOutput, ConsoleOutput__Output as _gpucloud_agent_v1_ConsoleOutput__Output } from '../../../gpucloud/agent/v1/ConsoleOutput';
import type { ContainerInfo as _gpucloud_agent_v1_ContainerInfo, ContainerInfo__Output as _gpucloud_agent_v1_ContainerInfo__Output } from '../../../gpucloud/agent/v1/ContainerInfo';
import type { ContainerRef as _gpucloud_agent_v1_ContainerRef, ContainerRef__Output as _gpucloud_agent_v1_ContainerRef__Output } from '../../../gpucloud/agent/v1/ContainerRef';
import type { CreateContainerRequest as _gpucloud_agent_v1_CreateContainerRequest, CreateContainerRequest__Output as _gpucloud_agent_v1_CreateContainerRequest__Output } from '../../../gpucloud/agent/v1/CreateContainerRequest';
import type { CreateVolumeRequest as _gpucloud_agent_v1_CreateVolumeRequest, CreateVolumeRequest__Output as _gpucloud_agent_v1_CreateVolumeRequest__Output } from '../../../gpucloud/agent/v1/CreateVolumeRequest';
import type { DeleteVolumeProgress as _gpucloud_agent_v1_DeleteVolumeProgress, DeleteVolumeProgress__Output as _gpucloud_agent_v1_DeleteVolumeProgress__Output } from '../../../gpucloud/agent/v1/DeleteVolumeProgress';
import type { DeleteVolumeRequest as _gpucloud_agent_v1_DeleteVolumeRequest, DeleteVolumeRequest__Output as _gpucloud_agent_v1_DeleteVolumeRequest__Output } from '../../../gpucloud/agent/v1/DeleteVolumeRequest';
import type { DeleteVolumeResponse as _gpucloud_agent_v1_DeleteVolumeResponse, DeleteVolumeResponse__Output as _gpucloud_agent_v1_DeleteVolumeResponse__Output } from '../../../gpucloud/agent/v1/DeleteVolumeResponse';
import type { GetHostInfoRequest as _gpucloud_agent_v1_GetHostInfoRequest, GetHostInfoRequest__Output as _gpucloud_agent_v1_GetHostInfoRequest__Output } from '../../../gpucloud/agent/v1/GetHostInfoRequest';
import type { HostInfo as _gpucloud_agent_v1_HostInfo, HostInfo__Output as _gpucloud_agent_v1_HostInfo__Output } from '../../../gpucloud/agent/v1/HostInfo';
import type { InstallCertificateRequest as _gpucloud_agent_v1_InstallCertificateRequest, InstallCertificateRequest__Output as _gpucloud_agent_v1_InstallCertificateRequest__Output } from '../../../gpucloud/agent/v1/InstallCertificateRequest';
import type { InstallCertificateResponse as _gpucloud_agent_v1_InstallCertificateResponse, InstallCertificateResponse__Output as _gpucloud_agent_v1_InstallCertificateResponse__Output } from '../../../gpucloud/agent/v1/InstallCertificateResponse';
import type { ListContainersRequest as _gpucloud_agent_v1_ListContainersRequest, ListContainersRequest__Output as _gpucloud_agent_v1_ListContainersRequest__Output } from '../../../gpucloud/agent/v1/ListContainersRequest';
import type { ListContainersResponse as _gpucloud_agent_v1_ListContainersResponse, ListContainersResponse__Output as _gpucloud_agent_v1_ListContainersResponse__Output } from '../../../gpucloud/agent/v1/ListContainersResponse';
import type { ListImagesRequest as _gpucloud_agent_v1_ListImagesRequest, ListImagesRequest__Output as _gpucloud_agent_v1_ListImagesRequest__Output } from '../../../gpucloud/agent/v1/ListImagesRequest';
import type { ListImagesResponse as _gpucloud_agent_v1_ListImagesResponse, ListImagesResponse__Output as _gpucloud_agent_v1_ListImagesResponse__Output } from '../../../gpucloud/agent/v1/ListImagesResponse';
import type { ListOccupiedPortsRequest as _gpucloud_agent_v1_ListOccupiedPortsRequest, ListOccupiedPortsRequest__Output as _gpucloud_agent_v1_ListOccupiedPortsRequest__Output } from '../../../gpucloud/agent/v1/ListOccupiedPortsRequest';
import type { ListOccupiedPortsResponse as _gpucloud_agent_v1_ListOccupiedPortsResponse, ListOccupiedPortsResponse__Output as _gpucloud_agent_v1_ListOccupiedPortsResponse__Output } from '../../../gpucloud/agent/v1/ListOccupiedPortsResponse';
import type { ListVolumesRequest as _gpucloud_agent_v1_ListVolumesRequest, ListVolumesRequest__Output as _gpucloud_agent_v1_ListVolumesRequest__Output } from '../../../gpucloud/agent/v1/ListVolumesRequest';
import type { ListVolumesResponse as _gpucloud_agent_v1_ListVolumesResponse, ListVolumesResponse__Output as _gpucloud_agent_v1_ListVolumesResponse__Output } from '../../../gpucloud/agent/v1/ListVolumesResponse';
import type { LogChunk as _gpucloud_agent_v1_LogChunk, LogChunk__Output as _gpucloud_agent_v1_LogChunk__Output } from '../../../gpucloud/agent/v1/LogChunk';
import type { PullImageProgress as _gpucloud_agent_v1_PullImageProgress, PullImageProgress__Output as _gpucloud_agent_v1_PullImageProgress__Output } from '../../../gpucloud/agent/v1/PullImageProgress';
import type { PullImageRequest as _gpucloud_agent_v1_PullImageRequest, PullImageRequest__Output as _gpucloud_agent_v1_PullImageRequest__Output } from '../../../gpucloud/agent/v1/PullImageRequest';
import type { ReconfigureContainerRequest as _gpucloud_agent_v1_ReconfigureContainerRequest, ReconfigureContainerRequest__Output as _gpucloud_agent_v1_ReconfigureContainerRequest__Output } from '../../../gpucloud/agent/v1/ReconfigureContainerRequest';
import type { RemoveContainerRequest as _gpucloud_agent_v1_RemoveContainerRequest, RemoveContainerRequest__Output as _gpucloud_agent_v1_RemoveContainerRequest__Output } from '../../../gpucloud/agent/v1/RemoveContainerRequest';
import type { RemoveContainerResponse as _gpucloud_agent_v1_RemoveContainerResponse, RemoveContainerResponse__Output as _gpucloud_agent_v1_RemoveContainerResponse__Output } from '../../../gpucloud/agent/v1/RemoveContainerResponse';
import type { RemoveImageRequest as _gpucloud_agent_v1_RemoveImageRequest, RemoveImageRequest__Output as _gpucloud_agent_v1_RemoveImageRequest__Output } from '../../../gpucloud/agent/v1/RemoveImageRequest';
import type { RemoveImageResponse as _gpucloud_agent_v1_RemoveImageResponse, RemoveImageResponse__Output as _gpucloud_agent_v1_RemoveImageResponse__Output } from '../../../gpucloud/agent/v1/RemoveImageResponse';
import type { RenameVolumeRequest as _gpucloud_agent_v1_RenameVolumeRequest, RenameVolumeRequest__Output as _gpucloud_agent_v1_RenameVolumeRequest__Output } from '../../../gpucloud/agent/v1/RenameVolumeRequest';
import type { RenewCertificateRequest as _gpucloud_agent_v1_RenewCertificateRequest, RenewCertificateRequest__Output as _gpucloud_agent_v1_RenewCertificateRequest__Output } from '../../../gpucloud/agent/v1/RenewCertificateRequest';
import type { RenewCertificateResponse as _gpucloud_agent_v1_RenewCertificateResponse, RenewCertificateResponse__Output as _gpucloud_agent_v1_RenewCertificateResponse__Output } from '../../../gpucloud/agent/v1/RenewCertificateResponse';
import type { ResetPasswordRequest as _gpucloud_agent_v1_ResetPasswordRequest, ResetPasswordRequest__Output as _gpucloud_agent_v1_ResetPasswordRequest__Output } from '../../../gpucloud/agent/v1/ResetPasswordRequest';
import type { ResetPasswordResponse as _gpucloud_agent_v1_ResetPasswordResponse, ResetPasswordResponse__Output as _gpucloud_agent_v1_ResetPasswordResponse__Output } from '../../../gpucloud/agent/v1/ResetPasswordResponse';
import type { SaveImageProgress as _gpucloud_agent_v1_SaveImageProgress, SaveImageProgress__Output as _gpucloud_agent_v1_SaveImageProgress__Output } from '../../../gpucloud/agent/v1/SaveImageProgress';
import type { SaveImageRequest as _gpucloud_agent_v1_SaveImageRequest, SaveImageRequest__Output as _gpucloud_agent_v1_SaveImageRequest__Output } from '../../../gpucloud/agent/v1/SaveImageRequest';
import type { StartContainerRequest as _gpucloud_agent_v1_StartContainerRequest, StartContainerRequest__Output as _gpucloud_agent_v1_StartContainerRequest__Output } from '../../../gpucloud/agent/v1/StartContainerRequest';
import type { StopContainerRequest as _gpucloud_agent_v1_StopContainerRequest, StopContainerRequest__Output as _gpucloud_agent_v1_StopContainerRequest__Output } from '../../../gpucloud/agent/v1/StopContainerRequest';
import type { StreamLogsRequest as _gpucloud_agent_v1_StreamLogsRequest, StreamLogsRequest__Output as _gpucloud_agent_v1_StreamLogsRequest__Output } from '../../../gpucloud/agent/v1/StreamLogsRequest';
import type { UpgradeAgentChunk as _gpucloud_agent_v1_UpgradeAgentChunk, UpgradeAgentChunk__Output as _gpucloud_agent_v1_UpgradeAgentChunk__Output } from '../../../gpucloud/agent/v1/UpgradeAgentChunk';
import type { UpgradeAgentResponse as _gpucloud_agent_v1_UpgradeAgentResponse, UpgradeAgentResponse__Output as _gpucloud_agent_v1_UpgradeAgentResponse__Output } from '../../../gpucloud/agent/v1/UpgradeAgentResponse';
import type { Volume as _gpucloud_agent_v1_Volume, Volume__Output as _gpucloud_agent_v1_Volume__Output } from '../../../gpucloud/agent/v1/Volume';
import type { VolumeRef as _gpucloud_agent_v1_VolumeRef, VolumeRef__Output as _gpucloud_agent_v1_VolumeRef__Output } from '../../../gpucloud/agent/v1/VolumeRef';
import type { WatchEventsRequest as _gpucloud_agent_v1_WatchEventsRequest, WatchEventsRequest__Output as _gpucloud_agent_v1_WatchEventsRequest__Output } from '../../../gpucloud/agent/v1/WatchEventsRequest';

export interface NodeAgentClient extends grpc.Client {
  Console(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_gpucloud_agent_v1_ConsoleInput, _gpucloud_agent_v1_ConsoleOutput__Output>;
  Console(options?: grpc.CallOptions): grpc.ClientDuplexStream<_gpucloud_agent_v1_ConsoleInput, _gpucloud_agent_v1_ConsoleOutput__Output>;
  console(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_gpucloud_agent_v1_ConsoleInput, _gpucloud_agent_v1_ConsoleOutput__Output>;
  console(options?: grpc.CallOptions): grpc.ClientDuplexStream<_gpucloud_agent_v1_ConsoleInput, _gpucloud_agent_v1_ConsoleOutput__Output>;
  
  CreateContainer(argument: _gpucloud_agent_v1_CreateContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  CreateContainer(argument: _gpucloud_agent_v1_CreateContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  CreateContainer(argument: _gpucloud_agent_v1_CreateContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  CreateContainer(argument: _gpucloud_agent_v1_CreateContainerRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  createContainer(argument: _gpucloud_agent_v1_CreateContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  createContainer(argument: _gpucloud_agent_v1_CreateContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  createContainer(argument: _gpucloud_agent_v1_CreateContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  createContainer(argument: _gpucloud_agent_v1_CreateContainerRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  
  CreateVolume(argument: _gpucloud_agent_v1_CreateVolumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  CreateVolume(argument: _gpucloud_agent_v1_CreateVolumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  CreateVolume(argument: _gpucloud_agent_v1_CreateVolumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  CreateVolume(argument: _gpucloud_agent_v1_CreateVolumeRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  createVolume(argument: _gpucloud_agent_v1_CreateVolumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  createVolume(argument: _gpucloud_agent_v1_CreateVolumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  createVolume(argument: _gpucloud_agent_v1_CreateVolumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  createVolume(argument: _gpucloud_agent_v1_CreateVolumeRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  
  DeleteVolume(argument: _gpucloud_agent_v1_DeleteVolumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_DeleteVolumeResponse__Output>): grpc.ClientUnaryCall;
  DeleteVolume(argument: _gpucloud_agent_v1_DeleteVolumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_DeleteVolumeResponse__Output>): grpc.ClientUnaryCall;
  DeleteVolume(argument: _gpucloud_agent_v1_DeleteVolumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_DeleteVolumeResponse__Output>): grpc.ClientUnaryCall;
  DeleteVolume(argument: _gpucloud_agent_v1_DeleteVolumeRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_DeleteVolumeResponse__Output>): grpc.ClientUnaryCall;
  deleteVolume(argument: _gpucloud_agent_v1_DeleteVolumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_DeleteVolumeResponse__Output>): grpc.ClientUnaryCall;
  deleteVolume(argument: _gpucloud_agent_v1_DeleteVolumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_DeleteVolumeResponse__Output>): grpc.ClientUnaryCall;
  deleteVolume(argument: _gpucloud_agent_v1_DeleteVolumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_DeleteVolumeResponse__Output>): grpc.ClientUnaryCall;
  deleteVolume(argument: _gpucloud_agent_v1_DeleteVolumeRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_DeleteVolumeResponse__Output>): grpc.ClientUnaryCall;
  
  DeleteVolumeWithProgress(argument: _gpucloud_agent_v1_DeleteVolumeRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_DeleteVolumeProgress__Output>;
  DeleteVolumeWithProgress(argument: _gpucloud_agent_v1_DeleteVolumeRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_DeleteVolumeProgress__Output>;
  deleteVolumeWithProgress(argument: _gpucloud_agent_v1_DeleteVolumeRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_DeleteVolumeProgress__Output>;
  deleteVolumeWithProgress(argument: _gpucloud_agent_v1_DeleteVolumeRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_DeleteVolumeProgress__Output>;
  
  GetHostInfo(argument: _gpucloud_agent_v1_GetHostInfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_HostInfo__Output>): grpc.ClientUnaryCall;
  GetHostInfo(argument: _gpucloud_agent_v1_GetHostInfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_HostInfo__Output>): grpc.ClientUnaryCall;
  GetHostInfo(argument: _gpucloud_agent_v1_GetHostInfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_HostInfo__Output>): grpc.ClientUnaryCall;
  GetHostInfo(argument: _gpucloud_agent_v1_GetHostInfoRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_HostInfo__Output>): grpc.ClientUnaryCall;
  getHostInfo(argument: _gpucloud_agent_v1_GetHostInfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_HostInfo__Output>): grpc.ClientUnaryCall;
  getHostInfo(argument: _gpucloud_agent_v1_GetHostInfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_HostInfo__Output>): grpc.ClientUnaryCall;
  getHostInfo(argument: _gpucloud_agent_v1_GetHostInfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_HostInfo__Output>): grpc.ClientUnaryCall;
  getHostInfo(argument: _gpucloud_agent_v1_GetHostInfoRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_HostInfo__Output>): grpc.ClientUnaryCall;
  
  GetVolumeUsage(argument: _gpucloud_agent_v1_VolumeRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  GetVolumeUsage(argument: _gpucloud_agent_v1_VolumeRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  GetVolumeUsage(argument: _gpucloud_agent_v1_VolumeRef, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  GetVolumeUsage(argument: _gpucloud_agent_v1_VolumeRef, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  getVolumeUsage(argument: _gpucloud_agent_v1_VolumeRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  getVolumeUsage(argument: _gpucloud_agent_v1_VolumeRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  getVolumeUsage(argument: _gpucloud_agent_v1_VolumeRef, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  getVolumeUsage(argument: _gpucloud_agent_v1_VolumeRef, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  
  InspectContainer(argument: _gpucloud_agent_v1_ContainerRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  InspectContainer(argument: _gpucloud_agent_v1_ContainerRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  InspectContainer(argument: _gpucloud_agent_v1_ContainerRef, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  InspectContainer(argument: _gpucloud_agent_v1_ContainerRef, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  inspectContainer(argument: _gpucloud_agent_v1_ContainerRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  inspectContainer(argument: _gpucloud_agent_v1_ContainerRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  inspectContainer(argument: _gpucloud_agent_v1_ContainerRef, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  inspectContainer(argument: _gpucloud_agent_v1_ContainerRef, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  
  InstallCertificate(argument: _gpucloud_agent_v1_InstallCertificateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_InstallCertificateResponse__Output>): grpc.ClientUnaryCall;
  InstallCertificate(argument: _gpucloud_agent_v1_InstallCertificateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_InstallCertificateResponse__Output>): grpc.ClientUnaryCall;
  InstallCertificate(argument: _gpucloud_agent_v1_InstallCertificateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_InstallCertificateResponse__Output>): grpc.ClientUnaryCall;
  InstallCertificate(argument: _gpucloud_agent_v1_InstallCertificateRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_InstallCertificateResponse__Output>): grpc.ClientUnaryCall;
  installCertificate(argument: _gpucloud_agent_v1_InstallCertificateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_InstallCertificateResponse__Output>): grpc.ClientUnaryCall;
  installCertificate(argument: _gpucloud_agent_v1_InstallCertificateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_InstallCertificateResponse__Output>): grpc.ClientUnaryCall;
  installCertificate(argument: _gpucloud_agent_v1_InstallCertificateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_InstallCertificateResponse__Output>): grpc.ClientUnaryCall;
  installCertificate(argument: _gpucloud_agent_v1_InstallCertificateRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_InstallCertificateResponse__Output>): grpc.ClientUnaryCall;
  
  ListContainers(argument: _gpucloud_agent_v1_ListContainersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  ListContainers(argument: _gpucloud_agent_v1_ListContainersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  ListContainers(argument: _gpucloud_agent_v1_ListContainersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  ListContainers(argument: _gpucloud_agent_v1_ListContainersRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  listContainers(argument: _gpucloud_agent_v1_ListContainersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  listContainers(argument: _gpucloud_agent_v1_ListContainersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  listContainers(argument: _gpucloud_agent_v1_ListContainersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  listContainers(argument: _gpucloud_agent_v1_ListContainersRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ListContainersResponse__Output>): grpc.ClientUnaryCall;
  
  ListImages(argument: _gpucloud_agent_v1_ListImagesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ListImagesResponse__Output>): grpc.ClientUnaryCall;
  ListImages(argument: _gpucloud_agent_v1_ListImagesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ListImagesResponse__Output>): grpc.ClientUnaryCall;
  ListImages(argument: _gpucloud_agent_v1_ListImagesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ListImagesResponse__Output>): grpc.ClientUnaryCall;
  ListImages(argument: _gpucloud_agent_v1_ListImagesRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ListImagesResponse__Output>): grpc.ClientUnaryCall;
  listImages(argument: _gpucloud_agent_v1_ListImagesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ListImagesResponse__Output>): grpc.ClientUnaryCall;
  listImages(argument: _gpucloud_agent_v1_ListImagesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ListImagesResponse__Output>): grpc.ClientUnaryCall;
  listImages(argument: _gpucloud_agent_v1_ListImagesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ListImagesResponse__Output>): grpc.ClientUnaryCall;
  listImages(argument: _gpucloud_agent_v1_ListImagesRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ListImagesResponse__Output>): grpc.ClientUnaryCall;
  
  ListOccupiedPorts(argument: _gpucloud_agent_v1_ListOccupiedPortsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ListOccupiedPortsResponse__Output>): grpc.ClientUnaryCall;
  ListOccupiedPorts(argument: _gpucloud_agent_v1_ListOccupiedPortsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ListOccupiedPortsResponse__Output>): grpc.ClientUnaryCall;
  ListOccupiedPorts(argument: _gpucloud_agent_v1_ListOccupiedPortsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ListOccupiedPortsResponse__Output>): grpc.ClientUnaryCall;
  ListOccupiedPorts(argument: _gpucloud_agent_v1_ListOccupiedPortsRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ListOccupiedPortsResponse__Output>): grpc.ClientUnaryCall;
  listOccupiedPorts(argument: _gpucloud_agent_v1_ListOccupiedPortsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ListOccupiedPortsResponse__Output>): grpc.ClientUnaryCall;
  listOccupiedPorts(argument: _gpucloud_agent_v1_ListOccupiedPortsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ListOccupiedPortsResponse__Output>): grpc.ClientUnaryCall;
  listOccupiedPorts(argument: _gpucloud_agent_v1_ListOccupiedPortsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ListOccupiedPortsResponse__Output>): grpc.ClientUnaryCall;
  listOccupiedPorts(argument: _gpucloud_agent_v1_ListOccupiedPortsRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ListOccupiedPortsResponse__Output>): grpc.ClientUnaryCall;
  
  ListVolumes(argument: _gpucloud_agent_v1_ListVolumesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ListVolumesResponse__Output>): grpc.ClientUnaryCall;
  ListVolumes(argument: _gpucloud_agent_v1_ListVolumesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ListVolumesResponse__Output>): grpc.ClientUnaryCall;
  ListVolumes(argument: _gpucloud_agent_v1_ListVolumesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ListVolumesResponse__Output>): grpc.ClientUnaryCall;
  ListVolumes(argument: _gpucloud_agent_v1_ListVolumesRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ListVolumesResponse__Output>): grpc.ClientUnaryCall;
  listVolumes(argument: _gpucloud_agent_v1_ListVolumesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ListVolumesResponse__Output>): grpc.ClientUnaryCall;
  listVolumes(argument: _gpucloud_agent_v1_ListVolumesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ListVolumesResponse__Output>): grpc.ClientUnaryCall;
  listVolumes(argument: _gpucloud_agent_v1_ListVolumesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ListVolumesResponse__Output>): grpc.ClientUnaryCall;
  listVolumes(argument: _gpucloud_agent_v1_ListVolumesRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ListVolumesResponse__Output>): grpc.ClientUnaryCall;
  
  PullImage(argument: _gpucloud_agent_v1_PullImageRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_PullImageProgress__Output>;
  PullImage(argument: _gpucloud_agent_v1_PullImageRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_PullImageProgress__Output>;
  pullImage(argument: _gpucloud_agent_v1_PullImageRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_PullImageProgress__Output>;
  pullImage(argument: _gpucloud_agent_v1_PullImageRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_PullImageProgress__Output>;
  
  ReconfigureContainer(argument: _gpucloud_agent_v1_ReconfigureContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  ReconfigureContainer(argument: _gpucloud_agent_v1_ReconfigureContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  ReconfigureContainer(argument: _gpucloud_agent_v1_ReconfigureContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  ReconfigureContainer(argument: _gpucloud_agent_v1_ReconfigureContainerRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  reconfigureContainer(argument: _gpucloud_agent_v1_ReconfigureContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  reconfigureContainer(argument: _gpucloud_agent_v1_ReconfigureContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  reconfigureContainer(argument: _gpucloud_agent_v1_ReconfigureContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  reconfigureContainer(argument: _gpucloud_agent_v1_ReconfigureContainerRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  
  RemoveContainer(argument: _gpucloud_agent_v1_RemoveContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  RemoveContainer(argument: _gpucloud_agent_v1_RemoveContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  RemoveContainer(argument: _gpucloud_agent_v1_RemoveContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  RemoveContainer(argument: _gpucloud_agent_v1_RemoveContainerRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  removeContainer(argument: _gpucloud_agent_v1_RemoveContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  removeContainer(argument: _gpucloud_agent_v1_RemoveContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  removeContainer(argument: _gpucloud_agent_v1_RemoveContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  removeContainer(argument: _gpucloud_agent_v1_RemoveContainerRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  
  RemoveImage(argument: _gpucloud_agent_v1_RemoveImageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_RemoveImageResponse__Output>): grpc.ClientUnaryCall;
  RemoveImage(argument: _gpucloud_agent_v1_RemoveImageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_RemoveImageResponse__Output>): grpc.ClientUnaryCall;
  RemoveImage(argument: _gpucloud_agent_v1_RemoveImageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_RemoveImageResponse__Output>): grpc.ClientUnaryCall;
  RemoveImage(argument: _gpucloud_agent_v1_RemoveImageRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_RemoveImageResponse__Output>): grpc.ClientUnaryCall;
  removeImage(argument: _gpucloud_agent_v1_RemoveImageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_RemoveImageResponse__Output>): grpc.ClientUnaryCall;
  removeImage(argument: _gpucloud_agent_v1_RemoveImageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_RemoveImageResponse__Output>): grpc.ClientUnaryCall;
  removeImage(argument: _gpucloud_agent_v1_RemoveImageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_RemoveImageResponse__Output>): grpc.ClientUnaryCall;
  removeImage(argument: _gpucloud_agent_v1_RemoveImageRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_RemoveImageResponse__Output>): grpc.ClientUnaryCall;
  
  RenameVolume(argument: _gpucloud_agent_v1_RenameVolumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  RenameVolume(argument: _gpucloud_agent_v1_RenameVolumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  RenameVolume(argument: _gpucloud_agent_v1_RenameVolumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  RenameVolume(argument: _gpucloud_agent_v1_RenameVolumeRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  renameVolume(argument: _gpucloud_agent_v1_RenameVolumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  renameVolume(argument: _gpucloud_agent_v1_RenameVolumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  renameVolume(argument: _gpucloud_agent_v1_RenameVolumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  renameVolume(argument: _gpucloud_agent_v1_RenameVolumeRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_Volume__Output>): grpc.ClientUnaryCall;
  
  RenewCertificate(argument: _gpucloud_agent_v1_RenewCertificateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_RenewCertificateResponse__Output>): grpc.ClientUnaryCall;
  RenewCertificate(argument: _gpucloud_agent_v1_RenewCertificateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_RenewCertificateResponse__Output>): grpc.ClientUnaryCall;
  RenewCertificate(argument: _gpucloud_agent_v1_RenewCertificateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_RenewCertificateResponse__Output>): grpc.ClientUnaryCall;
  RenewCertificate(argument: _gpucloud_agent_v1_RenewCertificateRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_RenewCertificateResponse__Output>): grpc.ClientUnaryCall;
  renewCertificate(argument: _gpucloud_agent_v1_RenewCertificateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_RenewCertificateResponse__Output>): grpc.ClientUnaryCall;
  renewCertificate(argument: _gpucloud_agent_v1_RenewCertificateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_RenewCertificateResponse__Output>): grpc.ClientUnaryCall;
  renewCertificate(argument: _gpucloud_agent_v1_RenewCertificateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_RenewCertificateResponse__Output>): grpc.ClientUnaryCall;
  renewCertificate(argument: _gpucloud_agent_v1_RenewCertificateRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_RenewCertificateResponse__Output>): grpc.ClientUnaryCall;
  
  ResetPassword(argument: _gpucloud_agent_v1_ResetPasswordRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ResetPasswordResponse__Output>): grpc.ClientUnaryCall;
  ResetPassword(argument: _gpucloud_agent_v1_ResetPasswordRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ResetPasswordResponse__Output>): grpc.ClientUnaryCall;
  ResetPassword(argument: _gpucloud_agent_v1_ResetPasswordRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ResetPasswordResponse__Output>): grpc.ClientUnaryCall;
  ResetPassword(argument: _gpucloud_agent_v1_ResetPasswordRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ResetPasswordResponse__Output>): grpc.ClientUnaryCall;
  resetPassword(argument: _gpucloud_agent_v1_ResetPasswordRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ResetPasswordResponse__Output>): grpc.ClientUnaryCall;
  resetPassword(argument: _gpucloud_agent_v1_ResetPasswordRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ResetPasswordResponse__Output>): grpc.ClientUnaryCall;
  resetPassword(argument: _gpucloud_agent_v1_ResetPasswordRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ResetPasswordResponse__Output>): grpc.ClientUnaryCall;
  resetPassword(argument: _gpucloud_agent_v1_ResetPasswordRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ResetPasswordResponse__Output>): grpc.ClientUnaryCall;
  
  SaveImage(argument: _gpucloud_agent_v1_SaveImageRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_SaveImageProgress__Output>;
  SaveImage(argument: _gpucloud_agent_v1_SaveImageRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_SaveImageProgress__Output>;
  saveImage(argument: _gpucloud_agent_v1_SaveImageRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_SaveImageProgress__Output>;
  saveImage(argument: _gpucloud_agent_v1_SaveImageRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_SaveImageProgress__Output>;
  
  StartContainer(argument: _gpucloud_agent_v1_StartContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  StartContainer(argument: _gpucloud_agent_v1_StartContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  StartContainer(argument: _gpucloud_agent_v1_StartContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  StartContainer(argument: _gpucloud_agent_v1_StartContainerRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  startContainer(argument: _gpucloud_agent_v1_StartContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  startContainer(argument: _gpucloud_agent_v1_StartContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  startContainer(argument: _gpucloud_agent_v1_StartContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  startContainer(argument: _gpucloud_agent_v1_StartContainerRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  
  StopContainer(argument: _gpucloud_agent_v1_StopContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  StopContainer(argument: _gpucloud_agent_v1_StopContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  StopContainer(argument: _gpucloud_agent_v1_StopContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  StopContainer(argument: _gpucloud_agent_v1_StopContainerRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  stopContainer(argument: _gpucloud_agent_v1_StopContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  stopContainer(argument: _gpucloud_agent_v1_StopContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  stopContainer(argument: _gpucloud_agent_v1_StopContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  stopContainer(argument: _gpucloud_agent_v1_StopContainerRequest, callback: grpc.requestCallback<_gpucloud_agent_v1_ContainerInfo__Output>): grpc.ClientUnaryCall;
  
  StreamLogs(argument: _gpucloud_agent_v1_StreamLogsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_LogChunk__Output>;
  StreamLogs(argument: _gpucloud_agent_v1_StreamLogsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_LogChunk__Output>;
  streamLogs(argument: _gpucloud_agent_v1_StreamLogsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_LogChunk__Output>;
  streamLogs(argument: _gpucloud_agent_v1_StreamLogsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_LogChunk__Output>;
  
  UpgradeAgent(metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_UpgradeAgentResponse__Output>): grpc.ClientWritableStream<_gpucloud_agent_v1_UpgradeAgentChunk>;
  UpgradeAgent(metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_UpgradeAgentResponse__Output>): grpc.ClientWritableStream<_gpucloud_agent_v1_UpgradeAgentChunk>;
  UpgradeAgent(options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_UpgradeAgentResponse__Output>): grpc.ClientWritableStream<_gpucloud_agent_v1_UpgradeAgentChunk>;
  UpgradeAgent(callback: grpc.requestCallback<_gpucloud_agent_v1_UpgradeAgentResponse__Output>): grpc.ClientWritableStream<_gpucloud_agent_v1_UpgradeAgentChunk>;
  upgradeAgent(metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_UpgradeAgentResponse__Output>): grpc.ClientWritableStream<_gpucloud_agent_v1_UpgradeAgentChunk>;
  upgradeAgent(metadata: grpc.Metadata, callback: grpc.requestCallback<_gpucloud_agent_v1_UpgradeAgentResponse__Output>): grpc.ClientWritableStream<_gpucloud_agent_v1_UpgradeAgentChunk>;
  upgradeAgent(options: grpc.CallOptions, callback: grpc.requestCallback<_gpucloud_agent_v1_UpgradeAgentResponse__Output>): grpc.ClientWritableStream<_gpucloud_agent_v1_UpgradeAgentChunk>;
  upgradeAgent(callback: grpc.requestCallback<_gpucloud_agent_v1_UpgradeAgentResponse__Output>): grpc.ClientWritableStream<_gpucloud_agent_v1_UpgradeAgentChunk>;
  
  WatchEvents(argument: _gpucloud_agent_v1_WatchEventsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_AgentEvent__Output>;
  WatchEvents(argument: _gpucloud_agent_v1_WatchEventsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_AgentEvent__Output>;
  watchEvents(argument: _gpucloud_agent_v1_WatchEventsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_AgentEvent__Output>;
  watchEvents(argument: _gpucloud_agent_v1_WatchEventsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gpucloud_agent_v1_AgentEvent__Output>;
  
}

export interface NodeAgentHandlers extends grpc.UntypedServiceImplementation {
  Console: grpc.handleBidiStreamingCall<_gpucloud_agent_v1_ConsoleInput__Output, _gpucloud_agent_v1_ConsoleOutput>;
  
  CreateContainer: grpc.handleUnaryCall<_gpucloud_agent_v1_CreateContainerRequest__Output, _gpucloud_agent_v1_ContainerInfo>;
  
  CreateVolume: grpc.handleUnaryCall<_gpucloud_agent_v1_CreateVolumeRequest__Output, _gpucloud_agent_v1_Volume>;
  
  DeleteVolume: grpc.handleUnaryCall<_gpucloud_agent_v1_DeleteVolumeRequest__Output, _gpucloud_agent_v1_DeleteVolumeResponse>;
  
  DeleteVolumeWithProgress: grpc.handleServerStreamingCall<_gpucloud_agent_v1_DeleteVolumeRequest__Output, _gpucloud_agent_v1_DeleteVolumeProgress>;
  
  GetHostInfo: grpc.handleUnaryCall<_gpucloud_agent_v1_GetHostInfoRequest__Output, _gpucloud_agent_v1_HostInfo>;
  
  GetVolumeUsage: grpc.handleUnaryCall<_gpucloud_agent_v1_VolumeRef__Output, _gpucloud_agent_v1_Volume>;
  
  InspectContainer: grpc.handleUnaryCall<_gpucloud_agent_v1_ContainerRef__Output, _gpucloud_agent_v1_ContainerInfo>;
  
  InstallCertificate: grpc.handleUnaryCall<_gpucloud_agent_v1_InstallCertificateRequest__Output, _gpucloud_agent_v1_InstallCertificateResponse>;
  
  ListContainers: grpc.handleUnaryCall<_gpucloud_agent_v1_ListContainersRequest__Output, _gpucloud_agent_v1_ListContainersResponse>;
  
  ListImages: grpc.handleUnaryCall<_gpucloud_agent_v1_ListImagesRequest__Output, _gpucloud_agent_v1_ListImagesResponse>;
  
  ListOccupiedPorts: grpc.handleUnaryCall<_gpucloud_agent_v1_ListOccupiedPortsRequest__Output, _gpucloud_agent_v1_ListOccupiedPortsResponse>;
  
  ListVolumes: grpc.handleUnaryCall<_gpucloud_agent_v1_ListVolumesRequest__Output, _gpucloud_agent_v1_ListVolumesResponse>;
  
  PullImage: grpc.handleServerStreamingCall<_gpucloud_agent_v1_PullImageRequest__Output, _gpucloud_agent_v1_PullImageProgress>;
  
  ReconfigureContainer: grpc.handleUnaryCall<_gpucloud_agent_v1_ReconfigureContainerRequest__Output, _gpucloud_agent_v1_ContainerInfo>;
  
  RemoveContainer: grpc.handleUnaryCall<_gpucloud_agent_v1_RemoveContainerRequest__Output, _gpucloud_agent_v1_RemoveContainerResponse>;
  
  RemoveImage: grpc.handleUnaryCall<_gpucloud_agent_v1_RemoveImageRequest__Output, _gpucloud_agent_v1_RemoveImageResponse>;
  
  RenameVolume: grpc.handleUnaryCall<_gpucloud_agent_v1_RenameVolumeRequest__Output, _gpucloud_agent_v1_Volume>;
  
  RenewCertificate: grpc.handleUnaryCall<_gpucloud_agent_v1_RenewCertificateRequest__Output, _gpucloud_agent_v1_RenewCertificateResponse>;
  
  ResetPassword: grpc.handleUnaryCall<_gpucloud_agent_v1_ResetPasswordRequest__Output, _gpucloud_agent_v1_ResetPasswordResponse>;
  
  SaveImage: grpc.handleServerStreamingCall<_gpucloud_agent_v1_SaveImageRequest__Output, _gpucloud_agent_v1_SaveImageProgress>;
  
  StartContainer: grpc.handleUnaryCall<_gpucloud_agent_v1_StartContainerRequest__Output, _gpucloud_agent_v1_ContainerInfo>;
  
  StopContainer: grpc.handleUnaryCall<_gpucloud_agent_v1_StopContainerRequest__Output, _gpucloud_agent_v1_ContainerInfo>;
  
  StreamLogs: grpc.handleServerStreamingCall<_gpucloud_agent_v1_StreamLogsRequest__Output, _gpucloud_agent_v1_LogChunk>;
  
  UpgradeAgent: grpc.handleClientStreamingCall<_gpucloud_agent_v1_UpgradeAgentChunk__Output, _gpucloud_agent_v1_UpgradeAgentResponse>;
  
  WatchEvents: grpc.handleServerStreamingCall<_gpucloud_agent_v1_WatchEventsRequest__Output, _gpucloud_agent_v1_AgentEvent>;
  
}

export interface NodeAgentDefinition extends grpc.ServiceDefinition {
  Console: MethodDefinition<_gpucloud_agent_v1_ConsoleInput, _gpucloud_agent_v1_ConsoleOutput, _gpucloud_agent_v1_ConsoleInput__Output, _gpucloud_agent_v1_ConsoleOutput__Output>
  CreateContainer: MethodDefinition<_gpucloud_agent_v1_CreateContainerRequest, _gpucloud_agent_v1_ContainerInfo, _gpucloud_agent_v1_CreateContainerRequest__Output, _gpucloud_agent_v1_ContainerInfo__Output>
  CreateVolume: MethodDefinition<_gpucloud_agent_v1_CreateVolumeRequest, _gpucloud_agent_v1_Volume, _gpucloud_agent_v1_CreateVolumeRequest__Output, _gpucloud_agent_v1_Volume__Output>
  DeleteVolume: MethodDefinition<_gpucloud_agent_v1_DeleteVolumeRequest, _gpucloud_agent_v1_DeleteVolumeResponse, _gpucloud_agent_v1_DeleteVolumeRequest__Output, _gpucloud_agent_v1_DeleteVolumeResponse__Output>
  DeleteVolumeWithProgress: MethodDefinition<_gpucloud_agent_v1_DeleteVolumeRequest, _gpucloud_agent_v1_DeleteVolumeProgress, _gpucloud_agent_v1_DeleteVolumeRequest__Output, _gpucloud_agent_v1_DeleteVolumeProgress__Output>
  GetHostInfo: MethodDefinition<_gpucloud_agent_v1_GetHostInfoRequest, _gpucloud_agent_v1_HostInfo, _gpucloud_agent_v1_GetHostInfoRequest__Output, _gpucloud_agent_v1_HostInfo__Output>
  GetVolumeUsage: MethodDefinition<_gpucloud_agent_v1_VolumeRef, _gpucloud_agent_v1_Volume, _gpucloud_agent_v1_VolumeRef__Output, _gpucloud_agent_v1_Volume__Output>
  InspectContainer: MethodDefinition<_gpucloud_agent_v1_ContainerRef, _gpucloud_agent_v1_ContainerInfo, _gpucloud_agent_v1_ContainerRef__Output, _gpucloud_agent_v1_ContainerInfo__Output>
  InstallCertificate: MethodDefinition<_gpucloud_agent_v1_InstallCertificateRequest, _gpucloud_agent_v1_InstallCertificateResponse, _gpucloud_agent_v1_InstallCertificateRequest__Output, _gpucloud_agent_v1_InstallCertificateResponse__Output>
  ListContainers: MethodDefinition<_gpucloud_agent_v1_ListContainersRequest, _gpucloud_agent_v1_ListContainersResponse, _gpucloud_agent_v1_ListContainersRequest__Output, _gpucloud_agent_v1_ListContainersResponse__Output>
  ListImages: MethodDefinition<_gpucloud_agent_v1_ListImagesRequest, _gpucloud_agent_v1_ListImagesResponse, _gpucloud_agent_v1_ListImagesRequest__Output, _gpucloud_agent_v1_ListImagesResponse__Output>
  ListOccupiedPorts: MethodDefinition<_gpucloud_agent_v1_ListOccupiedPortsRequest, _gpucloud_agent_v1_ListOccupiedPortsResponse, _gpucloud_agent_v1_ListOccupiedPortsRequest__Output, _gpucloud_agent_v1_ListOccupiedPortsResponse__Output>
  ListVolumes: MethodDefinition<_gpucloud_agent_v1_ListVolumesRequest, _gpucloud_agent_v1_ListVolumesResponse, _gpucloud_agent_v1_ListVolumesRequest__Output, _gpucloud_agent_v1_ListVolumesResponse__Output>
  PullImage: MethodDefinition<_gpucloud_agent_v1_PullImageRequest, _gpucloud_agent_v1_PullImageProgress, _gpucloud_agent_v1_PullImageRequest__Output, _gpucloud_agent_v1_PullImageProgress__Output>
  ReconfigureContainer: MethodDefinition<_gpucloud_agent_v1_ReconfigureContainerRequest, _gpucloud_agent_v1_ContainerInfo, _gpucloud_agent_v1_ReconfigureContainerRequest__Output, _gpucloud_agent_v1_ContainerInfo__Output>
  RemoveContainer: MethodDefinition<_gpucloud_agent_v1_RemoveContainerRequest, _gpucloud_agent_v1_RemoveContainerResponse, _gpucloud_agent_v1_RemoveContainerRequest__Output, _gpucloud_agent_v1_RemoveContainerResponse__Output>
  RemoveImage: MethodDefinition<_gpucloud_agent_v1_RemoveImageRequest, _gpucloud_agent_v1_RemoveImageResponse, _gpucloud_agent_v1_RemoveImageRequest__Output, _gpucloud_agent_v1_RemoveImageResponse__Output>
  RenameVolume: MethodDefinition<_gpucloud_agent_v1_RenameVolumeRequest, _gpucloud_agent_v1_Volume, _gpucloud_agent_v1_RenameVolumeRequest__Output, _gpucloud_agent_v1_Volume__Output>
  RenewCertificate: MethodDefinition<_gpucloud_agent_v1_RenewCertificateRequest, _gpucloud_agent_v1_RenewCertificateResponse, _gpucloud_agent_v1_RenewCertificateRequest__Output, _gpucloud_agent_v1_RenewCertificateResponse__Output>
  ResetPassword: MethodDefinition<_gpucloud_agent_v1_ResetPasswordRequest, _gpucloud_agent_v1_ResetPasswordResponse, _gpucloud_agent_v1_ResetPasswordRequest__Output, _gpucloud_agent_v1_ResetPasswordResponse__Output>
  SaveImage: MethodDefinition<_gpucloud_agent_v1_SaveImageRequest, _gpucloud_agent_v1_SaveImageProgress, _gpucloud_agent_v1_SaveImageRequest__Output, _gpucloud_agent_v1_SaveImageProgress__Output>
  StartContainer: MethodDefinition<_gpucloud_agent_v1_StartContainerRequest, _gpucloud_agent_v1_ContainerInfo, _gpucloud_agent_v1_StartContainerRequest__Output, _gpucloud_agent_v1_ContainerInfo__Output>
  StopContainer: MethodDefinition<_gpucloud_agent_v1_StopContainerRequest, _gpucloud_agent_v1_ContainerInfo, _gpucloud_agent_v1_StopContainerRequest__Output, _gpucloud_agent_v1_ContainerInfo__Output>
  StreamLogs: MethodDefinition<_gpucloud_agent_v1_StreamLogsRequest, _gpucloud_agent_v1_LogChunk, _gpucloud_agent_v1_StreamLogsRequest__Output, _gpucloud_agent_v1_LogChunk__Output>
  UpgradeAgent: MethodDefinition<_gpucloud_agent_v1_UpgradeAgentChunk, _gpucloud_agent_v1_UpgradeAgentResponse, _gpucloud_agent_v1_UpgradeAgentChunk__Output, _gpucloud_agent_v1_UpgradeAgentResponse__Output>
  WatchEvents: MethodDefinition<_gpucloud_agent_v1_WatchEventsRequest, _gpucloud_agent_v1_AgentEvent, _gpucloud_agent_v1_WatchEventsRequest__Output, _gpucloud_agent_v1_AgentEvent__Output>
}
