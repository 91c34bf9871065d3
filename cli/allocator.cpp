//===- cli/allocator.cpp - the allocator of depreduce's programs -------===//
///
/// \file
/// See allocator.hpp.
//===----------------------------------------------------------------------===//
#include "allocator.hpp"

#include <cstring>

#if defined(DEPREDUCE_WITH_MIMALLOC)
#include <mimalloc.h>
#endif

namespace depreduce::cli {
namespace {

#if defined(DEPREDUCE_WITH_MIMALLOC)
/// The allocator, set up for a short process that builds large arrays at
/// once. The CLI is linked with mimalloc (cli/CMakeLists.txt); it is told to
/// back its segments with transparent huge pages (mi_option_large_os_pages:
/// MADV_HUGEPAGE where no explicit huge pages are reserved): on the
/// 20,000-node DAG it faults in fewer pages than glibc's malloc, and on the
/// 10^6-instruction matmul it keeps a lower peak.
/// The option must be set before mimalloc's first segment (32 MiB, where a
/// small graph's whole heap fits) is mapped, i.e. before any library's
/// initialiser allocates: so from the executable's .preinit_array, which the
/// dynamic loader runs first, and without allocating. A user's
/// MIMALLOC_LARGE_OS_PAGES is left to mimalloc, and DEPREDUCE_MALLOC_TUNING=0
/// leaves its defaults.
/// Every thread's first segment is committed at once too (eager_commit_delay
/// 0; mimalloc's default, 1, commits a thread's first segment page by page,
/// and not in huge pages): the DOT writer's helper thread then faults in
/// huge pages as the main thread does. A user's
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

} // namespace depreduce::cli
