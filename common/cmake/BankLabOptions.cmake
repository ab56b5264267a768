# Interface targets that carry BankLab's compile settings; nothing is set
# globally.

add_library(banklab_options INTERFACE)
target_compile_features(banklab_options INTERFACE cxx_std_20)

add_library(banklab_warnings INTERFACE)
target_compile_options(banklab_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>)
