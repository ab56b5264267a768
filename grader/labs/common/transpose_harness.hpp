// What the transpose runners (stages 2 and 3) share, CPU and GPU alike
// (C++17, no dependencies so that nvcc compiles it too): the data
// (transpose_data.hpp), the raw outputs (raw_data.hpp) and the JSON they
// answer with. The comparison is the grader's (raw_answers.hpp).
#pragma once

#include "json_writer.hpp"
#include "raw_data.hpp"
#include "transpose_data.hpp"
