#!/bin/sh
# Reads the log of GPU holds that graders write where BANKLAB_GPU_LOCK_LOG
# names a file (lines "KEY PID START_US END_US WHAT"): per GPU, the number of
# holds, the time held and the wall time they spanned, and whether any two
# holds of one GPU overlapped (exit 1 if so).
#   common/scripts/check_gpu_lock_log.sh holds.log
set -eu
[ $# -eq 1 ] && [ -f "$1" ] || { echo "usage: check_gpu_lock_log.sh LOG (the file BANKLAB_GPU_LOCK_LOG named)" >&2; exit 2; }
sort -k1,1 -k3,3n "$1" | awk '
  { key = $1; start = $3; end = $4
    if (key != last) { last = key; prev_end = 0; first[key] = start }
    holds[key]++; held[key] += end - start; last_end[key] = end > last_end[key] ? end : last_end[key]
    if (prev_end > start) { overlaps[key]++; printf "overlap on %s: a hold from %.0f to %.0f us, the next from %.0f (pid %s, %s)\n", key, prev_start, prev_end, start, $2, $5 }
    if (end > prev_end) { prev_end = end; prev_start = start } }
  END { bad = 0
    for (k in holds) {
      printf "%s: %d holds, %.1f s held in %.1f s of wall time (%.0f%% busy), %d overlaps\n", k, holds[k], held[k] / 1e6,
             (last_end[k] - first[k]) / 1e6, 100 * held[k] / (last_end[k] - first[k] + 1), overlaps[k] + 0
      bad += overlaps[k] }
    exit bad > 0 }'
