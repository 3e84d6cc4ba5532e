export const TEST_IMAGES: {
  /** Debian bookworm minbase + rsync, no sshd; CMD ["bash"], PATH/CUDA_VERSION/WORKDIR like nvidia/cuda. */
  readonly debian: string;
  /** Only a static busybox: no libc, no /etc/passwd; CMD ["sh"]. */
  readonly busybox: string;
  /** busybox httpd serving /www ("gpucloud test server") on port 8080. */
  readonly server: string;
  /** The debian image + Debian's classic notebook (jupyter-notebook on PATH); CMD ["bash"]. */
  readonly jupyter: string;
};
export function ensureTestImages(options: {
  dockerHost: string;
  dataDir: string;
  log?: (line: string) => void;
}): Promise<typeof TEST_IMAGES>;
