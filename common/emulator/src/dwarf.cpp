// The natural alignment of each thread-local (__shared__) variable, read from
// the program's DWARF 4 debug information (kernel code is built with
// -gdwarf-4): the symbol table has sizes but no types, and nvcc places each
// shared variable at the alignment of its type (int b[32] after int a[33]
// lands at 132, not at 144).
#include "dwarf.hpp"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

namespace banklab::emu::detail {

namespace {

// DWARF constants used here (DWARF 4, section 7).
enum : std::uint64_t {
  kTagArray = 0x01, kTagClass = 0x02, kTagEnum = 0x04, kTagMember = 0x0d, kTagPointer = 0x0f,
  kTagReference = 0x10, kTagStruct = 0x13, kTagTypedef = 0x16, kTagUnion = 0x17, kTagPtrToMember = 0x1f,
  kTagBase = 0x24, kTagConst = 0x26, kTagVolatile = 0x35, kTagRestrict = 0x37, kTagRvalueRef = 0x42,
  kTagVariable = 0x34,
};
enum : std::uint64_t {
  kAtLocation = 0x02, kAtByteSize = 0x0b, kAtAbstractOrigin = 0x31, kAtSpecification = 0x47, kAtType = 0x49,
  kAtAlignment = 0x88,
};
constexpr unsigned char kOpConst4u = 0x0c, kOpConst8u = 0x0e, kOpFormTlsAddress = 0x9b, kOpGnuPushTlsAddress = 0xe0;

struct Reader {
  const unsigned char* p;
  const unsigned char* end;
  bool ok() const { return p <= end; }
  std::uint64_t fixed(int bytes) {
    std::uint64_t v = 0;
    if (p + bytes > end) {
      p = end + 1;
      return 0;
    }
    std::memcpy(&v, p, static_cast<std::size_t>(bytes));  // little-endian host, little-endian ELF
    p += bytes;
    return v;
  }
  std::uint64_t uleb() {
    std::uint64_t v = 0;
    for (int shift = 0; p < end; shift += 7) {
      const unsigned char b = *p++;
      if (shift < 64) v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    p = end + 1;
    return v;
  }
  void sleb() { uleb(); }
  void skip(std::uint64_t n) { p = n > static_cast<std::uint64_t>(end - p) ? end + 1 : p + n; }
};

struct Abbrev {
  std::uint64_t tag = 0;
  bool children = false;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> attributes;  // (attribute, form)
};

struct Die {
  std::uint64_t tag = 0;
  std::uint64_t type = 0;    // offset of the type DIE, 0 if none
  std::uint64_t origin = 0;  // abstract origin or specification
  std::uint64_t byte_size = 0;
  std::uint64_t alignment = 0;
  std::uint64_t tls_offset = ~std::uint64_t{0};
  std::vector<std::uint64_t> members;  // member DIEs of a struct/class/union
};

struct Dwarf {
  std::map<std::uint64_t, Die> dies;

  std::uint64_t type_of(std::uint64_t offset, int depth = 0) const {
    for (; offset != 0 && depth < 16; ++depth) {
      const auto found = dies.find(offset);
      if (found == dies.end()) return 0;
      if (found->second.type != 0) return found->second.type;
      offset = found->second.origin;
    }
    return 0;
  }

