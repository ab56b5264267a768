// Types the symbol table lacks, read from the program's debug information.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>

namespace banklab::emu::detail {

/// For each thread-local variable described by a DWARF 4 unit of the ELF
/// image `elf` (the whole file, mapped), the alignment of its type, keyed by
/// its offset in the thread-local block (the symbol's value). Variables whose
/// type it cannot follow are left out.
std::unordered_map<std::uint64_t, std::size_t> tls_alignments(const unsigned char* elf, std::size_t elf_size);

}  // namespace banklab::emu::detail
