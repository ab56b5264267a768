# Interface targets that carry BankLab's compile settings; nothing is set
# globally.

add_library(banklab_options INTERFACE)
target_compile_features(banklab_options INTERFACE cxx_std_20)

add_library(banklab_warnings INTERFACE)
target_compile_options(banklab_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>)

# The libraries linked into every emulator runner and every `banklab run`
# program carry no debug information of their own: each runner the grader
# caches is then a few MB instead of about 38 MB (the test suite builds
# hundreds of them). Kernel code keeps its DWARF (BANKLAB_KERNEL_CXX_FLAGS:
# the runtime reads the alignment of __shared__ variables from it and the
# source lines through addr2line). -DBANKLAB_RUNTIME_DEBUG_INFO=ON keeps the
# runtime's own, for a debugger.
option(BANKLAB_RUNTIME_DEBUG_INFO "keep debug information in the libraries linked into emulator runners" OFF)
function(banklab_runtime_library target)
  if(NOT BANKLAB_RUNTIME_DEBUG_INFO)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-g0>)
  endif()
endfunction()
