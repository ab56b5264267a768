// The link-level check of a compiled lab object, before it joins a runner:
// what it may call, what it may define, no constructors; and the objcopy
// step that marks its data for the emulator's memory guard.
#pragma once

#include <string>
#include <vector>

namespace banklab::grader {

/// Reads the relocatable ELF object `object` (compiled from `source`) and
/// throws BuildError when it calls anything outside the reviewed allowlist
/// (lab_object_allowlist.inc), has static constructors or destructors, an
/// ifunc or versioned symbol, or defines names of the C library, the C++
/// runtime or the runner. Each message names the symbol and the lab file's
/// line (from the object's line information, through `addr2line`). Returns
/// the objcopy arguments that make `guarded` from it: its data sections
/// renamed banklab_lab_rodata/_data/_bss (the linker brackets each with
/// __start_/__stop_ symbols, which turn the emulator's guard on), its
/// memcpy/memmove/memset/printf calls redirected to the guarded versions,
/// and the sanitizer's own module constructor removed.
std::vector<std::string> check_lab_object(const std::string& object, const std::string& source,
                                          const std::string& guarded, double limit_seconds);

/// The allowlist's text, for the runner cache's key.
const char* lab_object_allowlist();

}  // namespace banklab::grader
