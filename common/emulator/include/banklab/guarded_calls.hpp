// The C library functions kernel code may call that read or write memory
// inside the library, where no access hook of -fsanitize=thread sees it:
// memcpy, memmove, memset, printf (its %s strings and %n) and the math
// functions that write a second result through a pointer (or read a string).
// Every build of kernel code renames its calls of them
// (objcopy --redefine-sym=NAME=banklab_guarded_NAME: the grader's lab objects,
// grader/src/link_check.cpp, and banklab run's programs, common/cli/banklab.cpp)
// to the checked versions in common/emulator/src/guard.cpp, which check the
// memory and price it where it is shared, as the kernel's own accesses.
#pragma once

namespace banklab::emu {

inline constexpr const char* kGuardedCalls[] = {"memcpy", "memmove", "memset", "printf", "modf",    "modff",  "frexp",
                                                "frexpf", "remquo",  "remquof", "sincos", "sincosf", "nan",    "nanf"};

// The checked version's name of one of kGuardedCalls.
inline constexpr const char* kGuardedPrefix = "banklab_guarded_";

}  // namespace banklab::emu
