import type { Framework, FrameworkVersion } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { marketKeys } from '../../../lib/query-keys';
import { findPreset } from '../framework-versions';
import type { EntityId } from '../types';

export function getFrameworks(signal?: AbortSignal) {
  return api.get<Framework[]>('/api/frameworks', { signal });
}

export function getFrameworkVersions(frameworkId: EntityId, signal?: AbortSignal) {
  return api.get<FrameworkVersion[]>(`/api/frameworks/${encodeURIComponent(String(frameworkId))}/versions`, {
    signal,
  });
}

export function useFrameworks() {
  return useQuery({
    queryKey: marketKeys.frameworks(),
    queryFn: ({ signal }) => getFrameworks(signal),
    staleTime: 300_000,
  });
}

export function useFrameworkVersions(frameworkId: EntityId | undefined) {
  return useQuery({
    queryKey: marketKeys.frameworkVersions(frameworkId ?? ''),
    queryFn: ({ signal }) => getFrameworkVersions(frameworkId ?? '', signal),
    enabled: frameworkId !== undefined && frameworkId !== '',
    staleTime: 300_000,
  });
}

/** The framework and version an app-market link (/market?framework=&version=) names, once loaded. */
export function usePresetChoice(preset: { framework: string | null; version: string | null }) {
  const frameworks = useFrameworks();
  const framework = findPreset(frameworks.data ?? [], preset.framework, (f) => f.name);
  const versions = useFrameworkVersions(framework?.id);
  const version = findPreset(versions.data ?? [], preset.version, (v) => v.version);
  return { framework, version };
}
