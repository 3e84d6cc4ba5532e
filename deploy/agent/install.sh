#!/usr/bin/env bash
# Installs (or upgrades) the gpucloud node agent on a GPU host. Safe to re-run: it keeps the
# existing token and configuration, refreshes the code and restarts the service.
#
#   sudo ./deploy/agent/install.sh --public-host gpu1.example.com [--node-name gpu1]
#        [--listen 0.0.0.0:50051] [--port-range 30000-39999] [--simulate-gpus 8xRTX4090]
#        [--tls-cert FILE --tls-key FILE [--tls-ca FILE]] [--uninstall]
#
# Run it from a checkout of the repository. It needs Node.js >= 20.19, Docker, and on GPU hosts
# the NVIDIA driver and the NVIDIA Container Toolkit (>= 1.17.8; older releases have known
# container escapes, and the agent marks such a host unsafe).
set -euo pipefail

PREFIX=/opt/gpucloud
CONF_DIR=/etc/gpucloud
DATA_DIR=/var/lib/gpucloud
UNIT=/etc/systemd/system/gpucloud-agent.service
SRC="$(cd "$(dirname "$0")/../.." && pwd)"

public_host=""; node_name="$(hostname -s)"; listen="0.0.0.0:50051"; port_range="30000-39999"
simulate=""; tls_cert=""; tls_key=""; tls_ca=""; uninstall=0
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
    --uninstall) uninstall=1; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done

[ "$(id -u)" -eq 0 ] || { echo "run as root (sudo)" >&2; exit 1; }

if [ "$uninstall" -eq 1 ]; then
  systemctl disable --now gpucloud-agent 2>/dev/null || true
  rm -f "$UNIT"; systemctl daemon-reload 2>/dev/null || true
  rm -rf "$PREFIX"
  echo "gpucloud-agent removed. Kept: $CONF_DIR (token, config) and $DATA_DIR (user volumes)."
  echo "Containers keep running; remove the node in the admin console first to destroy them."
  exit 0
fi

fail() { echo "error: $*" >&2; exit 1; }

command -v node >/dev/null || fail "Node.js is not installed (need >= 20.19)"
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
  || fail "Node.js $(node --version) is too old (need >= 20.19)"
command -v docker >/dev/null || fail "Docker is not installed"
docker info >/dev/null 2>&1 || fail "the Docker engine is not running (systemctl start docker)"

if [ -z "$simulate" ]; then
  command -v nvidia-smi >/dev/null || fail "nvidia-smi not found: install the NVIDIA driver, or pass --simulate-gpus for a test host"
  nvidia-smi -L >/dev/null || fail "nvidia-smi cannot talk to the driver"
  toolkit="$( (nvidia-ctk --version 2>/dev/null || nvidia-container-toolkit --version 2>/dev/null) | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -1 || true)"
  [ -n "$toolkit" ] || fail "the NVIDIA Container Toolkit is not installed (need >= 1.17.8)"
  if [ "$(printf '%s\n1.17.8\n' "$toolkit" | sort -V | head -1)" != "1.17.8" ]; then
    echo "warning: NVIDIA Container Toolkit $toolkit is older than 1.17.8: the node will be marked unsafe and get no GPU work" >&2
  fi
  docker info 2>/dev/null | grep -qi 'nvidia' || echo "warning: Docker has no nvidia runtime registered (nvidia-ctk runtime configure --runtime=docker)" >&2
fi
[ -n "$public_host" ] || public_host="$(hostname -f)"

mkdir -p "$PREFIX" "$CONF_DIR" "$DATA_DIR/volumes"
chmod 700 "$CONF_DIR"

# Code: the repository's packages needed by the agent, installed from the registry.
rm -rf "$PREFIX/proto" "$PREFIX/node-agent"
cp -a "$SRC/package.json" "$SRC/package-lock.json" "$SRC/tsconfig.base.json" "$SRC/proto" "$SRC/node-agent" "$PREFIX/"
rm -rf "$PREFIX/node-agent/node_modules" "$PREFIX/node-agent/test"
node -e '
  const fs = require("fs"); const f = process.argv[1]; const p = JSON.parse(fs.readFileSync(f));
  p.workspaces = ["proto", "node-agent"]; delete p.devDependencies; fs.writeFileSync(f, JSON.stringify(p, null, 2));
' "$PREFIX/package.json"
(cd "$PREFIX" && npm install --omit=dev --no-audit --no-fund >/dev/null)

# Token: generated once, kept across upgrades.
if [ ! -f "$CONF_DIR/agent.env" ]; then
  umask 077
  echo "AGENT_TOKEN=$(node -e 'console.log(require("crypto").randomBytes(24).toString("hex"))')" > "$CONF_DIR/agent.env"
fi

cfg="{\"listen\":\"$listen\",\"public-host\":\"$public_host\",\"port-range\":\"$port_range\",\"volume-root\":\"$DATA_DIR/volumes\",\"node-name\":\"$node_name\""
[ -n "$simulate" ] && cfg="$cfg,\"simulate-gpus\":\"$simulate\""
[ -n "$tls_cert" ] && cfg="$cfg,\"tls-cert\":\"$tls_cert\",\"tls-key\":\"$tls_key\""
[ -n "$tls_ca" ] && cfg="$cfg,\"tls-ca\":\"$tls_ca\""
echo "$cfg}" > "$CONF_DIR/agent.json"

install -m 0644 "$SRC/deploy/agent/gpucloud-agent.service" "$UNIT"
systemctl daemon-reload
systemctl enable gpucloud-agent >/dev/null
systemctl restart gpucloud-agent

. "$CONF_DIR/agent.env"
echo
echo "gpucloud-agent is running. Register it in the admin console (管理后台 → 节点 → 添加节点):"
echo "  gRPC 地址: $public_host:${listen##*:}"
echo "  令牌:      $AGENT_TOKEN"
echo "Logs: journalctl -u gpucloud-agent -f"
