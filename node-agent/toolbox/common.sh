# Shared by init.sh and access.sh; sourced, never run. Needs T and BB.
log() { echo "[gpucloud] $*"; }

# mkdir is atomic: the agent's access calls and the init's account set-up never interleave
# their edits of /etc/passwd and /etc/shadow. The lock lives on the container's /dev/shm, a
# tmpfs made anew at every start, so a container stopped while holding it never finds it stale.
with_lock() {
  lock=/dev/shm/.gpucloud.lock
  [ -d /dev/shm ] && [ -w /dev/shm ] || lock=/tmp/.gpucloud.lock
  tries=0
  until $BB mkdir "$lock" 2>/dev/null; do
    tries=$((tries + 1))
    # A holder is done within a second; after 10 s it is gone (killed), and so is its claim.
    [ "$tries" -gt 200 ] && $BB rmdir "$lock" 2>/dev/null
    $BB sleep 0.05
  done
  # A step that fails under `set -e` (access.sh) ends the script: the claim goes with it.
  trap '$BB rmdir "$lock" 2>/dev/null' EXIT
  "$@"
  rc=$?
  $BB rmdir "$lock" 2>/dev/null
  trap - EXIT
  return $rc
}

# Root's login shell: the image's bash, else its sh, else our busybox sh.
login_shell() {
  for shell in /bin/bash /usr/bin/bash /bin/sh /usr/bin/sh; do
    [ -x "$shell" ] && $BB test -f "$($BB readlink -f "$shell")" && {
      echo "$shell"
      return
    }
  done
  echo "$T/bin/sh"
}

# root in /etc/passwd with a login shell and /root, /etc/shadow with a root line, the shell in
# /etc/shells (Dropbear refuses a shell that is not listed).
prepare_account() {
  shell=$(login_shell)
  $BB mkdir -p /etc /root
  [ -f /etc/passwd ] || : >/etc/passwd
  if $BB grep -q '^root:' /etc/passwd; then
    $BB awk -F: -v OFS=: -v sh="$shell" '$1 == "root" { if ($6 == "") $6 = "/root"; $7 = sh; if ($2 != "x") { $2 = "x" } } { print }' \
      /etc/passwd >/etc/passwd.gpucloud && $BB cat /etc/passwd.gpucloud >/etc/passwd && $BB rm -f /etc/passwd.gpucloud
  else
    echo "root:x:0:0:root:/root:$shell" >>/etc/passwd
  fi
  $BB grep -q '^root:' /etc/group 2>/dev/null || echo "root:x:0:" >>/etc/group
  [ -f /etc/shadow ] || { : >/etc/shadow && $BB chmod 600 /etc/shadow; }
  $BB grep -q '^root:' /etc/shadow || echo 'root:*:19000:0:99999:7:::' >>/etc/shadow
  $BB grep -qx "$shell" /etc/shells 2>/dev/null || echo "$shell" >>/etc/shells
  home=$(root_home)
  $BB mkdir -p "$home/.ssh" && $BB chmod 700 "$home/.ssh" && $BB chmod go-w "$home"
}

root_home() {
  home=$($BB awk -F: '$1 == "root" { print $6 }' /etc/passwd)
  echo "${home:-/root}"
}

# Variables of the container that are the platform's, not the image's: never in a session.
PRIVATE_ENV='GPUCLOUD_[A-Z_]*|JUPYTER_TOKEN|JUPYTER_PASSWORD'

# The image's environment (PATH, CUDA variables) for SSH sessions. Login shells: Debian's
# /etc/profile resets PATH for root, and profile.d comes after it. Other sessions get the
# environment from Dropbear's -e, but Dropbear always sets its own PATH: bash reads BASH_ENV
# (session-env.sh) before the command and puts the image's PATH back.
save_environment() {
  $BB mkdir -p /etc/profile.d /etc/gpucloud
  export -p | $BB grep -v -E "^export (HOME|HOSTNAME|PWD|OLDPWD|SHLVL|TERM|SHELL|USER|LOGNAME|MAIL|_|$PRIVATE_ENV)=" \
    >/etc/profile.d/gpucloud-env.sh
  [ -f /etc/profile ] || printf 'for f in /etc/profile.d/*.sh; do [ -r "$f" ] && . "$f"; done\n' >/etc/profile
  { export -p | $BB grep -E '^export PATH='; echo 'unset BASH_ENV'; } >/etc/gpucloud/session-env.sh
}

# The command line that runs "$@" without the platform's variables, with BASH_ENV for sessions.
session_env() {
  set -- $($BB env | $BB sed -n -E "s/^($PRIVATE_ENV)=.*/-u \1/p")
  echo "$@" BASH_ENV=/etc/gpucloud/session-env.sh
}

# `jupyter lab`, else `jupyter notebook`, on the image's PATH.
jupyter_command() {
  if command -v jupyter-lab >/dev/null 2>&1; then
    echo "jupyter-lab"
  elif command -v jupyter-notebook >/dev/null 2>&1; then
    echo "jupyter-notebook"
  else
    return 1
  fi
}

# Runs "$@" in the background and again whenever it exits (after a pause, so a broken
# program does not spin); its pid in $RUN/<name>.pid so a stop can end it.
supervise() {
  name=$1
  shift
  (
    trap 'kill -TERM "$child" 2>/dev/null; exit 0' TERM INT
    while :; do
      "$@" &
      child=$!
      echo "$child" >"$RUN/$name.pid"
      wait "$child"
      log "$name 已退出 (退出码 $?), 3 秒后重启"
      $BB sleep 3
    done
  ) &
  echo $! >"$RUN/$name.supervisor"
}

as_user() {
  user=$1
  shift
  uid=$($BB id -u "$user" 2>/dev/null || echo "$user")
  gid=$($BB id -g "$user" 2>/dev/null || echo "$uid")
  HOME=$($BB awk -F: -v u="$user" '$1 == u { print $6 }' /etc/passwd)
  export HOME="${HOME:-/}"
  exec $BB setpriv --reuid="$uid" --regid="$gid" --clear-groups "$@"
}
