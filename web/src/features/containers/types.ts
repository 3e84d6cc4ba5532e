// The container itself is the control plane's `Container` (@gpucloud/control-plane/api), whose
// status is a string; these are the statuses the console knows labels for.
export type ContainerStatus =
  | 'running'
  | 'starting'
  /** Bought; the node pulls the image (pull_progress %). */
  | 'pulling'
  | 'stopped'
  | 'error'
  | 'failed'
  | 'not_found'
  | 'deleted';

/** The drawers and dialogs a container row opens. */
export type ContainerPanel = 'logs' | 'metrics' | 'console' | 'ports' | 'mounts' | 'save-image';
