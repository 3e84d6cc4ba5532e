#!/usr/bin/env bash
# Checks on a real GPU host that containers get exactly the GPUs the agent gives them, the way
# the agent gives them: DeviceRequests by UUID (CDI devices where Docker lists the toolkit's
# nvidia.com/gpu devices, else the toolkit's legacy hook), NVIDIA_VISIBLE_DEVICES set to the UUID
# (or void) and NVIDIA_DRIVER_CAPABILITIES=compute,utility. Prints PASS/FAIL per check and exits
# non-zero when one fails. Nothing is installed; the probe image is made from the host's busybox
# and the C libraries of the host's nvidia-smi, and removed afterwards.
#
#   sudo ./deploy/agent/gpu-check.sh [--gpu 0|GPU-uuid] [--persistence-timing]
#
#   --gpu                 the GPU to give the test container (index or UUID; default 0)
#   --persistence-timing  also time a GPU container start with persistence mode off and on
#                         (root only; switches the GPU's persistence mode, then restores it)
#
# DOCKER names the docker program (default docker). Ops guide: deploy/agent/README.md.
set -uo pipefail
# shellcheck source=deploy/agent/gpu-probe-image.sh
. "$(dirname "$0")/gpu-probe-image.sh"

DOCKER="${DOCKER:-docker}"
IMAGE=gpucloud/gpu-check:local
gpu=0
timing=0
while [ $# -gt 0 ]; do
  case "$1" in
    --gpu) gpu="$2"; shift 2 ;;
    --persistence-timing) timing=1; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done

failures=0
pass() { echo "PASS  $1"; }
failed() { echo "FAIL  $1"; [ $# -lt 2 ] || printf '%s\n' "$2" | sed 's/^/      /'; failures=$((failures + 1)); }
die() { echo "error: $*" >&2; exit 2; }

command -v nvidia-smi >/dev/null || die "nvidia-smi not found: this script runs on a GPU host"
command -v "$DOCKER" >/dev/null || die "docker not found"
"$DOCKER" info >/dev/null 2>&1 || die "the Docker engine is not running"

# The GPU: index, UUID and PCI bus id, as nvidia-smi names them.
row="$(nvidia-smi --query-gpu=index,uuid,pci.bus_id,persistence_mode --format=csv,noheader -i "$gpu" 2>&1 | head -1)" ||
  die "nvidia-smi does not know GPU $gpu: $row"
IFS=', ' read -r index uuid bus persistence <<<"$row"
[ -n "${uuid:-}" ] || die "nvidia-smi did not report GPU $gpu: $row"
total="$(nvidia-smi -L | grep -c '^GPU ')"
echo "GPU $index ($uuid) at $bus, persistence mode $persistence; $total GPU(s) on this host"

# The device path, chosen as the agent chooses it (node-agent/src/host/gpu-runtime.ts).
if "$DOCKER" info --format '{{json .DiscoveredDevices}}' 2>/dev/null | grep -q '"nvidia.com/gpu='; then
  gpu_args=(--device "nvidia.com/gpu=$uuid"); path=cdi
else
  gpu_args=(--gpus "device=$uuid"); path=legacy
fi
echo "device path: $path (docker run ${gpu_args[*]})"

# The probe image: busybox and the libc nvidia-smi needs (the toolkit brings nvidia-smi itself).
cleanup() { "$DOCKER" rmi "$IMAGE" >/dev/null 2>&1 || true; }
trap cleanup EXIT
build_gpu_probe_image "$DOCKER" "$IMAGE" || die "the GPU probe image could not be made"

AGENT_ENV=(-e 'NVIDIA_DRIVER_CAPABILITIES=compute,utility')
run_gpu() { "$DOCKER" run --rm "${gpu_args[@]}" -e "NVIDIA_VISIBLE_DEVICES=$uuid" "${AGENT_ENV[@]}" "$IMAGE" "$@" 2>&1; }
run_void() { "$DOCKER" run --rm -e NVIDIA_VISIBLE_DEVICES=void "${AGENT_ENV[@]}" "$IMAGE" "$@" 2>&1; }

# 1. The UUID inside is the one given.
out="$(run_gpu nvidia-smi -L)"
if [ "$(printf '%s\n' "$out" | grep -c '^GPU ')" = 1 ] && printf '%s\n' "$out" | grep -q "(UUID: $uuid)"; then
  pass "nvidia-smi -L inside shows exactly $uuid"
else
  failed "nvidia-smi -L inside shows exactly $uuid" "$out"
fi

# 2. Only that GPU's device node.
out="$(run_gpu busybox sh -c 'busybox ls /dev | busybox grep -E "^nvidia[0-9]+$"')"
if [ "$(printf '%s\n' "$out" | grep -cE '^nvidia[0-9]+$')" = 1 ]; then
  pass "one GPU device node in the container (/dev/$out)"
else
  failed "one GPU device node in the container (/dev/nvidia[0-9]*)" "$out"
fi

# 3. Only that GPU under /proc/driver/nvidia/gpus (named by PCI bus id, 0000:3b:00.0).
want="$(printf '%s' "$bus" | tr '[:upper:]' '[:lower:]' | sed -E 's/^0000(....:)/\1/')"
out="$(run_gpu busybox ls /proc/driver/nvidia/gpus)"
if [ "$(printf '%s\n' "$out" | grep -c .)" = 1 ] && [ "$(printf '%s' "$out" | tr -d '[:space:]')" = "$want" ]; then
  pass "only $want under /proc/driver/nvidia/gpus"
else
  failed "only $want under /proc/driver/nvidia/gpus" "$out"
fi

# 4. NVIDIA_VISIBLE_DEVICES=void (a container without GPUs) can reach none.
out="$(run_void busybox sh -c 'busybox ls /dev | busybox grep -E "^nvidia[0-9]+$"; nvidia-smi -L 2>/dev/null')"
if [ -z "$(printf '%s' "$out" | tr -d '[:space:]')" ]; then
  pass "a container with NVIDIA_VISIBLE_DEVICES=void has no GPU device node and no nvidia-smi"
else
  failed "a container with NVIDIA_VISIBLE_DEVICES=void has no GPU device node and no nvidia-smi" "$out"
fi
# The driver's /proc entries are not namespaced: without the toolkit a container may still list
# the host's GPUs there (bus ids only, no access). Reported, not judged.
out="$(run_void busybox ls /proc/driver/nvidia/gpus 2>/dev/null | tr '\n' ' ')"
echo "INFO  /proc/driver/nvidia/gpus in the void container: ${out:-(none)}"

# 5. Start time with persistence mode off and on (root only, when asked).
if [ "$timing" = 1 ]; then
  if [ "$(id -u)" != 0 ]; then
    failed "start time with persistence mode off and on" "needs root (nvidia-smi -pm)"
  else
    was="$persistence"
    for mode in 0 1; do
      nvidia-smi -i "$index" -pm "$mode" >/dev/null || failed "switch persistence mode to $mode"
      start="$(date +%s%N)"
      out="$(run_gpu nvidia-smi -L)"; status=$?
      ms=$(( ($(date +%s%N) - start) / 1000000 ))
      label="off"; [ "$mode" = 1 ] && label="on"
      if [ "$status" = 0 ]; then pass "GPU container start with persistence mode $label: ${ms} ms"
      else failed "GPU container start with persistence mode $label (${ms} ms)" "$out"; fi
    done
    case "$was" in Enabled) nvidia-smi -i "$index" -pm 1 >/dev/null ;; *) nvidia-smi -i "$index" -pm 0 >/dev/null ;; esac
  fi
fi

echo
if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
