// Fixture: a linear model that misbehaves on purpose at a chosen forward call, to test that a
// crashing plugin fails only its own job: segfault, abort, exception, NaN output, endless loop,
// a memory leak past the job's limit, or an endless loop after starting a subprocess (which must
// not outlive the job), or a helper process left running; or a backward pass that is wrong in one coordinate.
// at_call = 0 misbehaves in the constructor: in the check that builds every component before the first job.
#include "crash_model.hpp"

#include <featurelab/error.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include <unistd.h>

namespace fixture {

using namespace featurelab;

Schema CrashModel::schema() {
  Schema s;
  s.choice("mode", "none", {"none", "segfault", "abort", "throw", "nan", "loop", "leak", "fork-sleep",
                                      "wrong-gradient", "exit0", "background"},
           "how to misbehave");
  s.integer("at_call", 3, "misbehave at this forward call (1-based); 0: in the constructor, so already in the check "
                          "that builds every component before the first job").min(0);
  return s;
}

CrashModel::CrashModel(const Params& params, Context& context)
    : mode_(params.str("mode")), at_call_(params.integer("at_call")), dim_(context.data.dim) {
  declare_block("w", 1, dim_, true);
  allocate_parameters();
  if (at_call_ == 0) misbehave();
}

void CrashModel::init(Rng& rng) { rng.fill_normal(block("w"), 0.1); }

void CrashModel::forward(ConstMatRef X, MatRef out) {
  if (++calls_ == at_call_) misbehave();
  out.noalias() = X * block("w").transpose();
  if (mode_ == "nan" && calls_ >= at_call_) out.setConstant(std::numeric_limits<Scalar>::quiet_NaN());
}

void CrashModel::backward(ConstMatRef X, ConstMatRef dout, VecRef grad) {
  grad.noalias() = (dout.transpose() * X).transpose();
  // A backward pass with a slip in one coordinate: training runs to the end, every job `ok`, unless
  // train.check_gradient compares it with finite differences.
  if (mode_ == "wrong-gradient" && grad.size() > 1) grad(1) *= Scalar(-0.5);
}

void CrashModel::misbehave() {
  if (mode_ == "segfault") std::raise(SIGSEGV);
  if (mode_ == "abort") std::abort();
  if (mode_ == "throw") throw Error("crash-model was told to throw");
  if (mode_ == "exit0") std::exit(0);  // a plugin that ends its process "successfully" in the middle of a job
  if (mode_ == "loop") {
    for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (mode_ == "fork-sleep") {
    if (::fork() == 0) {
      ::execlp("sleep", "sleep", "600", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (mode_ == "background") {
    // A helper process started and left running, as a constructor or a module import may do; the model goes on.
    if (::fork() == 0) {
      ::execlp("sleep", "sleep", "601", static_cast<char*>(nullptr));  // 601: the tests look for this one
      ::_exit(127);
    }
  }
  if (mode_ == "leak") {
    // Kept reachable in a global: an allocation nobody reads, in a loop without other effects, is
    // one the optimiser may delete (Clang does), and then nothing leaks at all.
    static std::vector<char*> kept;
    for (;;) {
      auto* block = static_cast<char*>(std::malloc(64 << 20));
      if (!block) throw std::bad_alloc();
      std::memset(block, 1, 64 << 20);
      kept.push_back(block);
    }
  }
}

}  // namespace fixture
