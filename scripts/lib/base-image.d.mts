export const BASE_IMAGE: string;
export function ensureBaseImage(options: {
  dockerHost: string;
  log?: (line: string) => void;
  tag?: string;
}): string;
