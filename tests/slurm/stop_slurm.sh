#!/bin/sh
# Stops the private Slurm that start_slurm.sh started in DIR (by its pid files).
dir=$1
for name in slurmd slurmctld munged; do
  if [ -f "$dir/$name.pid" ]; then
    pid=$(cat "$dir/$name.pid")
    kill "$pid" 2>/dev/null
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  fi
done
exit 0
