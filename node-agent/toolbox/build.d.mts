export const TOOLBOX_MOUNT: string;
/** Debian packages missing on this host to build the toolbox. */
export function missingPackages(): string[];
/** Builds the toolbox under `dest` (unless current); returns the folder of this version. */
export function ensureToolbox(options: { dest: string; log?: (line: string) => void }): string;
