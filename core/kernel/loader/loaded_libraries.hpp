// The pack libraries this process has loaded, by their base address, so that a crash inside one can name its
// file (execution/crash_site.cpp reads this from a signal handler). Noted as each pack is loaded, before any job's
// code runs; read without allocating or locking.
#pragma once

#include <string>

namespace featurelab {

// Records a loaded pack: any address inside the library and its path. At most 64 are kept.
void note_pack_library(const void* address_inside, const std::string& path);

// The path of the noted library whose base address is `base`, or nullptr. Async-signal-safe.
const char* pack_library_at(const void* base);

}  // namespace featurelab
