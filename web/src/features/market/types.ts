// The market's servers, frameworks and the purchase are the control plane's types
// (@gpucloud/control-plane/api); these are the console's own helpers around them.

/** An id as a route or a select holds it. */
export type EntityId = number | string;

export interface ServerConfig {
  system_gpu_type?: string;
}

/** Framework ports: name → container port, optionally `custom: "rdp:3389,vnc:5900"` (Windows). */
export type FrameworkPorts = Record<string, number | string | undefined>;

export interface MountEntry {
  source: string;
  target: string;
}

export type ImageType = 'public' | 'custom';
