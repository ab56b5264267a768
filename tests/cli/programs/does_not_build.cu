// A program with a mistake on line 5: banklab run must say so, with the line.
__global__ void scale(float* x) { x[threadIdx.x] *= 2.0f; }

int main() {
  float* d = undeclared_name;
  scale<<<1, 32>>>(d);
  return 0;
}
