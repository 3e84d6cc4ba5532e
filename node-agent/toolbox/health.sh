#!/.gpucloud/bin/sh
# Docker's HEALTHCHECK of every rented container: healthy once our SSH server answers with its
# banner and, where the init started Jupyter, Jupyter answers HTTP. The one line it prints is
# read back by the agent (ssh=… jupyter=running|starting|absent|image|off).
T=/.gpucloud
RUN=/run/gpucloud
[ -d "$RUN" ] || RUN=/tmp/gpucloud

banner=$(timeout 2 nc 127.0.0.1 "${GPUCLOUD_SSH_PORT:-22}" </dev/null 2>/dev/null | head -c 4)
[ "$banner" = "SSH-" ] && ssh=ok || ssh=down

jupyter=off
if [ -n "$GPUCLOUD_JUPYTER_PORT" ]; then
  jupyter=$(cat "$RUN/jupyter.state" 2>/dev/null || echo starting)
  if [ "$jupyter" = running ] || [ "$jupyter" = image ]; then
    timeout 3 wget -q -O /dev/null "http://127.0.0.1:$GPUCLOUD_JUPYTER_PORT/api" 2>/dev/null ||
      jupyter=starting
  fi
fi
echo "ssh=$ssh jupyter=$jupyter"
[ "$ssh" = ok ] && [ "$jupyter" != starting ]
