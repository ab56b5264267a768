#!/bin/sh
# grader --export-program on a GPU machine: the exported program of each
# stage built with nvcc and run, stage 3's under Nsight Compute and
# compute-sanitizer (skeleton and reference):
#   sh common/scripts/h200_export_program.sh TREE OUT
set -u
tree=$1 out=$2
mkdir -p "$out"
g="$tree/build/grader/grader"
log="$out/export_program.txt"
: > "$log"
say() { echo "\$ $*" >> "$log"; "$@" >> "$log" 2>&1; echo "(exit $?)" >> "$log"; }
for n in 1 2 3 4 5; do
  say "$g" --lab $n --solutions --export-program "$out/ref$n"
  (cd "$out/ref$n" && say nvcc -O2 -std=c++17 -lineinfo -arch=sm_90 program.cu -o program && say ./program)
done
say "$g" --lab 3 --export-program "$out/skeleton3"
cd "$out/skeleton3" && say nvcc -O2 -std=c++17 -lineinfo -arch=sm_90 program.cu -o program
for d in "$out/skeleton3" "$out/ref3"; do
  cd "$d" || continue
  say ncu --clock-control none --metrics smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum ./program
  say compute-sanitizer --tool memcheck ./program
  say compute-sanitizer --tool racecheck ./program
done
rm -rf "$out"/ref? "$out/skeleton3"
