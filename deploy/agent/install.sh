#!/usr/bin/env bash
# Installs (or upgrades) the gpucloud node agent on a GPU host. Safe to re-run.
#
# Join with one command (the control plane serves this script and the agent bundle; the host
# needs no checkout and no Node.js):
#   curl -fsSL https://<console>/install/agent.sh | sudo bash -s -- --join <token>
#        [--control-plane URL] [--ca-file FILE] [--public-host HOST] [--node-name NAME]
#        [--listen 0.0.0.0:50051] [--address HOST:PORT] [--port-range 20000-29999]
#        [--simulate-gpus 8xRTX4090] [--min-toolkit-version 1.19.1]
#
# From a checkout (keeps the token and every setting not given again, refreshes the code):
#   sudo ./deploy/agent/install.sh --public-host gpu1.example.com [--node-name gpu1]
#        [--listen 0.0.0.0:50051] [--port-range 20000-29999] [--simulate-gpus 8xRTX4090]
#        [--tls-cert FILE --tls-key FILE [--tls-ca FILE]] [--min-toolkit-version 1.19.1]
#        [--uninstall]
#
# Both need Docker, and on GPU hosts the NVIDIA driver and the NVIDIA Container Toolkit
# (>= 1.19.1, every part; older releases lack the hardened hooks, and the agent marks such a host
# unsafe); the checkout way needs Node.js >= 20.19 too. On a GPU host it starts a probe container
# on GPU 0 the way the agent does and stops when that container does not see exactly that GPU.
#
# Ops guide: deploy/agent/README.md. For packaging and tests: GPUCLOUD_INSTALL_ROOT=DIR writes
# every file under DIR instead of / (their contents still name the final paths; no root needed),
# SYSTEMCTL, NPM, DOCKER and CURL name the programs to run instead of systemctl, npm, docker and
# curl, and TOOLKIT_CONFIG the toolkit's config.toml to read.
set -euo pipefail

# Filled in by the control plane when it serves this script (GET /install/agent.sh).
DEFAULT_CONTROL_PLANE=""

ROOT="${GPUCLOUD_INSTALL_ROOT:-}"
PREFIX=/opt/gpucloud
CONF_DIR=/etc/gpucloud
DATA_DIR=/var/lib/gpucloud
UNIT=/etc/systemd/system/gpucloud-agent.service
# The bundle install (--join): versions/<version>-<build>/ and `current` pointing at one.
AGENT_HOME=$PREFIX/agent
SYSTEMCTL="${SYSTEMCTL:-systemctl}"
NPM="${NPM:-npm}"
CURL="${CURL:-curl}"
DOCKER="${DOCKER:-docker}"
TOOLKIT_CONFIG="${TOOLKIT_CONFIG:-/etc/nvidia-container-runtime/config.toml}"
# The agent's own default floor (node-agent/src/gpu/toolkit.ts, DEFAULT_MIN_TOOLKIT_VERSION).
DEFAULT_MIN_TOOLKIT=1.19.1
SRC="$(cd "$(dirname "$0")/../.." && pwd)"
SCRIPT_FILE="$0"
# shellcheck source=deploy/agent/gpu-probe-image.sh
. "$SRC/deploy/agent/gpu-probe-image.sh"

public_host=""; node_name=""; listen=""; port_range=""
simulate=""; tls_cert=""; tls_key=""; tls_ca=""; min_toolkit=""; uninstall=0
join_token=""; control_plane=""; ca_file=""; address=""
while [ $# -gt 0 ]; do
  case "$1" in
    --public-host) public_host="$2"; shift 2 ;;
    --node-name) node_name="$2"; shift 2 ;;
    --listen) listen="$2"; shift 2 ;;
    --port-range) port_range="$2"; shift 2 ;;
    --simulate-gpus) simulate="$2"; shift 2 ;;
    --tls-cert) tls_cert="$2"; shift 2 ;;
    --tls-key) tls_key="$2"; shift 2 ;;
    --tls-ca) tls_ca="$2"; shift 2 ;;
    --min-toolkit-version) min_toolkit="$2"; shift 2 ;;
    --join) join_token="$2"; shift 2 ;;
    --control-plane) control_plane="$2"; shift 2 ;;
    --ca-file) ca_file="$2"; shift 2 ;;
    --address) address="$2"; shift 2 ;;
    --uninstall) uninstall=1; shift ;;
    -h|--help) sed -n '2,29p' "$SCRIPT_FILE" 2>/dev/null || echo "see deploy/agent/README.md"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done

