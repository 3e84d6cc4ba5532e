#!/.gpucloud/bin/sh
# gpucloud init: the child of the container's PID 1 (docker-init) in every rented container.
# It makes the container a machine a user can reach, whatever the image holds: root's account,
# the access the agent staged for this start, host keys and our own SSH server (Dropbear from
# the read-only toolbox), Jupyter where the image has it, then the image's own ENTRYPOINT + CMD
# ("$@"). When that command exits (a bare `bash` with no terminal exits at once) the container
# stays up until the user stops it. Only busybox applets of the toolbox are used: the image may
# have no tools and no libc.
T=/.gpucloud
RUN=/run/gpucloud
. $T/lib/common.sh

log "容器 ${HOSTNAME:-$(hostname)} 启动 (gpucloud init)"
umask 022
# Until the SSH server answers, every process is milliseconds of a start the user waits for:
# the steps before it use shell builtins where they can, and one mkdir makes every folder they
# need (the runtime folder, the host keys', root's .ssh).
KEYS=/etc/gpucloud/ssh
account_home
if [ ! -d "$RUN" ] || [ ! -d "$KEYS" ] || [ ! -d "$home/.ssh" ]; then
  mkdir -p -m 700 "$RUN" "$KEYS" "$home/.ssh" 2>/dev/null
fi
[ -d "$RUN" ] || { RUN=/tmp/gpucloud && mkdir -p "$RUN"; }
for stale in "$RUN"/*.pid "$RUN"/*.supervisor "$RUN"/*.state; do
  if [ -e "$stale" ]; then
    rm -f "$RUN"/*.pid "$RUN"/*.supervisor "$RUN"/*.state
    break
  fi
done

# Host keys live in the container's own filesystem: a stop/start or a recreate (the commit
# carries them) keeps the fingerprint users accepted. At the first start they are the ones the
# agent staged, copied in. A container started without staged keys gets Ed25519 and ECDSA keys
# made here, which every client since OpenSSH 6.5 and PuTTY 0.68 takes (an RSA key would hold
# the first start up by half a second).
have_keys() { [ -s "$1/dropbear_ed25519_host_key" ] && [ -s "$1/dropbear_ecdsa_host_key" ]; }
install_host_keys() {
  have_keys "$KEYS" && return
  # The agent empties the folder when the start is over, which for a container without an SSH
  # port is at once: keys gone meanwhile are made here instead.
  if have_keys "$STAGED" &&
    cp "$STAGED/dropbear_ed25519_host_key" "$STAGED/dropbear_ecdsa_host_key" "$KEYS/" 2>/dev/null &&
    have_keys "$KEYS"; then
    return
  fi
  for type in ed25519 ecdsa; do
    [ -s "$KEYS/dropbear_${type}_host_key" ] && continue
    "$T/bin/dropbearkey" -t "$type" -f "$KEYS/dropbear_${type}_host_key" >/dev/null 2>&1 ||
      log "生成 $type 主机密钥失败"
  done
}

# sftp (and scp, which speaks sftp) runs the server's compiled-in sftp-server path; the legacy
# scp protocol runs `scp -t` on the server: ours where the image has none.
link_tools() {
  if [ ! -e /usr/lib/sftp-server ] && [ ! -L /usr/lib/sftp-server ]; then
    mkdir -p /usr/lib && ln -s "$T/libexec/sftp-server" /usr/lib/sftp-server
  fi
  if ! command -v scp >/dev/null 2>&1; then
    mkdir -p /usr/local/bin && ln -sf "$T/bin/scp" /usr/local/bin/scp
  fi
}

prepare_machine() {
  prepare_account
  apply_staged_access
}

# What the SSH server needs runs side by side (two processors make the first banner come
# sooner), and all of it is done before the server starts: its first login finds the account,
# the keys, the environment and the tools in place.
install_host_keys &
keys_job=$!
save_environment &
environment_job=$!
link_tools &
tools_job=$!
with_lock prepare_machine
wait "$keys_job" "$environment_job" "$tools_job"

SSH_PORT=${GPUCLOUD_SSH_PORT:-22}
run_sshd() {
  session_environment
  exec "$T/bin/dropbear" -F -e -p "$SSH_PORT" -K 30 \
    -r "$KEYS/dropbear_ed25519_host_key" -r "$KEYS/dropbear_ecdsa_host_key"
}
supervise sshd run_sshd
log "SSH 服务监听端口 $SSH_PORT"

# Jupyter on its port with the container password as token (JUPYTER_TOKEN, or the config the
# agent staged, copied to JUPYTER_CONFIG_PATH), unless the image's own command starts it.
# The state file tells the health check what to wait for.
if [ -n "$GPUCLOUD_JUPYTER_PORT" ]; then
  install_staged_jupyter_config || log "写入 Jupyter 配置失败"
  case " $* " in
  *jupyter*)
    echo image >"$RUN/jupyter.state"
    log "镜像命令自带 Jupyter"
    ;;
  *)
    if jupyter_command >/dev/null; then
      echo running >"$RUN/jupyter.state"
      # shellcheck disable=SC2046
      supervise jupyter $(jupyter_command) --ip=0.0.0.0 --port="$GPUCLOUD_JUPYTER_PORT" \
        --allow-root --no-browser
      log "Jupyter 监听端口 $GPUCLOUD_JUPYTER_PORT"
    else
      echo absent >"$RUN/jupyter.state"
      log "该镜像未安装 JupyterLab"
    fi
    ;;
  esac
fi

main=
stop() {
  [ -n "$main" ] && kill -TERM "$main" 2>/dev/null
  for pidfile in "$RUN"/*.supervisor "$RUN"/*.pid; do
    [ -f "$pidfile" ] && kill -TERM "$(cat "$pidfile")" 2>/dev/null
  done
  exit 0
}
trap stop TERM INT HUP

if [ "$#" -gt 0 ]; then
  resolve_command "$1"
  shift
  set -- "$resolved" "$@"
  if [ -n "$GPUCLOUD_USER" ] && [ "$GPUCLOUD_USER" != root ] && [ "$GPUCLOUD_USER" != 0 ]; then
    as_user "$GPUCLOUD_USER" "$@" &
  else
    "$@" &
  fi
  main=$!
  wait "$main"
  code=$?
  main=
  log "镜像命令已退出 (退出码 $code): $*; 容器继续运行, 可通过 SSH 登录"
fi
# Keep the machine up; `wait` returns at once without children, so sleep in the background.
while :; do
  sleep 2147483647 &
  wait $!
done
