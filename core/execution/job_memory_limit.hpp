// The memory limit of a job (`--job-memory MIB`), set in its worker process.
//
// It limits the memory the job commits (RLIMIT_DATA: private writable memory, the heap and
// anonymous mappings), not its address space (RLIMIT_AS): each thread reserves a stack and a
// 64 MiB malloc arena of address space whether it uses them or not, so under RLIMIT_AS the same
// job passed or failed depending on how many threads --jobs gave it. The stacks still count
// towards RLIMIT_DATA, so the limit adds one stack (and a MiB for the thread's first heap) per
// thread beyond the first that the job may be handed: the job itself gets --job-memory whatever
// its thread count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <sys/types.h>

namespace featurelab {

// Whether this build runs under AddressSanitizer, whose shadow memory needs terabytes of address space: no
// RLIMIT_DATA can be set there (its allocator's mmap would fail), so the limit is held by watching a job's
// resident memory instead (workers.cpp), and the component check runs without it.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

// The largest --job-memory: 2^43 MiB is 2^63 bytes, the most a limit in bytes can hold.
inline constexpr std::int64_t kMaxJobMemoryMiB = std::int64_t(1) << 43;

// Empty when `mib` is a usable --job-memory (0 = none), otherwise why not and what to give.
std::string job_memory_problem(std::int64_t mib);

// The limit in bytes for a job of `mib` MiB that may run on up to `threads` threads.
std::uint64_t job_memory_limit_bytes(std::size_t mib, int threads);

// In a worker: limits this process to job_memory_limit_bytes(mib, threads).
void limit_job_memory(std::size_t mib, int threads);

// A process's own memory in MiB: resident and private (/proc/PID/statm resident minus shared), so that the shared
// libraries' pages, which the limit does not count either, do not count; 0 when unknown. The parent watches its
// workers (and the component check) with it, which holds the limit where RLIMIT_DATA cannot be set.
double private_resident_mib(pid_t pid);

}  // namespace featurelab
