# Shared by init.sh and access.sh; sourced, never run. Needs T.
# They run in our busybox's shell, which runs its own applets for names like awk, cat, mkdir
# (it prefers them to the image's PATH): no tool of the image is needed. The steps before the
# SSH server starts use shell builtins where they can: every process is milliseconds of a start
# the user waits for.
log() { echo "[gpucloud] $*"; }

# One holder at a time: the agent's access calls and the init's account set-up never interleave
# their edits of /etc/passwd and /etc/shadow. The claim is a file made with O_EXCL (noclobber, a
# shell builtin: no process to wait for) on the container's /dev/shm, a tmpfs made anew at every
# start, so a container stopped while holding it never finds it stale.
with_lock() {
  lock=/dev/shm/.gpucloud.lock
  [ -d /dev/shm ] && [ -w /dev/shm ] || lock=/tmp/.gpucloud.lock
  tries=0
  set -C
  until true 2>/dev/null >"$lock"; do
    tries=$((tries + 1))
    # A holder is done within a second; after 10 s it is gone (killed), and so is its claim.
    [ "$tries" -gt 200 ] && rm -f "$lock"
    sleep 0.05
  done
  set +C
  # A step that fails under `set -e` (access.sh) ends the script: the claim goes with it.
  trap 'rm -f "$lock"' EXIT
  "$@"
  rc=$?
  rm -f "$lock"
  trap - EXIT
  return $rc
}

# Root's login shell in $shell: the image's bash, else its sh, else our busybox sh.
login_shell() {
  for shell in /bin/bash /usr/bin/bash /bin/sh /usr/bin/sh; do
    # -f follows symlinks: a dangling /bin/sh (an image without a shell) is skipped.
    [ -x "$shell" ] && [ -f "$shell" ] && return
  done
  shell="$T/bin/sh"
}

# Sets $line to the first line of file $2 that starts with "$1:" ('' when none).
find_entry() {
  line=
  [ -f "$2" ] || return 1
  while IFS= read -r line || [ -n "$line" ]; do
    case $line in "$1":*) return 0 ;; esac
  done <"$2"
  line=
  return 1
}

# root in /etc/passwd with a login shell and a home, /etc/shadow with a root line, the shell in
# /etc/shells (Dropbear refuses a shell that is not listed). Sets $home. Rewrites a file only
# where it lacks what is needed.
prepare_account() {
  login_shell
  [ -d /etc ] || mkdir -p /etc
  if find_entry root /etc/passwd; then
    old_ifs=$IFS
    IFS=:
    # shellcheck disable=SC2086
    set -- $line
    IFS=$old_ifs
    home=${6:-/root}
    if [ "$2" != x ] || [ "$7" != "$shell" ] || [ -z "$6" ]; then
      awk -F: -v OFS=: -v sh="$shell" '$1 == "root" { if ($6 == "") $6 = "/root"; $7 = sh; $2 = "x" } { print }' \
        /etc/passwd >/etc/passwd.gpucloud && cat /etc/passwd.gpucloud >/etc/passwd && rm -f /etc/passwd.gpucloud
    fi
  else
    home=/root
    echo "root:x:0:0:root:/root:$shell" >>/etc/passwd
  fi
  find_entry root /etc/group || echo "root:x:0:" >>/etc/group
  if ! find_entry root /etc/shadow; then
    [ -f /etc/shadow ] || (umask 077 && : >/etc/shadow)
    echo 'root:*:19000:0:99999:7:::' >>/etc/shadow
  fi
  listed=
  if [ -f /etc/shells ]; then
    while IFS= read -r entry || [ -n "$entry" ]; do
      [ "$entry" = "$shell" ] && listed=1 && break
    done </etc/shells
  fi
  [ -n "$listed" ] || echo "$shell" >>/etc/shells
  # The init makes the folder with its own (one mkdir for all it needs).
  [ -d "$home/.ssh" ] || mkdir -p -m 700 "$home/.ssh"
  # Dropbear ignores authorized_keys under a folder others may write to.
  chmod go-w "$home" "$home/.ssh"
}

# root's home in $home, from /etc/passwd (/root when it names none).
account_home() {
  home=/root
  find_entry root /etc/passwd || return 0
  old_ifs=$IFS
  IFS=:
  # shellcheck disable=SC2086
  set -- $line
  IFS=$old_ifs
  home=${6:-/root}
}

# Standard input to file $1: a new root-only file beside it, renamed over it, so a login never
# reads half a file.
replace_file() {
  umask 077
  while IFS= read -r entry || [ -n "$entry" ]; do
    printf '%s\n' "$entry"
  done >"$1.gpucloud"
  umask 022
  mv -f "$1.gpucloud" "$1"
}

# root's password hash ($1, crypt(3) format) into /etc/shadow. One sed (it writes a new file
# with the old one's owner and mode and renames it over it) rather than the shell's read, which
# takes a file a byte at a time.
write_hash() {
  case $1 in
  '' | *[!A-Za-z0-9./\$]*)
    echo "not a crypt(3) hash" >&2
    return 1
    ;;
  esac
  sed -i "s|^root:[^:]*:|root:$1:|" /etc/shadow
}

