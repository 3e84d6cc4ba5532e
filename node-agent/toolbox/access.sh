#!/.gpucloud/bin/sh
# Run by the agent with `docker exec` as root in a running container: `access.sh password` (the
# password on stdin), `access.sh keys` (authorized_keys lines on stdin), `access.sh login` (the
# password, then keys), `access.sh jupyter DIR` (two JSON lines on stdin: Jupyter Server's and
# classic Notebook's config). Secrets never reach a command line, and no tool of the image is
# needed. (A start stages the same for the init instead: staged-access.ts.)
T=/.gpucloud
. $T/lib/common.sh
set -e

set_password() {
  prepare_account
  write_password
}

set_keys() {
  prepare_account
  write_keys
}

# The first line is the password (empty: unchanged), the rest authorized_keys: one exec for both.
set_login() {
  IFS= read -r password || true
  prepare_account
  write_keys
  if [ -n "$password" ]; then printf '%s\n' "$password" | write_password; fi
}

set_jupyter() {
  dir=$1
  umask 022
  mkdir -p "$dir"
  IFS= read -r server
  IFS= read -r notebook
  printf '%s\n' "$server" >"$dir/.jupyter_server_config.json"
  printf '%s\n' "$notebook" >"$dir/.jupyter_notebook_config.json"
  mv -f "$dir/.jupyter_server_config.json" "$dir/jupyter_server_config.json"
  mv -f "$dir/.jupyter_notebook_config.json" "$dir/jupyter_notebook_config.json"
  # A running Jupyter reads its token at start: restart it (the init's supervisor does).
  if [ -f /run/gpucloud/jupyter.pid ]; then kill -TERM "$(cat /run/gpucloud/jupyter.pid)" 2>/dev/null || true; fi
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
