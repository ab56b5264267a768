// HOSTILE (stage 3): the reference solution, included from outside the
// submission's folder. The grader must refuse it (exit status 2).
#include "../../../../solutions/03-padded-transpose/transpose.cu"