# root's password from the first line of stdin, hashed by our busybox.
write_password() {
  IFS= read -r password || [ -n "$password" ]
  [ -n "$password" ] || { echo "empty password" >&2; return 1; }
  hash=$(printf '%s\n' "$password" | mkpasswd -m sha512 -P 0) || return 1
  write_hash "$hash"
}

# root's authorized_keys (in $home) from stdin, replaced as a whole.
write_keys() {
  replace_file "$home/.ssh/authorized_keys"
}

# What the agent staged for this start (node-agent/src/containers/staged-access.ts): applied
# before the SSH server starts. The agent empties the folder once the start is over.
STAGED=$T/staged
apply_staged_access() {
  if [ -f "$STAGED/authorized_keys" ]; then
    cp "$STAGED/authorized_keys" "$home/.ssh/authorized_keys" 2>/dev/null || log "写入 SSH 公钥失败"
  fi
  if [ -f "$STAGED/password.hash" ]; then
    staged_hash=
    { IFS= read -r staged_hash <"$STAGED/password.hash"; } 2>/dev/null
    # Empty: the agent emptied the folder meanwhile (a start without an SSH port is over at once).
    if [ -n "$staged_hash" ]; then write_hash "$staged_hash" || log "设置 root 密码失败"; fi
  fi
}

# Jupyter's token config, staged with the password: in place before the init starts Jupyter.
install_staged_jupyter_config() {
  [ -f "$STAGED/jupyter_server_config.json" ] || return 0
  mkdir -p "$JUPYTER_CONFIG_DIR" &&
    cp "$STAGED/jupyter_server_config.json" "$STAGED/jupyter_notebook_config.json" "$JUPYTER_CONFIG_DIR/"
}
JUPYTER_CONFIG_DIR=/etc/gpucloud/jupyter

# The image's environment (PATH, CUDA variables) for SSH sessions. Login shells: Debian's
# /etc/profile resets PATH for root, and profile.d comes after it. Other sessions get the
# environment from Dropbear's -e, but Dropbear always sets its own PATH: bash reads BASH_ENV
# (session-env.sh) before the command and puts the image's PATH back.
save_environment() {
  [ -d /etc/profile.d ] || mkdir -p /etc/profile.d
  [ -d /etc/gpucloud ] || mkdir -p /etc/gpucloud
  umask 022
  # In a subshell, so the init keeps what it leaves out: the variables every session sets for
  # itself and the platform's own.
  (
    # shellcheck disable=SC2086
    unset HOME HOSTNAME PWD OLDPWD SHLVL TERM SHELL USER LOGNAME MAIL $PLATFORM_VARIABLES
    export -p
  ) >/etc/profile.d/gpucloud-env.sh
  [ -f /etc/profile ] || printf 'for f in /etc/profile.d/*.sh; do [ -r "$f" ] && . "$f"; done\n' >/etc/profile
  case $PATH in
  *\'*) grep -E '^export PATH=' /etc/profile.d/gpucloud-env.sh >/etc/gpucloud/session-env.sh ;;
  *) printf "export PATH='%s'\n" "$PATH" >/etc/gpucloud/session-env.sh ;;
  esac
  echo 'unset BASH_ENV' >>/etc/gpucloud/session-env.sh
}

# Leaves the platform's variables out of this shell's environment (and so of what it runs),
# and points bash sessions at session-env.sh.
PLATFORM_VARIABLES="GPUCLOUD_SSH_PORT GPUCLOUD_JUPYTER_PORT GPUCLOUD_USER JUPYTER_TOKEN JUPYTER_PASSWORD"
session_environment() {
  # shellcheck disable=SC2086
  unset $PLATFORM_VARIABLES
  export BASH_ENV=/etc/gpucloud/session-env.sh
}

# $1 as the image's PATH finds it (busybox would otherwise run its own applet of that name:
# an image whose command is `sh` or `httpd` gets its own program). Sets $resolved.
resolve_command() {
  resolved=$1
  case $1 in */* | '') return ;; esac
  old_ifs=$IFS
  IFS=:
  for dir in $PATH; do
    if [ -f "${dir:-.}/$1" ] && [ -x "${dir:-.}/$1" ]; then
      resolved=${dir:-.}/$1
      break
    fi
  done
  IFS=$old_ifs
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
      sleep 3
    done
  ) &
  echo $! >"$RUN/$name.supervisor"
}

as_user() {
  user=$1
  shift
  uid=$(id -u "$user" 2>/dev/null || echo "$user")
  gid=$(id -g "$user" 2>/dev/null || echo "$uid")
  HOME=$(awk -F: -v u="$user" '$1 == u { print $6 }' /etc/passwd)
  export HOME="${HOME:-/}"
  exec setpriv --reuid="$uid" --regid="$gid" --clear-groups "$@"
}
