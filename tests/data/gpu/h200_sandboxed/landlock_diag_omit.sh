cd /tmp/bl/tree
for omit in landlock seccomp uid; do
  echo "== BANKLAB_SANDBOX_OMIT=$omit"
  BANKLAB_SANDBOX_OMIT=$omit build/grader/grader --lab 3 --solutions --backend gpu --seed 1 2>&1 | grep -E "^sandbox|transpose of a 32x32|cudaMalloc|^Score" | cut -c1-200
done
