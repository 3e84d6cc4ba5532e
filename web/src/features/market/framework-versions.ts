import type { FrameworkVersion } from '@gpucloud/control-plane/api';
import type { EntityId, FrameworkPorts } from './types';

/** Windows versions only for Windows servers; Ubuntu (non-Windows) versions for the others. */
export function versionsForServer(
  versions: readonly FrameworkVersion[],
  windowsServer: boolean,
): FrameworkVersion[] {
  return versions.filter((version) => (version.system_type === 'windows') === windowsServer);
}

/** Container ports a framework version exposes, including the `custom: "rdp:3389,..."` list. */
export function frameworkPortNumbers(ports: FrameworkPorts | undefined): number[] {
  if (!ports) return [];
  const numbers: number[] = [];
  for (const [name, value] of Object.entries(ports)) {
    if (value === undefined) continue;
    if (name === 'custom' && typeof value === 'string') {
      for (const entry of value.split(',')) {
        const port = Number(entry.split(':')[1]);
        if (Number.isInteger(port) && port > 0) numbers.push(port);
      }
      continue;
    }
    const port = Number(value);
    if (Number.isInteger(port) && port > 0) numbers.push(port);
  }
  return [...new Set(numbers)];
}

/** Finds the item a /market?framework=&version= link names, by id or by name (case-insensitive). */
export function findPreset<T extends { id: EntityId }>(
  items: readonly T[],
  wanted: string | null,
  nameOf: (item: T) => string,
): T | undefined {
  if (!wanted) return undefined;
  const lower = wanted.toLowerCase();
  return (
    items.find((item) => String(item.id) === wanted) ??
    items.find((item) => nameOf(item).toLowerCase() === lower)
  );
}
