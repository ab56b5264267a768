// Where nvcc places shared variables: prints, for each case, every variable's
// shared-window offset (__cvta_generic_to_shared) as seen on the GPU. The
// emulator's layout rule (setup_shared_layout in
// common/emulator/src/layout.cpp) follows these numbers;
// tests/data/gpu/shared_layout_cases.txt keeps a run's output.
//
//   nvcc -arch=sm_90 -o shared_layout_probe shared_layout_probe.cu && ./shared_layout_probe
#include <cstdio>

#include "shared_layout_kernels.cuh"

int main() {
  unsigned* d = nullptr;
  cudaMalloc(&d, 16 * sizeof(unsigned));
  unsigned h[16];
  auto show = [&](const char* name, int count, const char* const* vars) {
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    std::printf("%s:", name);
    for (int i = 0; i < count; ++i) std::printf(" %s at %u", vars[i], h[i]);
    std::printf("\n");
    cudaMemset(d, 0, 16 * sizeof(unsigned));
  };
  const char* v1[] = {"int a[33]", "int b[32]"};
  local_two<<<1, 32>>>(d);
  show("local_two", 2, v1);
  const char* v2[] = {"char c[3] (kernel)", "float f[7] (function)"};
  local_and_function<<<1, 32>>>(d);
  show("local_and_function", 2, v2);
  const char* v3[] = {"char c[5] (kernel)", "double g_file[3] (file)", "short g_static[5] (static file)"};
  file_scope<<<1, 32>>>(d);
  show("file_scope", 3, v3);
  const char* v4[] = {"char c[3]", "extern float[]", "extern float4[]"};
  dynamic_after_static<<<1, 32, 1024>>>(d);
  show("dynamic_after_static", 3, v4);
  const char* v5[] = {"extern int[]"};
  dynamic_only<<<1, 32, 256>>>(d);
  show("dynamic_only", 1, v5);
  const char* v6[] = {"char c[1] (kernel)", "int t[5] (templated<5>)", "int t[3] (templated<3>)", "char i[9] (inline)"};
  templates<<<1, 32>>>(d);
  show("templates", 4, v6);
  const char* v7[] = {"int y[5] (second_defined, called first)", "int x[3] (first_defined, called second)"};
  call_order<<<1, 32>>>(d);
  show("call_order", 2, v7);
  const char* v8[] = {"char c[3]", "float4 v[2]", "struct {float; double;} p[1]", "short h[3]", "int i[5]",
                      "double2 d[1]"};
  mixed_alignments<<<1, 32>>>(d);
  show("mixed_alignments", 6, v8);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  return 0;
}
