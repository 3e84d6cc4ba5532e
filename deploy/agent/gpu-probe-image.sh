# shellcheck shell=bash
# Sourced by install.sh and gpu-check.sh: imports the GPU probe image offline. It holds the host's
# busybox and the C libraries busybox and nvidia-smi need, nothing else; the NVIDIA Container
# Toolkit injects nvidia-smi and the driver's libraries, as it does into the images users rent
# (official images are built the same way: no libc guaranteed, no sshd).
#   build_gpu_probe_image <docker command> <image name>   (returns non-zero when it cannot)

build_gpu_probe_image() {
  local docker="$1" image="$2" rootfs busybox lib status=0
  busybox="$(command -v busybox || true)"
  if [ -z "$busybox" ]; then
    echo "the GPU probe container needs busybox on the host (apt-get install busybox-static)" >&2
    return 1
  fi
  rootfs="$(mktemp -d)"
  mkdir -p "$rootfs/bin" "$rootfs/tmp"
  cp -L "$busybox" "$rootfs/bin/busybox"
  ln -s busybox "$rootfs/bin/sh"
  for lib in $( { ldd "$busybox"; ldd "$(command -v nvidia-smi)"; } 2>/dev/null | grep -oE '/[^ ]+' | sort -u); do
    case "$lib" in *nvidia*|*libcuda*) continue ;; esac
    if [ -e "$lib" ]; then cp -L --parents "$lib" "$rootfs/"; fi
  done
  tar -C "$rootfs" -c . | "$docker" import - "$image" >/dev/null || status=$?
  rm -rf "$rootfs"
  if [ "$status" != 0 ]; then echo "could not import the GPU probe image" >&2; fi
  return "$status"
}
