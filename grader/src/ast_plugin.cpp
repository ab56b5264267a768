// The source check as a loadable library (libbanklab_ast_check.so, linked
// with libclang): the grader loads it with dlopen, so that the grader itself
// starts on a machine without libclang (a GPU machine), where it takes the
// verdicts of ast_verdicts.hpp instead.
#include <clang-c/Index.h>

#include "ast_check.hpp"

extern "C" __attribute__((visibility("default"))) void banklab_ast_check_v1(
    const banklab::grader::AstRequest* request, banklab::grader::AstResult* result, std::string* clang_version) {
  *result = banklab::grader::check_ast(request->file, request->include_dirs, request->defines_and_includes,
                                       request->contract);
  CXString version = clang_getClangVersion();
  *clang_version = clang_getCString(version);
  clang_disposeString(version);
}
