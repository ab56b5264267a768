#!/bin/sh
# Starts a private single-node Slurm (munged, slurmctld, slurmd) in folder
# DIR, for the Slurm test: its own munge key and socket, its own ports and
# state. Prints the SLURM_CONF path; exits 77 (the test's "skipped") with
# the reason when Slurm is not installed or cannot start here.
#   tests/slurm/start_slurm.sh DIR     ... then tests/slurm/stop_slurm.sh DIR
set -u
dir=$1
skip() { echo "SKIP: $*" >&2; exit 77; }
for tool in munged slurmctld slurmd sbatch sinfo squeue scontrol; do
  command -v "$tool" >/dev/null 2>&1 || skip "$tool not found (Debian: apt-get install slurm-wlm munge)"
done
[ "$(id -u)" = 0 ] || skip "slurmd runs jobs as their users, so it must be started as root"
mkdir -p "$dir/state" "$dir/spool" "$dir/log"
chmod 700 "$dir"
host=$(hostname -s)
cpus=$(nproc)
memory=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
# Ports of our own (a system Slurm may hold 6817/6818).
port=$(( 20000 + $$ % 20000 ))
dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$dir/munge.key"
munged --force --key-file="$dir/munge.key" --socket="$dir/munge.socket" --pid-file="$dir/munged.pid" \
  --log-file="$dir/log/munged.log" --seed-file="$dir/munge.seed" 2>"$dir/log/munged.err" ||
  skip "munged does not start: $(cat "$dir/log/munged.err" "$dir/log/munged.log" 2>/dev/null | tail -3)"
cat >"$dir/slurm.conf" <<CONF
ClusterName=banklabtest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -i >"$dir/log/slurmctld.err" 2>&1 || skip "slurmctld does not start: $(tail -3 "$dir/log/slurmctld.err" "$dir/log/slurmctld.log" 2>/dev/null)"
slurmd -N "$host" >"$dir/log/slurmd.err" 2>&1 || skip "slurmd does not start: $(tail -3 "$dir/log/slurmd.err" "$dir/log/slurmd.log" 2>/dev/null)"
i=0
while [ $i -lt 60 ]; do
  state=$(sinfo -h -N -o %t 2>/dev/null | head -1)
  case "$state" in idle*|mix*|alloc*) echo "$SLURM_CONF"; exit 0 ;; esac
  sleep 1
  i=$((i + 1))
done
skip "the node did not come up in 60 s (state '$state'): $(tail -3 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" 2>/dev/null)"
