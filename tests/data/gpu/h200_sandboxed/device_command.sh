cp -a build-gpu /tmp/bl && chmod -R a+rX /tmp/bl
mkdir -p /tmp/bl/kit/build && cp -a /tmp/bl/tree/build/. /tmp/bl/kit/build/
cd /tmp/bl/tree
BANKLAB_SANDBOX_DEBUG_RW=/proc/self build/grader/grader --lab 3 --solutions --backend gpu --seed 2 2>&1 | grep -E "^Score" | sed 's/^/with DEBUG_RW=\/proc\/self: /'
timeout 230 sh common/scripts/h200_sandboxed.sh tree /tmp/bl/tree /tmp/bl/out_tree; echo "tree rc=$?"
timeout 230 sh common/scripts/h200_sandboxed.sh kit /tmp/bl/kit /tmp/bl/out_kit; echo "kit rc=$?"