fail() { echo "error: $*" >&2; exit 1; }

[ -n "$ROOT" ] || [ "$(id -u)" -eq 0 ] || fail "run as root (sudo)"

if [ "$uninstall" -eq 1 ]; then
  "$SYSTEMCTL" disable --now gpucloud-agent 2>/dev/null || true
  rm -f "$ROOT$UNIT"; "$SYSTEMCTL" daemon-reload 2>/dev/null || true
  rm -rf "$ROOT$PREFIX"
  echo "gpucloud-agent removed. Kept: $CONF_DIR (token, config) and $DATA_DIR (user volumes)."
  echo "Containers keep running; remove the node in the admin console first to destroy them."
  exit 0
fi

if [ -n "$join_token" ]; then
  # The bundle brings its own Node.js; a checkout's settings would not apply.
  [ -z "$tls_cert$tls_key$tls_ca" ] || fail "--join makes the node's certificate itself: leave out --tls-cert, --tls-key and --tls-ca"
  control_plane="${control_plane:-$DEFAULT_CONTROL_PLANE}"
  [ -n "$control_plane" ] || fail "--join needs --control-plane <url> (the console's address, e.g. https://gpu.example.com)"
  control_plane="${control_plane%/}"
  case "$control_plane" in
    https://*) ;;
    http://*) echo "warning: $control_plane is plain http: the join token and the node token travel unencrypted; use https where the network is not trusted" >&2 ;;
    *) fail "--control-plane must be an http(s) URL, got $control_plane" ;;
  esac
  [ -z "$ca_file" ] || [ -r "$ca_file" ] || fail "cannot read --ca-file $ca_file"
  command -v "$CURL" >/dev/null || fail "curl is not installed"
  command -v sha256sum >/dev/null || fail "sha256sum is not installed (coreutils)"
  command -v tar >/dev/null || fail "tar is not installed"
else
  command -v node >/dev/null || fail "Node.js is not installed (need >= 20.19)"
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
    || fail "Node.js $(node --version) is too old (need >= 20.19)"
fi
command -v "$DOCKER" >/dev/null || fail "Docker is not installed (apt-get install docker.io, or Docker CE)"
"$DOCKER" info >/dev/null 2>&1 || fail "the Docker engine is not running (systemctl start docker)"

