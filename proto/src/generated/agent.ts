import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AgentEvent as _gpucloud_agent_v1_AgentEvent, AgentEvent__Output as _gpucloud_agent_v1_AgentEvent__Output } from './gpucloud/agent/v1/AgentEvent';
import type { ConsoleInput as _gpucloud_agent_v1_ConsoleInput, ConsoleInput__Output as _gpucloud_agent_v1_ConsoleInput__Output } from './gpucloud/agent/v1/ConsoleInput';
import type { ConsoleOpen as _gpucloud_agent_v1_ConsoleOpen, ConsoleOpen__Output as _gpucloud_agent_v1_ConsoleOpen__Output } from './gpucloud/agent/v1/ConsoleOpen';
import type { ConsoleOutput as _gpucloud_agent_v1_ConsoleOutput, ConsoleOutput__Output as _gpucloud_agent_v1_ConsoleOutput__Output } from './gpucloud/agent/v1/ConsoleOutput';
import type { ConsoleResize as _gpucloud_agent_v1_ConsoleResize, ConsoleResize__Output as _gpucloud_agent_v1_ConsoleResize__Output } from './gpucloud/agent/v1/ConsoleResize';
import type { ContainerEvent as _gpucloud_agent_v1_ContainerEvent, ContainerEvent__Output as _gpucloud_agent_v1_ContainerEvent__Output } from './gpucloud/agent/v1/ContainerEvent';
import type { ContainerInfo as _gpucloud_agent_v1_ContainerInfo, ContainerInfo__Output as _gpucloud_agent_v1_ContainerInfo__Output } from './gpucloud/agent/v1/ContainerInfo';
import type { ContainerRef as _gpucloud_agent_v1_ContainerRef, ContainerRef__Output as _gpucloud_agent_v1_ContainerRef__Output } from './gpucloud/agent/v1/ContainerRef';
import type { ContainerSpec as _gpucloud_agent_v1_ContainerSpec, ContainerSpec__Output as _gpucloud_agent_v1_ContainerSpec__Output } from './gpucloud/agent/v1/ContainerSpec';
import type { CreateContainerRequest as _gpucloud_agent_v1_CreateContainerRequest, CreateContainerRequest__Output as _gpucloud_agent_v1_CreateContainerRequest__Output } from './gpucloud/agent/v1/CreateContainerRequest';
import type { CreateVolumeRequest as _gpucloud_agent_v1_CreateVolumeRequest, CreateVolumeRequest__Output as _gpucloud_agent_v1_CreateVolumeRequest__Output } from './gpucloud/agent/v1/CreateVolumeRequest';
import type { DeleteVolumeProgress as _gpucloud_agent_v1_DeleteVolumeProgress, DeleteVolumeProgress__Output as _gpucloud_agent_v1_DeleteVolumeProgress__Output } from './gpucloud/agent/v1/DeleteVolumeProgress';
import type { DeleteVolumeRequest as _gpucloud_agent_v1_DeleteVolumeRequest, DeleteVolumeRequest__Output as _gpucloud_agent_v1_DeleteVolumeRequest__Output } from './gpucloud/agent/v1/DeleteVolumeRequest';
import type { DeleteVolumeResponse as _gpucloud_agent_v1_DeleteVolumeResponse, DeleteVolumeResponse__Output as _gpucloud_agent_v1_DeleteVolumeResponse__Output } from './gpucloud/agent/v1/DeleteVolumeResponse';
import type { GetHostInfoRequest as _gpucloud_agent_v1_GetHostInfoRequest, GetHostInfoRequest__Output as _gpucloud_agent_v1_GetHostInfoRequest__Output } from './gpucloud/agent/v1/GetHostInfoRequest';
import type { GpuInfo as _gpucloud_agent_v1_GpuInfo, GpuInfo__Output as _gpucloud_agent_v1_GpuInfo__Output } from './gpucloud/agent/v1/GpuInfo';
import type { GpuSample as _gpucloud_agent_v1_GpuSample, GpuSample__Output as _gpucloud_agent_v1_GpuSample__Output } from './gpucloud/agent/v1/GpuSample';
import type { Heartbeat as _gpucloud_agent_v1_Heartbeat, Heartbeat__Output as _gpucloud_agent_v1_Heartbeat__Output } from './gpucloud/agent/v1/Heartbeat';
import type { HostInfo as _gpucloud_agent_v1_HostInfo, HostInfo__Output as _gpucloud_agent_v1_HostInfo__Output } from './gpucloud/agent/v1/HostInfo';
import type { ImageSummary as _gpucloud_agent_v1_ImageSummary, ImageSummary__Output as _gpucloud_agent_v1_ImageSummary__Output } from './gpucloud/agent/v1/ImageSummary';
import type { InstallCertificateRequest as _gpucloud_agent_v1_InstallCertificateRequest, InstallCertificateRequest__Output as _gpucloud_agent_v1_InstallCertificateRequest__Output } from './gpucloud/agent/v1/InstallCertificateRequest';
import type { InstallCertificateResponse as _gpucloud_agent_v1_InstallCertificateResponse, InstallCertificateResponse__Output as _gpucloud_agent_v1_InstallCertificateResponse__Output } from './gpucloud/agent/v1/InstallCertificateResponse';
import type { ListContainersRequest as _gpucloud_agent_v1_ListContainersRequest, ListContainersRequest__Output as _gpucloud_agent_v1_ListContainersRequest__Output } from './gpucloud/agent/v1/ListContainersRequest';
import type { ListContainersResponse as _gpucloud_agent_v1_ListContainersResponse, ListContainersResponse__Output as _gpucloud_agent_v1_ListContainersResponse__Output } from './gpucloud/agent/v1/ListContainersResponse';
import type { ListImagesRequest as _gpucloud_agent_v1_ListImagesRequest, ListImagesRequest__Output as _gpucloud_agent_v1_ListImagesRequest__Output } from './gpucloud/agent/v1/ListImagesRequest';
import type { ListImagesResponse as _gpucloud_agent_v1_ListImagesResponse, ListImagesResponse__Output as _gpucloud_agent_v1_ListImagesResponse__Output } from './gpucloud/agent/v1/ListImagesResponse';
import type { ListOccupiedPortsRequest as _gpucloud_agent_v1_ListOccupiedPortsRequest, ListOccupiedPortsRequest__Output as _gpucloud_agent_v1_ListOccupiedPortsRequest__Output } from './gpucloud/agent/v1/ListOccupiedPortsRequest';
import type { ListOccupiedPortsResponse as _gpucloud_agent_v1_ListOccupiedPortsResponse, ListOccupiedPortsResponse__Output as _gpucloud_agent_v1_ListOccupiedPortsResponse__Output } from './gpucloud/agent/v1/ListOccupiedPortsResponse';
import type { ListVolumesRequest as _gpucloud_agent_v1_ListVolumesRequest, ListVolumesRequest__Output as _gpucloud_agent_v1_ListVolumesRequest__Output } from './gpucloud/agent/v1/ListVolumesRequest';
import type { ListVolumesResponse as _gpucloud_agent_v1_ListVolumesResponse, ListVolumesResponse__Output as _gpucloud_agent_v1_ListVolumesResponse__Output } from './gpucloud/agent/v1/ListVolumesResponse';
import type { LogChunk as _gpucloud_agent_v1_LogChunk, LogChunk__Output as _gpucloud_agent_v1_LogChunk__Output } from './gpucloud/agent/v1/LogChunk';
import type { Mount as _gpucloud_agent_v1_Mount, Mount__Output as _gpucloud_agent_v1_Mount__Output } from './gpucloud/agent/v1/Mount';
import type { NodeAgentClient as _gpucloud_agent_v1_NodeAgentClient, NodeAgentDefinition as _gpucloud_agent_v1_NodeAgentDefinition } from './gpucloud/agent/v1/NodeAgent';
import type { PortBinding as _gpucloud_agent_v1_PortBinding, PortBinding__Output as _gpucloud_agent_v1_PortBinding__Output } from './gpucloud/agent/v1/PortBinding';
import type { PullImageProgress as _gpucloud_agent_v1_PullImageProgress, PullImageProgress__Output as _gpucloud_agent_v1_PullImageProgress__Output } from './gpucloud/agent/v1/PullImageProgress';
import type { PullImageRequest as _gpucloud_agent_v1_PullImageRequest, PullImageRequest__Output as _gpucloud_agent_v1_PullImageRequest__Output } from './gpucloud/agent/v1/PullImageRequest';
import type { ReconcileReport as _gpucloud_agent_v1_ReconcileReport, ReconcileReport__Output as _gpucloud_agent_v1_ReconcileReport__Output } from './gpucloud/agent/v1/ReconcileReport';
import type { ReconfigureContainerRequest as _gpucloud_agent_v1_ReconfigureContainerRequest, ReconfigureContainerRequest__Output as _gpucloud_agent_v1_ReconfigureContainerRequest__Output } from './gpucloud/agent/v1/ReconfigureContainerRequest';
import type { RegistryAuth as _gpucloud_agent_v1_RegistryAuth, RegistryAuth__Output as _gpucloud_agent_v1_RegistryAuth__Output } from './gpucloud/agent/v1/RegistryAuth';
import type { RemoveContainerRequest as _gpucloud_agent_v1_RemoveContainerRequest, RemoveContainerRequest__Output as _gpucloud_agent_v1_RemoveContainerRequest__Output } from './gpucloud/agent/v1/RemoveContainerRequest';
import type { RemoveContainerResponse as _gpucloud_agent_v1_RemoveContainerResponse, RemoveContainerResponse__Output as _gpucloud_agent_v1_RemoveContainerResponse__Output } from './gpucloud/agent/v1/RemoveContainerResponse';
import type { RemoveImageRequest as _gpucloud_agent_v1_RemoveImageRequest, RemoveImageRequest__Output as _gpucloud_agent_v1_RemoveImageRequest__Output } from './gpucloud/agent/v1/RemoveImageRequest';
import type { RemoveImageResponse as _gpucloud_agent_v1_RemoveImageResponse, RemoveImageResponse__Output as _gpucloud_agent_v1_RemoveImageResponse__Output } from './gpucloud/agent/v1/RemoveImageResponse';
import type { RenameVolumeRequest as _gpucloud_agent_v1_RenameVolumeRequest, RenameVolumeRequest__Output as _gpucloud_agent_v1_RenameVolumeRequest__Output } from './gpucloud/agent/v1/RenameVolumeRequest';
import type { RenewCertificateRequest as _gpucloud_agent_v1_RenewCertificateRequest, RenewCertificateRequest__Output as _gpucloud_agent_v1_RenewCertificateRequest__Output } from './gpucloud/agent/v1/RenewCertificateRequest';
import type { RenewCertificateResponse as _gpucloud_agent_v1_RenewCertificateResponse, RenewCertificateResponse__Output as _gpucloud_agent_v1_RenewCertificateResponse__Output } from './gpucloud/agent/v1/RenewCertificateResponse';
import type { ResetPasswordRequest as _gpucloud_agent_v1_ResetPasswordRequest, ResetPasswordRequest__Output as _gpucloud_agent_v1_ResetPasswordRequest__Output } from './gpucloud/agent/v1/ResetPasswordRequest';
import type { ResetPasswordResponse as _gpucloud_agent_v1_ResetPasswordResponse, ResetPasswordResponse__Output as _gpucloud_agent_v1_ResetPasswordResponse__Output } from './gpucloud/agent/v1/ResetPasswordResponse';
import type { Resources as _gpucloud_agent_v1_Resources, Resources__Output as _gpucloud_agent_v1_Resources__Output } from './gpucloud/agent/v1/Resources';
import type { SaveImageProgress as _gpucloud_agent_v1_SaveImageProgress, SaveImageProgress__Output as _gpucloud_agent_v1_SaveImageProgress__Output } from './gpucloud/agent/v1/SaveImageProgress';
import type { SaveImageRequest as _gpucloud_agent_v1_SaveImageRequest, SaveImageRequest__Output as _gpucloud_agent_v1_SaveImageRequest__Output } from './gpucloud/agent/v1/SaveImageRequest';
import type { StartContainerRequest as _gpucloud_agent_v1_StartContainerRequest, StartContainerRequest__Output as _gpucloud_agent_v1_StartContainerRequest__Output } from './gpucloud/agent/v1/StartContainerRequest';
import type { StopContainerRequest as _gpucloud_agent_v1_StopContainerRequest, StopContainerRequest__Output as _gpucloud_agent_v1_StopContainerRequest__Output } from './gpucloud/agent/v1/StopContainerRequest';
import type { StreamLogsRequest as _gpucloud_agent_v1_StreamLogsRequest, StreamLogsRequest__Output as _gpucloud_agent_v1_StreamLogsRequest__Output } from './gpucloud/agent/v1/StreamLogsRequest';
import type { UnknownContainer as _gpucloud_agent_v1_UnknownContainer, UnknownContainer__Output as _gpucloud_agent_v1_UnknownContainer__Output } from './gpucloud/agent/v1/UnknownContainer';
import type { UpgradeAgentChunk as _gpucloud_agent_v1_UpgradeAgentChunk, UpgradeAgentChunk__Output as _gpucloud_agent_v1_UpgradeAgentChunk__Output } from './gpucloud/agent/v1/UpgradeAgentChunk';
import type { UpgradeAgentHeader as _gpucloud_agent_v1_UpgradeAgentHeader, UpgradeAgentHeader__Output as _gpucloud_agent_v1_UpgradeAgentHeader__Output } from './gpucloud/agent/v1/UpgradeAgentHeader';
import type { UpgradeAgentResponse as _gpucloud_agent_v1_UpgradeAgentResponse, UpgradeAgentResponse__Output as _gpucloud_agent_v1_UpgradeAgentResponse__Output } from './gpucloud/agent/v1/UpgradeAgentResponse';
import type { Volume as _gpucloud_agent_v1_Volume, Volume__Output as _gpucloud_agent_v1_Volume__Output } from './gpucloud/agent/v1/Volume';
import type { VolumeRef as _gpucloud_agent_v1_VolumeRef, VolumeRef__Output as _gpucloud_agent_v1_VolumeRef__Output } from './gpucloud/agent/v1/VolumeRef';
import type { WatchEventsRequest as _gpucloud_agent_v1_WatchEventsRequest, WatchEventsRequest__Output as _gpucloud_agent_v1_WatchEventsRequest__Output } from './gpucloud/agent/v1/WatchEventsRequest';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  gpucloud: {
    agent: {
      v1: {
        AgentEvent: MessageTypeDefinition<_gpucloud_agent_v1_AgentEvent, _gpucloud_agent_v1_AgentEvent__Output>
        ConsoleInput: MessageTypeDefinition<_gpucloud_agent_v1_ConsoleInput, _gpucloud_agent_v1_ConsoleInput__Output>
        ConsoleOpen: MessageTypeDefinition<_gpucloud_agent_v1_ConsoleOpen, _gpucloud_agent_v1_ConsoleOpen__Output>
        ConsoleOutput: MessageTypeDefinition<_gpucloud_agent_v1_ConsoleOutput, _gpucloud_agent_v1_ConsoleOutput__Output>
        ConsoleResize: MessageTypeDefinition<_gpucloud_agent_v1_ConsoleResize, _gpucloud_agent_v1_ConsoleResize__Output>
        ContainerEvent: MessageTypeDefinition<_gpucloud_agent_v1_ContainerEvent, _gpucloud_agent_v1_ContainerEvent__Output>
        ContainerInfo: MessageTypeDefinition<_gpucloud_agent_v1_ContainerInfo, _gpucloud_agent_v1_ContainerInfo__Output>
        ContainerRef: MessageTypeDefinition<_gpucloud_agent_v1_ContainerRef, _gpucloud_agent_v1_ContainerRef__Output>
        ContainerSpec: MessageTypeDefinition<_gpucloud_agent_v1_ContainerSpec, _gpucloud_agent_v1_ContainerSpec__Output>
        ContainerState: EnumTypeDefinition
        CreateContainerRequest: MessageTypeDefinition<_gpucloud_agent_v1_CreateContainerRequest, _gpucloud_agent_v1_CreateContainerRequest__Output>
        CreateVolumeRequest: MessageTypeDefinition<_gpucloud_agent_v1_CreateVolumeRequest, _gpucloud_agent_v1_CreateVolumeRequest__Output>
        DeleteVolumeProgress: MessageTypeDefinition<_gpucloud_agent_v1_DeleteVolumeProgress, _gpucloud_agent_v1_DeleteVolumeProgress__Output>
        DeleteVolumeRequest: MessageTypeDefinition<_gpucloud_agent_v1_DeleteVolumeRequest, _gpucloud_agent_v1_DeleteVolumeRequest__Output>
        DeleteVolumeResponse: MessageTypeDefinition<_gpucloud_agent_v1_DeleteVolumeResponse, _gpucloud_agent_v1_DeleteVolumeResponse__Output>
        GetHostInfoRequest: MessageTypeDefinition<_gpucloud_agent_v1_GetHostInfoRequest, _gpucloud_agent_v1_GetHostInfoRequest__Output>
        GpuInfo: MessageTypeDefinition<_gpucloud_agent_v1_GpuInfo, _gpucloud_agent_v1_GpuInfo__Output>
        GpuSample: MessageTypeDefinition<_gpucloud_agent_v1_GpuSample, _gpucloud_agent_v1_GpuSample__Output>
        Heartbeat: MessageTypeDefinition<_gpucloud_agent_v1_Heartbeat, _gpucloud_agent_v1_Heartbeat__Output>
        HostInfo: MessageTypeDefinition<_gpucloud_agent_v1_HostInfo, _gpucloud_agent_v1_HostInfo__Output>
        ImageSummary: MessageTypeDefinition<_gpucloud_agent_v1_ImageSummary, _gpucloud_agent_v1_ImageSummary__Output>
        InstallCertificateRequest: MessageTypeDefinition<_gpucloud_agent_v1_InstallCertificateRequest, _gpucloud_agent_v1_InstallCertificateRequest__Output>
        InstallCertificateResponse: MessageTypeDefinition<_gpucloud_agent_v1_InstallCertificateResponse, _gpucloud_agent_v1_InstallCertificateResponse__Output>
        ListContainersRequest: MessageTypeDefinition<_gpucloud_agent_v1_ListContainersRequest, _gpucloud_agent_v1_ListContainersRequest__Output>
        ListContainersResponse: MessageTypeDefinition<_gpucloud_agent_v1_ListContainersResponse, _gpucloud_agent_v1_ListContainersResponse__Output>
        ListImagesRequest: MessageTypeDefinition<_gpucloud_agent_v1_ListImagesRequest, _gpucloud_agent_v1_ListImagesRequest__Output>
        ListImagesResponse: MessageTypeDefinition<_gpucloud_agent_v1_ListImagesResponse, _gpucloud_agent_v1_ListImagesResponse__Output>
        ListOccupiedPortsRequest: MessageTypeDefinition<_gpucloud_agent_v1_ListOccupiedPortsRequest, _gpucloud_agent_v1_ListOccupiedPortsRequest__Output>
        ListOccupiedPortsResponse: MessageTypeDefinition<_gpucloud_agent_v1_ListOccupiedPortsResponse, _gpucloud_agent_v1_ListOccupiedPortsResponse__Output>
        ListVolumesRequest: MessageTypeDefinition<_gpucloud_agent_v1_ListVolumesRequest, _gpucloud_agent_v1_ListVolumesRequest__Output>
        ListVolumesResponse: MessageTypeDefinition<_gpucloud_agent_v1_ListVolumesResponse, _gpucloud_agent_v1_ListVolumesResponse__Output>
        LogChunk: MessageTypeDefinition<_gpucloud_agent_v1_LogChunk, _gpucloud_agent_v1_LogChunk__Output>
        Mount: MessageTypeDefinition<_gpucloud_agent_v1_Mount, _gpucloud_agent_v1_Mount__Output>
        NodeAgent: SubtypeConstructor<typeof grpc.Client, _gpucloud_agent_v1_NodeAgentClient> & { service: _gpucloud_agent_v1_NodeAgentDefinition }
        PortBinding: MessageTypeDefinition<_gpucloud_agent_v1_PortBinding, _gpucloud_agent_v1_PortBinding__Output>
        Protocol: EnumTypeDefinition
        PullImageProgress: MessageTypeDefinition<_gpucloud_agent_v1_PullImageProgress, _gpucloud_agent_v1_PullImageProgress__Output>
        PullImageRequest: MessageTypeDefinition<_gpucloud_agent_v1_PullImageRequest, _gpucloud_agent_v1_PullImageRequest__Output>
        ReconcileReport: MessageTypeDefinition<_gpucloud_agent_v1_ReconcileReport, _gpucloud_agent_v1_ReconcileReport__Output>
        ReconfigureContainerRequest: MessageTypeDefinition<_gpucloud_agent_v1_ReconfigureContainerRequest, _gpucloud_agent_v1_ReconfigureContainerRequest__Output>
        RegistryAuth: MessageTypeDefinition<_gpucloud_agent_v1_RegistryAuth, _gpucloud_agent_v1_RegistryAuth__Output>
        RemoveContainerRequest: MessageTypeDefinition<_gpucloud_agent_v1_RemoveContainerRequest, _gpucloud_agent_v1_RemoveContainerRequest__Output>
        RemoveContainerResponse: MessageTypeDefinition<_gpucloud_agent_v1_RemoveContainerResponse, _gpucloud_agent_v1_RemoveContainerResponse__Output>
        RemoveImageRequest: MessageTypeDefinition<_gpucloud_agent_v1_RemoveImageRequest, _gpucloud_agent_v1_RemoveImageRequest__Output>
        RemoveImageResponse: MessageTypeDefinition<_gpucloud_agent_v1_RemoveImageResponse, _gpucloud_agent_v1_RemoveImageResponse__Output>
        RenameVolumeRequest: MessageTypeDefinition<_gpucloud_agent_v1_RenameVolumeRequest, _gpucloud_agent_v1_RenameVolumeRequest__Output>
        RenewCertificateRequest: MessageTypeDefinition<_gpucloud_agent_v1_RenewCertificateRequest, _gpucloud_agent_v1_RenewCertificateRequest__Output>
        RenewCertificateResponse: MessageTypeDefinition<_gpucloud_agent_v1_RenewCertificateResponse, _gpucloud_agent_v1_RenewCertificateResponse__Output>
        ResetPasswordRequest: MessageTypeDefinition<_gpucloud_agent_v1_ResetPasswordRequest, _gpucloud_agent_v1_ResetPasswordRequest__Output>
        ResetPasswordResponse: MessageTypeDefinition<_gpucloud_agent_v1_ResetPasswordResponse, _gpucloud_agent_v1_ResetPasswordResponse__Output>
        Resources: MessageTypeDefinition<_gpucloud_agent_v1_Resources, _gpucloud_agent_v1_Resources__Output>
        SaveImageProgress: MessageTypeDefinition<_gpucloud_agent_v1_SaveImageProgress, _gpucloud_agent_v1_SaveImageProgress__Output>
        SaveImageRequest: MessageTypeDefinition<_gpucloud_agent_v1_SaveImageRequest, _gpucloud_agent_v1_SaveImageRequest__Output>
        StartContainerRequest: MessageTypeDefinition<_gpucloud_agent_v1_StartContainerRequest, _gpucloud_agent_v1_StartContainerRequest__Output>
        StopContainerRequest: MessageTypeDefinition<_gpucloud_agent_v1_StopContainerRequest, _gpucloud_agent_v1_StopContainerRequest__Output>
        StreamLogsRequest: MessageTypeDefinition<_gpucloud_agent_v1_StreamLogsRequest, _gpucloud_agent_v1_StreamLogsRequest__Output>
        UnknownContainer: MessageTypeDefinition<_gpucloud_agent_v1_UnknownContainer, _gpucloud_agent_v1_UnknownContainer__Output>
        UpgradeAgentChunk: MessageTypeDefinition<_gpucloud_agent_v1_UpgradeAgentChunk, _gpucloud_agent_v1_UpgradeAgentChunk__Output>
        UpgradeAgentHeader: MessageTypeDefinition<_gpucloud_agent_v1_UpgradeAgentHeader, _gpucloud_agent_v1_UpgradeAgentHeader__Output>
        UpgradeAgentResponse: MessageTypeDefinition<_gpucloud_agent_v1_UpgradeAgentResponse, _gpucloud_agent_v1_UpgradeAgentResponse__Output>
        Volume: MessageTypeDefinition<_gpucloud_agent_v1_Volume, _gpucloud_agent_v1_Volume__Output>
        VolumeRef: MessageTypeDefinition<_gpucloud_agent_v1_VolumeRef, _gpucloud_agent_v1_VolumeRef__Output>
        WatchEventsRequest: MessageTypeDefinition<_gpucloud_agent_v1_WatchEventsRequest, _gpucloud_agent_v1_WatchEventsRequest__Output>
      }
    }
  }
}

