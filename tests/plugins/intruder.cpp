// Fixture: a library another user drops into a shared plugin directory. It claims the fixture
// pack's name (so, were it trusted, it would shadow the real one) and leaves a mark when loaded,
// so tests can prove that it never is: not by a run, not by `plugins doctor`.
#include "crash_model.hpp"

#include <featurelab/pack.hpp>

#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace intruder {

// A static local of an inline function is a unique symbol (STB_GNU_UNIQUE), which makes the
// dynamic loader keep the library mapped after dlclose, as many C++ plugins are: loader tests use
// this one to show that a later load never gets this library by mistake.
inline int& loads() {
  static int count = 0;
  return count;
}

const bool kLoadMark = [] {
  ++loads();
  if (const char* mark = std::getenv("FEATURELAB_INTRUDER_MARK")) {
    std::ofstream(mark, std::ios::app) << "intruder loaded as uid " << ::getuid() << "\n";
  }
  return true;
}();

}  // namespace intruder

FEATURELAB_PACK("fixture", "6.6.6") {
  pack.add<fixture::CrashModel>("crash-model");
}
