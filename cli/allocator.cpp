//===- cli/allocator.cpp - the allocator of depreduce's programs -------===//
///
/// \file
/// See allocator.hpp.
//===----------------------------------------------------------------------===//
#include "allocator.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

#include <unistd.h>

#if defined(DEPREDUCE_WITH_MIMALLOC)
#include <mimalloc.h>
#endif

namespace depreduce::cli {
namespace {

#if defined(DEPREDUCE_WITH_MIMALLOC)
/// The allocator, set up for a short process that builds large arrays at
/// once. The CLI is linked with mimalloc (cli/CMakeLists.txt); it is told to
/// back its segments with transparent huge pages (mi_option_large_os_pages:
/// MADV_HUGEPAGE where no explicit huge pages are reserved). Against glibc
/// tuned as below, on the 20,000-node DAG it faults in fewer pages with no
/// second start, and on the 10^6-instruction matmul it keeps a lower peak
/// (docs/performance.md "Allocator").
/// The option must be set before mimalloc's first segment (32 MiB, where a
/// small graph's whole heap fits) is mapped, i.e. before any library's
/// initialiser allocates: so from the executable's .preinit_array, which the
/// dynamic loader runs first, and without allocating. A user's
/// MIMALLOC_LARGE_OS_PAGES is left to mimalloc, and DEPREDUCE_MALLOC_TUNING=0
/// leaves its defaults.
/// Every thread's first segment is committed at once too (eager_commit_delay
/// 0; mimalloc's default, 1, commits a thread's first segment page by page,
/// and not in huge pages): the reader's and writer's helper threads then
/// fault in huge pages as the main thread does. On the 20k DAG this cut the
/// page faults of `reduce` from 360 to 246 and its median by about 1.5 ms
/// (docs/performance.md, "Twelfth pass"). A user's
/// MIMALLOC_EAGER_COMMIT_DELAY is left to mimalloc.
void tune_allocator_early(int /*argc*/, char** /*argv*/, char** envp) {
  bool large = true, delay = true;
  for (char** e = envp; e && *e; ++e) {
    if (std::strncmp(*e, "MIMALLOC_LARGE_OS_PAGES=", 24) == 0) large = false;
    if (std::strncmp(*e, "MIMALLOC_EAGER_COMMIT_DELAY=", 28) == 0) delay = false;
    if (std::strcmp(*e, "DEPREDUCE_MALLOC_TUNING=0") == 0) return;
  }
  if (large) mi_option_set(mi_option_large_os_pages, 1);
  if (delay) mi_option_set(mi_option_eager_commit_delay, 0);
}
[[gnu::section(".preinit_array"), gnu::used]] void (*const preinit_tune_allocator)(int, char**, char**) =
    &tune_allocator_early;
#else
/// glibc's allocator tuned for a short process that builds large arrays at
/// once (used when the CLI is built without mimalloc: DEPREDUCE_CLI_MIMALLOC
/// OFF, the package missing, or a sanitizer build): transparent huge pages
/// for what malloc maps (hugetlb=1), large
/// blocks from the heap rather than from mmap of their own (mmap_threshold
/// 32 MiB, the most glibc allows) and a freed heap kept for reuse (trim
/// threshold 256 MiB). On the 20,000-node DAG this cut the page faults of
/// `reduce` from 9,000 to 350 and its CPU time by a third (docs/performance.md);
/// the 10^6-instruction matmul keeps its peak. Tunables are read only at
/// start-up, so the process runs itself again once with them set (about 2 ms).
/// Nothing is done when GLIBC_TUNABLES is already set (the user's choice, or
/// the second start), DEPREDUCE_MALLOC_TUNING=0 or under valgrind, and a
/// failed exec changes nothing.
void tune_allocator_glibc(char** argv) {
#if defined(__GLIBC__) && defined(__linux__)
  if (std::getenv("GLIBC_TUNABLES")) return;
  if (const char* off = std::getenv("DEPREDUCE_MALLOC_TUNING"); off && std::string(off) == "0") return;
  // Under valgrind /proc/self/exe is valgrind's tool, which refuses to be
  // run directly; its preloaded core marks such a process.
  if (const char* pre = std::getenv("LD_PRELOAD"); pre && std::strstr(pre, "vgpreload")) return;
  if (::setenv("GLIBC_TUNABLES",
               "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456",
               0) != 0)
    return;
  ::execv("/proc/self/exe", argv);
  ::unsetenv("GLIBC_TUNABLES"); // exec failed: run as we are
#else
  (void)argv;
#endif
}
#endif

} // namespace

bool huge_pages_requested() {
#if defined(DEPREDUCE_WITH_MIMALLOC)
  return mi_option_is_enabled(mi_option_large_os_pages);
#else
  return false;
#endif
}

bool helper_threads_commit_eagerly() {
#if defined(DEPREDUCE_WITH_MIMALLOC)
  return mi_option_get(mi_option_eager_commit_delay) == 0;
#else
  return false;
#endif
}

void tune_allocator(char** argv) {
#if defined(DEPREDUCE_WITH_MIMALLOC)
  (void)argv; // done before main()
#else
  tune_allocator_glibc(argv);
#endif
}

} // namespace depreduce::cli
