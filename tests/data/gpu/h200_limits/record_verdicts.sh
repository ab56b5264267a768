#!/bin/sh
# Records the source-check verdicts (libclang here) for every file the final H200 run grades: the five
# stages' solutions (the kit's references are copies of them) and skeletons, and the correct
# alternatives (tests/grader/lab0N/right/, similarity/different_*).
cd /work/main
g=build/grader/grader
for n in 1 2 3 4 5; do
  $g --lab $n --check-source --solutions
  $g --lab $n --check-source
done
for f in tests/grader/lab0[1-5]/right/*.cu tests/grader/similarity/different_*.cu; do
  lab=$(echo "$f" | sed 's|.*/lab0\([0-9]\)/.*|\1|; s|.*/similarity/.*|3|')
  $g --lab $lab --check-source --impl $f
done
ls build/grader/source_verdicts | wc -l