# A re-run without --simulate-gpus keeps the simulated GPUs of the existing config.
existing="$ROOT$CONF_DIR/agent.json"
if [ -z "$simulate" ] && [ -f "$existing" ]; then
  if command -v node >/dev/null; then
    simulate="$(node -e 'const c=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); process.stdout.write(c["simulate-gpus"]||"")' "$existing")"
  else # a --join host: no Node.js outside the bundle; agent.json has one key per line
    simulate="$(sed -n 's/^[[:space:]]*"simulate-gpus":[[:space:]]*"\([^"]*\)".*/\1/p' "$existing" | head -1)"
  fi
fi
# The version a toolkit program prints (`... version 1.19.1`, `cli-version: 1.19.1`); '' when absent.
part_version() {
  command -v "$1" >/dev/null 2>&1 || return 0
  "$1" --version 2>/dev/null | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -1 || true
}
older_than() { [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -1)" = "$1" ]; }

# A container started on one GPU the way the agent starts one (DeviceRequests by UUID, CDI where
# Docker lists the toolkit's devices), running the nvidia-smi the toolkit injects. Its image is
# made here, offline: the host's busybox and the C libraries the host's nvidia-smi links against
# (the toolkit brings nvidia-smi and the driver's libraries, not a libc).
gpu_probe() {
  local uuid="$1" path="$2" image="gpucloud/gpu-probe:local" out
  build_gpu_probe_image "$DOCKER" "$image" || fail "the GPU probe image could not be made"
  local gpu_args=(--gpus "device=$uuid")
  [ "$path" = cdi ] && gpu_args=(--device "nvidia.com/gpu=$uuid")
  out="$("$DOCKER" run --rm "${gpu_args[@]}" -e "NVIDIA_VISIBLE_DEVICES=$uuid" \
    -e NVIDIA_DRIVER_CAPABILITIES=compute,utility "$image" nvidia-smi -L 2>&1)" || true
  "$DOCKER" rmi "$image" >/dev/null 2>&1 || true
  if [ "$(printf '%s\n' "$out" | grep -c '^GPU ')" != 1 ] || ! printf '%s\n' "$out" | grep -q "(UUID: $uuid)"; then
    fail "the GPU probe container (docker run ${gpu_args[*]}, the agent's $path path) did not see exactly GPU 0 ($uuid); it printed:
$out"
  fi
}

if [ -z "$simulate" ]; then
  command -v nvidia-smi >/dev/null || fail "nvidia-smi not found: install the NVIDIA driver, or pass --simulate-gpus for a test host"
  nvidia-smi -L >/dev/null || fail "nvidia-smi cannot talk to the driver"
  floor="${min_toolkit:-$DEFAULT_MIN_TOOLKIT}"
  ctk="$(part_version nvidia-ctk)"; [ -n "$ctk" ] || ctk="$(part_version nvidia-container-toolkit)"
  cli="$(part_version nvidia-container-cli)"
  hook="$(part_version nvidia-container-runtime-hook)"
  cdi_hook="$(part_version nvidia-cdi-hook)"
  [ -n "$ctk$cli" ] || fail "the NVIDIA Container Toolkit is not installed (need >= $floor)"
  old_parts=""
  for part in "nvidia-ctk:$ctk" "nvidia-container-cli:$cli" "nvidia-container-runtime-hook:$hook" "nvidia-cdi-hook:$cdi_hook"; do
    version="${part#*:}"
    if [ -n "$version" ] && older_than "$version" "$floor"; then old_parts="$old_parts ${part%%:*} $version"; fi
  done
  if [ -n "$old_parts" ]; then
    echo "warning: NVIDIA Container Toolkit${old_parts} is older than $floor: the node will be marked unsafe and get no GPU work until it is upgraded" >&2
  fi
  mode="$(sed -n '/^\[nvidia-container-runtime\]/,/^\[/{s/^[[:space:]]*mode[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p}' "$TOOLKIT_CONFIG" 2>/dev/null | head -1 || true)"
  # Docker >= 28.2 lists the CDI devices it found (DiscoveredDevices); older engines list none.
  if "$DOCKER" info --format '{{json .DiscoveredDevices}}' 2>/dev/null | grep -q '"nvidia.com/gpu='; then
    gpu_path=cdi
  elif [ "$mode" = cdi ]; then
    fail "the NVIDIA Container Toolkit is in CDI mode ($TOOLKIT_CONFIG) but Docker lists no nvidia.com/gpu CDI devices: run nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml (Docker >= 28.2 lists them)"
  else
    gpu_path=legacy
  fi
  gpu0="$(nvidia-smi --query-gpu=uuid --format=csv,noheader -i 0 | head -1 | tr -d '[:space:]' || true)"
  [ -n "$gpu0" ] || fail "nvidia-smi did not report the UUID of GPU 0"
  gpu_probe "$gpu0" "$gpu_path"
fi

# Settings: the ones given now, else the existing file's, else the defaults. Written by node so
# that no value can break the JSON.   write_settings <node> <toolbox dir to set> <install dir to set>
write_settings() {
  local node_bin="$1" toolbox_given="$2" install_given="$3" hostname_full hostname_short
  hostname_full="$(hostname -f 2>/dev/null || hostname)"
  hostname_short="$(hostname -s 2>/dev/null || hostname)"
  GIVEN_LISTEN="$listen" GIVEN_PUBLIC_HOST="$public_host" GIVEN_PORT_RANGE="$port_range" \
  GIVEN_NODE_NAME="$node_name" GIVEN_SIMULATE="$simulate" GIVEN_TLS_CERT="$tls_cert" GIVEN_TLS_KEY="$tls_key" \
  GIVEN_TLS_CA="$tls_ca" GIVEN_MIN_TOOLKIT="$min_toolkit" DEFAULT_PUBLIC_HOST="$hostname_full" DEFAULT_NODE_NAME="$hostname_short" \
  GIVEN_TOOLBOX_DIR="$toolbox_given" GIVEN_INSTALL_DIR="$install_given" \
  VOLUME_ROOT="$DATA_DIR/volumes" TOOLBOX_DIR="$DATA_DIR/toolbox" "$node_bin" -e '
    const fs = require("fs");
    const file = process.argv[1];
    const env = process.env;
    const old = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
    const pick = (key, given, fallback) => given || old[key] || fallback;
    const cfg = {
      ...old,
      listen: pick("listen", env.GIVEN_LISTEN, "0.0.0.0:50051"),
      "public-host": pick("public-host", env.GIVEN_PUBLIC_HOST, env.DEFAULT_PUBLIC_HOST),
      "port-range": pick("port-range", env.GIVEN_PORT_RANGE, "20000-29999"),
      "volume-root": pick("volume-root", "", env.VOLUME_ROOT),
      "toolbox-dir": pick("toolbox-dir", env.GIVEN_TOOLBOX_DIR, env.TOOLBOX_DIR),
      "node-name": pick("node-name", env.GIVEN_NODE_NAME, env.DEFAULT_NODE_NAME),
    };
    for (const [key, given] of [["simulate-gpus", env.GIVEN_SIMULATE], ["tls-cert", env.GIVEN_TLS_CERT],
        ["tls-key", env.GIVEN_TLS_KEY], ["tls-ca", env.GIVEN_TLS_CA],
        ["min-toolkit-version", env.GIVEN_MIN_TOOLKIT], ["install-dir", env.GIVEN_INSTALL_DIR]]) {
      if (given) cfg[key] = given;
    }
    if (Boolean(cfg["tls-cert"]) !== Boolean(cfg["tls-key"])) {
      console.error("error: TLS needs both --tls-cert and --tls-key");
      process.exit(1);
    }
    fs.writeFileSync(file, JSON.stringify(cfg, null, 2) + "\n", { mode: 0o600 });
  ' "$ROOT$CONF_DIR/agent.json"
}

# The packages the container toolbox is built from (Debian's), installed where missing.
#   toolbox_packages <node> <build.mjs>
toolbox_packages() {
  local missing_pkgs
  missing_pkgs="$(TOOLBOX_BUILD="$2" "$1" --input-type=module -e "const m = await import(process.env.TOOLBOX_BUILD); console.log(m.missingPackages().join(' '))")"
  if [ -n "$missing_pkgs" ]; then
    command -v apt-get >/dev/null || fail "the container toolbox needs: $missing_pkgs (install them with your package manager)"
    echo "installing $missing_pkgs for the container toolbox"
    # shellcheck disable=SC2086 # a list of package names, split on purpose
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing_pkgs >/dev/null ||
      fail "could not install $missing_pkgs (apt-get update first?)"
  fi
}

# --join: the control plane's agent bundle, checked and unpacked into $AGENT_HOME/versions/,
# `current` switched to it, the host joined (gpucloud-agent join: key, certificate, node token)
# and the service started from the bundle.
join_install() {
  local tmp sum_line sum name unpacked version build dest current_bin toolbox_dir
  local curl_args=(-fsSL --retry 3 --connect-timeout 20)
  [ -z "$ca_file" ] || curl_args+=(--cacert "$ca_file")
  tmp="$(mktemp -d)"
  # shellcheck disable=SC2064 # expanded now, on purpose
  trap "rm -rf '$tmp'" EXIT
  sum_line="$("$CURL" "${curl_args[@]}" "$control_plane/install/agent-bundle.sha256")" ||
    fail "could not download $control_plane/install/agent-bundle.sha256"
  sum="$(printf '%s\n' "$sum_line" | awk 'NR==1 {print $1}')"
  name="$(printf '%s\n' "$sum_line" | awk 'NR==1 {print $2}')"
  [[ "$sum" =~ ^[0-9a-f]{64}$ ]] && [[ "$name" =~ ^gpucloud-agent-[A-Za-z0-9._-]+\.tar\.gz$ ]] ||
    fail "$control_plane/install/agent-bundle.sha256 is not a checksum line: $sum_line"
  echo "downloading $name"
  "$CURL" "${curl_args[@]}" -o "$tmp/$name" "$control_plane/install/agent-bundle.tar.gz" ||
    fail "could not download $control_plane/install/agent-bundle.tar.gz"
  (cd "$tmp" && printf '%s  %s\n' "$sum" "$name" | sha256sum -c --quiet - >/dev/null 2>&1) ||
    fail "the downloaded bundle does not match its SHA-256 ($sum): download it again"
  mkdir "$tmp/unpacked"
  tar -xzf "$tmp/$name" -C "$tmp/unpacked" --no-same-owner || fail "could not unpack $name"
  unpacked="$tmp/unpacked/gpucloud-agent"
  [ -x "$unpacked/bin/gpucloud-agent" ] && [ -f "$unpacked/VERSION" ] || fail "$name is not an agent bundle"
  version="$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' "$unpacked/VERSION")"
  build="$(sed -n 's/.*"build":"\([^"]*\)".*/\1/p' "$unpacked/VERSION")"
  [[ "$version" =~ ^[A-Za-z0-9.+_-]+$ ]] && [[ "$build" =~ ^[A-Za-z0-9]+$ ]] || fail "$name has no valid VERSION"
  "$unpacked/bin/gpucloud-agent" --version >/dev/null ||
    fail "the agent in $name does not run on this host ($(uname -sm)); the control plane ships the platform it runs on"

  mkdir -p "$ROOT$AGENT_HOME/versions" "$ROOT$CONF_DIR" "$ROOT$DATA_DIR/volumes" "$(dirname "$ROOT$UNIT")"
  chmod 700 "$ROOT$CONF_DIR"
  dest="$ROOT$AGENT_HOME/versions/$version-$build"
  if [ ! -x "$dest/bin/gpucloud-agent" ]; then
    rm -rf "$dest.new"
    cp -a "$unpacked" "$dest.new"
    rm -rf "$dest"
    mv "$dest.new" "$dest"
  fi
  # `current` switched in one rename: a restart at any moment starts one whole version.
  ln -sfn "versions/$version-$build" "$ROOT$AGENT_HOME/current.new"
  mv -T "$ROOT$AGENT_HOME/current.new" "$ROOT$AGENT_HOME/current"
  current_bin="$ROOT$AGENT_HOME/current/bin"

  if [ -f "$dest/toolbox/init" ]; then
    toolbox_dir="$AGENT_HOME/current/toolbox"
  else
    # A control plane without a built toolbox ships its recipe: built here, as from a checkout.
    toolbox_packages "$current_bin/node" "$dest/toolbox-build/build.mjs"
    "$current_bin/node" "$dest/toolbox-build/build.mjs" "$ROOT$DATA_DIR/toolbox" >/dev/null ||
      fail "building the container toolbox failed"
    toolbox_dir="$DATA_DIR/toolbox"
  fi
  write_settings "$current_bin/node" "$toolbox_dir" "$AGENT_HOME"

  local join_args=(join --control-plane "$control_plane" --token "$join_token" --config-dir "$CONF_DIR")
  [ -z "$ca_file" ] || join_args+=(--ca-file "$ca_file")
  [ -z "$address" ] || join_args+=(--address "$address")
  GPUCLOUD_INSTALL_ROOT="$ROOT" "$current_bin/gpucloud-agent" "${join_args[@]}" ||
    fail "the control plane did not accept this host (see above); ask for a new join token if this one was used or has expired"

  cat > "$ROOT$UNIT" <<'UNIT_FILE'
[Unit]
Description=gpucloud node agent (GPU host agent of the gpucloud platform)
Documentation=https://github.com/gpucloud/gpucloud/blob/main/deploy/agent/README.md
After=network-online.target docker.service
Wants=network-online.target
Requires=docker.service

[Service]
Type=simple
EnvironmentFile=/etc/gpucloud/agent.env
ExecStart=/opt/gpucloud/agent/current/bin/gpucloud-agent --config /etc/gpucloud/agent.json
# An upgrade (管理后台 → 节点 → 升级) switches `current` and exits; systemd starts the new version.
Restart=always
RestartSec=3
# The agent talks to Docker and reads nvidia-smi; it needs no other privileges of root.
NoNewPrivileges=true
ProtectSystem=full
ProtectHome=true
PrivateTmp=true
# Volumes and state; its certificate (renewed in place); its versions (upgrades).
ReadWritePaths=/var/lib/gpucloud /etc/gpucloud/tls /opt/gpucloud/agent
LimitNOFILE=65536

[Install]
WantedBy=multi-user.target
UNIT_FILE
  chmod 0644 "$ROOT$UNIT"
  "$SYSTEMCTL" daemon-reload
  "$SYSTEMCTL" enable gpucloud-agent >/dev/null
  "$SYSTEMCTL" restart gpucloud-agent
  echo
  echo "gpucloud-agent $version ($build) is running and has joined $control_plane:"
  echo "the node appears in 管理后台 → 节点 within seconds. Logs: journalctl -u gpucloud-agent -f"
}

if [ -n "$join_token" ]; then
  join_install
  exit 0
fi

mkdir -p "$ROOT$PREFIX" "$ROOT$CONF_DIR" "$ROOT$DATA_DIR/volumes" "$(dirname "$ROOT$UNIT")"
chmod 700 "$ROOT$CONF_DIR"

# Code: the repository's packages needed by the agent, installed from the registry.
rm -rf "$ROOT$PREFIX/proto" "$ROOT$PREFIX/node-agent"
cp -a "$SRC/package.json" "$SRC/package-lock.json" "$SRC/tsconfig.base.json" "$SRC/proto" "$SRC/node-agent" "$ROOT$PREFIX/"
rm -rf "$ROOT$PREFIX/node-agent/node_modules" "$ROOT$PREFIX/node-agent/test" "$ROOT$PREFIX/proto/node_modules"
rm -f "$ROOT$PREFIX"/node-agent/test-results.json "$ROOT$PREFIX"/proto/test-results.json
node -e '
  const fs = require("fs"); const f = process.argv[1]; const p = JSON.parse(fs.readFileSync(f));
  p.workspaces = ["proto", "node-agent"]; delete p.devDependencies; fs.writeFileSync(f, JSON.stringify(p, null, 2));
' "$ROOT$PREFIX/package.json"
(cd "$ROOT$PREFIX" && "$NPM" install --omit=dev --no-audit --no-fund >/dev/null)

# The container toolbox: the SSH server (Dropbear), sftp-server and static busybox every rented
# container gets, mounted read-only at /.gpucloud, from Debian's packages; never downloaded.
toolbox_packages node "$SRC/node-agent/toolbox/build.mjs"
node "$SRC/node-agent/toolbox/build.mjs" "$ROOT$DATA_DIR/toolbox" >/dev/null || fail "building the container toolbox failed"

# Token: generated once, kept across upgrades.
if [ ! -f "$ROOT$CONF_DIR/agent.env" ]; then
  (umask 077 && echo "AGENT_TOKEN=$(node -e 'console.log(require("crypto").randomBytes(24).toString("hex"))')" > "$ROOT$CONF_DIR/agent.env")
fi

write_settings node "" ""

install -m 0644 "$SRC/deploy/agent/gpucloud-agent.service" "$ROOT$UNIT"
"$SYSTEMCTL" daemon-reload
"$SYSTEMCTL" enable gpucloud-agent >/dev/null
"$SYSTEMCTL" restart gpucloud-agent

# shellcheck disable=SC1090,SC1091 # written above
. "$ROOT$CONF_DIR/agent.env"
registered_host="$(node -e 'const c=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); process.stdout.write(c["public-host"]+":"+c.listen.split(":").pop())' "$ROOT$CONF_DIR/agent.json")"
echo
echo "gpucloud-agent is running. Register it in the admin console (管理后台 → 节点 → 添加节点):"
echo "  gRPC 地址: $registered_host"
echo "  令牌:      $AGENT_TOKEN"
echo "Logs: journalctl -u gpucloud-agent -f"
