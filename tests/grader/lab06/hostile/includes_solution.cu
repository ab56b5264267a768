// HOSTILE (stage 6): the whole file is the reference solution, #included by a relative path.
// Must NOT get: anything: 0/90, the build refused (the compile's sandbox shows only the file's own
// folder: "No such file or directory", from the nvcc step).
#include "../../../../solutions/06-capstone/capstone.cu"