  std::size_t alignment(std::uint64_t offset, int depth = 0) const {
    const auto found = dies.find(offset);
    if (found == dies.end() || depth > 32) return 0;
    const Die& d = found->second;
    switch (d.tag) {
      case kTagBase:
      case kTagEnum:
        return static_cast<std::size_t>(std::min<std::uint64_t>(d.byte_size, 16));
      case kTagPointer:
      case kTagReference:
      case kTagRvalueRef:
      case kTagPtrToMember:
        return 8;
      case kTagArray:
      case kTagTypedef:
      case kTagConst:
      case kTagVolatile:
      case kTagRestrict:
        return alignment(d.type, depth + 1);
      case kTagStruct:
      case kTagClass:
      case kTagUnion: {
        if (d.alignment != 0) return static_cast<std::size_t>(d.alignment);
        std::size_t most = 1;
        for (const std::uint64_t m : d.members) most = std::max(most, alignment(type_of(m), depth + 1));
        return most;
      }
      default:
        return 0;
    }
  }
};

// Reads one attribute value of `form`; returns it as a number where that
// makes sense (constants, references made absolute), and fills `block` for
// expressions.
std::uint64_t read_form(Reader& r, std::uint64_t form, std::uint64_t unit_offset, int address_size,
                        const unsigned char** block, std::uint64_t* block_size) {
  switch (form) {
    case 0x01: return r.fixed(address_size);                    // addr
    case 0x03: r.skip(r.fixed(2)); return 0;                    // block2
    case 0x04: r.skip(r.fixed(4)); return 0;                    // block4
    case 0x05: return r.fixed(2);                               // data2
    case 0x06: return r.fixed(4);                               // data4
    case 0x07: return r.fixed(8);                               // data8
    case 0x08: while (r.p < r.end && *r.p) ++r.p; ++r.p; return 0;  // string
    case 0x09:                                                  // block
    case 0x18: {                                                // exprloc
      const std::uint64_t n = r.uleb();
      *block = r.p;
      *block_size = n;
      r.skip(n);
      return 0;
    }
    case 0x0a: {  // block1
      const std::uint64_t n = r.fixed(1);
      *block = r.p;
      *block_size = n;
      r.skip(n);
      return 0;
    }
    case 0x0b: return r.fixed(1);                   // data1
    case 0x0c: return r.fixed(1);                   // flag
    case 0x0d: r.sleb(); return 0;                  // sdata
    case 0x0e: return r.fixed(4);                   // strp
    case 0x0f: return r.uleb();                     // udata
    case 0x10: return r.fixed(4);                   // ref_addr (absolute)
    case 0x11: return unit_offset + r.fixed(1);     // ref1
    case 0x12: return unit_offset + r.fixed(2);     // ref2
    case 0x13: return unit_offset + r.fixed(4);     // ref4
    case 0x14: return unit_offset + r.fixed(8);     // ref8
    case 0x15: return unit_offset + r.uleb();       // ref_udata
    case 0x16: return read_form(r, r.uleb(), unit_offset, address_size, block, block_size);  // indirect
    case 0x17: return r.fixed(4);                   // sec_offset
    case 0x19: return 1;                            // flag_present
    case 0x20: return r.fixed(8);                   // ref_sig8
    default:
      r.p = r.end + 1;  // a form this reader does not know: stop reading this unit
      return 0;
  }
}

void read_unit(const unsigned char* info, std::uint64_t unit_offset, const unsigned char* unit_end,
               const unsigned char* abbrev_section, std::size_t abbrev_size, Dwarf& out) {
  Reader r{info + unit_offset + 4, unit_end};
  const std::uint64_t version = r.fixed(2);
  const std::uint64_t abbrev_offset = r.fixed(4);
  const int address_size = static_cast<int>(r.fixed(1));
  if (version != 4 || abbrev_offset >= abbrev_size) return;  // kernel code is built with -gdwarf-4
  std::map<std::uint64_t, Abbrev> abbrevs;
  Reader a{abbrev_section + abbrev_offset, abbrev_section + abbrev_size};
  while (a.ok()) {
    const std::uint64_t code = a.uleb();
    if (code == 0) break;
    Abbrev& ab = abbrevs[code];
    ab.tag = a.uleb();
    ab.children = a.fixed(1) != 0;
    for (;;) {
      const std::uint64_t attribute = a.uleb(), form = a.uleb();
      if ((attribute == 0 && form == 0) || !a.ok()) break;
      ab.attributes.emplace_back(attribute, form);
    }
  }
  std::vector<std::uint64_t> parents;  // DIE offsets of the open parents (0: not a type with members)
  while (r.p < r.end) {
    const std::uint64_t die_offset = static_cast<std::uint64_t>(r.p - info);
    const std::uint64_t code = r.uleb();
    if (!r.ok()) return;
    if (code == 0) {
      if (!parents.empty()) parents.pop_back();
      continue;
    }
    const auto found = abbrevs.find(code);
    if (found == abbrevs.end()) return;
    const Abbrev& ab = found->second;
    Die d;
    d.tag = ab.tag;
    for (const auto& [attribute, form] : ab.attributes) {
      const unsigned char* block = nullptr;
      std::uint64_t block_size = 0;
      const std::uint64_t value = read_form(r, form, unit_offset, address_size, &block, &block_size);
      if (!r.ok()) return;
      if (attribute == kAtType) d.type = value;
      if (attribute == kAtAbstractOrigin || attribute == kAtSpecification) d.origin = value;
      if (attribute == kAtByteSize) d.byte_size = value;
      if (attribute == kAtAlignment) d.alignment = value;
      if (attribute == kAtLocation && block != nullptr) {
        // DW_OP_const8u/const4u <offset>; DW_OP_GNU_push_tls_address / DW_OP_form_tls_address
        if (block_size == 10 && block[0] == kOpConst8u &&
            (block[9] == kOpGnuPushTlsAddress || block[9] == kOpFormTlsAddress)) {
          std::memcpy(&d.tls_offset, block + 1, 8);
        } else if (block_size == 6 && block[0] == kOpConst4u &&
                   (block[5] == kOpGnuPushTlsAddress || block[5] == kOpFormTlsAddress)) {
          std::uint32_t v = 0;
          std::memcpy(&v, block + 1, 4);
          d.tls_offset = v;
        }
      }
    }
    const bool keep = d.tag == kTagVariable || d.tag == kTagBase || d.tag == kTagEnum || d.tag == kTagPointer ||
                      d.tag == kTagReference || d.tag == kTagRvalueRef || d.tag == kTagPtrToMember ||
                      d.tag == kTagArray || d.tag == kTagTypedef || d.tag == kTagConst || d.tag == kTagVolatile ||
                      d.tag == kTagRestrict || d.tag == kTagStruct || d.tag == kTagClass || d.tag == kTagUnion ||
                      d.tag == kTagMember;
    if (d.tag == kTagMember && !parents.empty() && parents.back() != 0) {
      auto parent = out.dies.find(parents.back());
      if (parent != out.dies.end()) parent->second.members.push_back(die_offset);
    }
    const bool has_members = d.tag == kTagStruct || d.tag == kTagClass || d.tag == kTagUnion;
    if (keep) out.dies.emplace(die_offset, std::move(d));
    if (ab.children) parents.push_back(has_members ? die_offset : 0);
  }
}

}  // namespace

std::unordered_map<std::uint64_t, std::size_t> tls_alignments(const unsigned char* elf, std::size_t elf_size) {
  std::unordered_map<std::uint64_t, std::size_t> out;
  if (elf_size < sizeof(Elf64_Ehdr)) return out;
  const auto* header = reinterpret_cast<const Elf64_Ehdr*>(elf);
  if (header->e_shoff + std::uint64_t{header->e_shnum} * sizeof(Elf64_Shdr) > elf_size) return out;
  const auto* sections = reinterpret_cast<const Elf64_Shdr*>(elf + header->e_shoff);
  if (header->e_shstrndx >= header->e_shnum) return out;
  const char* names = reinterpret_cast<const char*>(elf + sections[header->e_shstrndx].sh_offset);
  const Elf64_Shdr* info = nullptr;
  const Elf64_Shdr* abbrev = nullptr;
  for (int i = 0; i < header->e_shnum; ++i) {
    const char* name = names + sections[i].sh_name;
    if (std::strcmp(name, ".debug_info") == 0) info = &sections[i];
    if (std::strcmp(name, ".debug_abbrev") == 0) abbrev = &sections[i];
  }
  if (info == nullptr || abbrev == nullptr || info->sh_offset + info->sh_size > elf_size ||
      abbrev->sh_offset + abbrev->sh_size > elf_size)
    return out;
  const unsigned char* base = elf + info->sh_offset;
  Dwarf dwarf;
  for (std::uint64_t unit = 0; unit + 11 <= info->sh_size;) {
    std::uint32_t length = 0;
    std::memcpy(&length, base + unit, 4);
    if (length == 0xffffffffu || unit + 4 + length > info->sh_size) break;  // 64-bit DWARF: not made by -gdwarf-4 here
    read_unit(base, unit, base + unit + 4 + length, elf + abbrev->sh_offset, abbrev->sh_size, dwarf);
    unit += 4 + std::uint64_t{length};
  }
  for (const auto& [offset, die] : dwarf.dies) {
    if (die.tag != kTagVariable || die.tls_offset == ~std::uint64_t{0}) continue;
    // The type's alignment, or the declaration's own (`__align__(16) float
    // a[N]`, alignas) where that is larger: what nvcc guarantees the variable.
    std::size_t a = dwarf.alignment(dwarf.type_of(offset));
    for (std::uint64_t d = offset, depth = 0; d != 0 && depth < 4; ++depth) {
      const auto found = dwarf.dies.find(d);
      if (found == dwarf.dies.end()) break;
      if (a != 0) a = std::max<std::size_t>(a, static_cast<std::size_t>(found->second.alignment));
      d = found->second.origin;
    }
    if (a != 0) out[die.tls_offset] = a;
  }
  return out;
}

}  // namespace banklab::emu::detail
