#!/.gpucloud/bin/sh
# Run by the agent with `docker exec` as root: `access.sh password` (the password on stdin),
# `access.sh keys` (authorized_keys lines on stdin), `access.sh login` (the password, then keys), `access.sh jupyter DIR` (two JSON lines on
# stdin: Jupyter Server's and classic Notebook's config). Secrets never reach a command line,
# and no tool of the image is needed.
T=/.gpucloud
BB=$T/bin/busybox
. $T/lib/common.sh
set -e

set_password() {
  IFS= read -r password || [ -n "$password" ]
  [ -n "$password" ] || { echo "empty password" >&2; return 1; }
  hash=$(printf '%s\n' "$password" | $BB mkpasswd -m sha512 -P 0)
  prepare_account
  $BB awk -F: -v OFS=: -v h="$hash" '$1 == "root" { $2 = h } { print }' /etc/shadow >/etc/shadow.gpucloud
  $BB chmod 600 /etc/shadow.gpucloud
  $BB mv -f /etc/shadow.gpucloud /etc/shadow
}

set_keys() {
  prepare_account
  home=$(root_home)
  umask 077
  $BB cat >"$home/.ssh/authorized_keys.gpucloud"
  $BB mv -f "$home/.ssh/authorized_keys.gpucloud" "$home/.ssh/authorized_keys"
}

# The first line is the password (empty: unchanged), the rest authorized_keys: one exec for both.
set_login() {
  IFS= read -r password || true
  set_keys
  if [ -n "$password" ]; then printf '%s\n' "$password" | set_password; fi
}

set_jupyter() {
  dir=$1
  umask 022
  $BB mkdir -p "$dir"
  IFS= read -r server
  IFS= read -r notebook
  printf '%s\n' "$server" >"$dir/.jupyter_server_config.json"
  printf '%s\n' "$notebook" >"$dir/.jupyter_notebook_config.json"
  $BB mv -f "$dir/.jupyter_server_config.json" "$dir/jupyter_server_config.json"
  $BB mv -f "$dir/.jupyter_notebook_config.json" "$dir/jupyter_notebook_config.json"
  # A running Jupyter reads its token at start: restart it (the init's supervisor does).
  if [ -f /run/gpucloud/jupyter.pid ]; then kill -TERM "$($BB cat /run/gpucloud/jupyter.pid)" 2>/dev/null || true; fi
}

case "$1" in
password) with_lock set_password ;;
keys) with_lock set_keys ;;
login) with_lock set_login ;;
jupyter) set_jupyter "$2" ;;
*)
  echo "usage: access.sh password|keys|login|jupyter DIR" >&2
  exit 2
  ;;
esac
