#!/bin/sh
# Grades a class on a Slurm cluster: an array job of N shards
# (grade_class.sbatch), then a job that merges their gradebooks into
# FOLDER/gradebook.{csv,json} and writes the class report FOLDER/gradebook.html.
#   common/scripts/slurm/grade_class.sh --lab 3 --submissions /class [--shards 4]
#       [--backend cpu|gpu] [--seed S] [--grader PATH] [-- more sbatch options]
# Prints the two job ids; `squeue -u $USER` shows them. On a GPU cluster:
#   ... --backend gpu -- --gres=gpu:1
set -eu

here=$(cd "$(dirname "$0")" && pwd)
kit=$(cd "$here/../../.." && pwd)
grader="$kit/build/grader/grader"
lab=""
folder=""
shards=4
backend=cpu
seed=""
usage() {
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
}
while [ $# -gt 0 ]; do
  case "$1" in
    --lab) lab=$2; shift 2 ;;
    --submissions) folder=$2; shift 2 ;;
    --shards) shards=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --grader) grader=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    *) echo "grade_class.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -n "$lab" ] && [ -n "$folder" ] || { echo "grade_class.sh: --lab and --submissions are required (see --help)" >&2; exit 2; }
[ -d "$folder" ] || { echo "grade_class.sh: --submissions $folder: not a folder" >&2; exit 2; }
[ -x "$grader" ] || { echo "grade_class.sh: no grader at $grader: build it (cmake --build --preset default --target grader) or give --grader PATH" >&2; exit 2; }
case "$shards" in ''|*[!0-9]*|0) echo "grade_class.sh: --shards $shards: expected a whole number >= 1" >&2; exit 2 ;; esac
command -v sbatch >/dev/null || { echo "grade_class.sh: sbatch not found: this needs a Slurm cluster (or grade on one machine with grader --submissions)" >&2; exit 2; }
folder=$(cd "$folder" && pwd)
# One seed for the whole class, chosen here: every shard gives its students the same inputs.
[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
seed=$(( seed % 1000000000 ))

array=$(BANKLAB_GRADER="$grader" BANKLAB_LAB="$lab" BANKLAB_SUBMISSIONS="$folder" BANKLAB_SEED="$seed" \
  BANKLAB_BACKEND="$backend" sbatch --parsable --export=ALL --array="1-$shards" \
  --output="$folder/slurm-grade-%A_%a.out" "$@" "$here/grade_class.sbatch")
array=${array%%;*}
books=""
k=1
while [ "$k" -le "$shards" ]; do
  books="$books '$folder/gradebook-shard-$k-of-$shards.json'"
  k=$((k + 1))
done
merge=$(sbatch --parsable --dependency="afterok:$array" --job-name=banklab-merge --output="$folder/slurm-merge-%j.out" \
  --wrap "'$grader' --merge $books -o '$folder/gradebook' && '$grader' --report '$folder/gradebook.json'")
merge=${merge%%;*}
echo "grade_class.sh: lab $lab, $shards shards of $folder, seed $seed, backend $backend"
echo "grade_class.sh: array job $array grades; job $merge merges into $folder/gradebook.{csv,json} and writes $folder/gradebook.html"
echo "$array $merge"
