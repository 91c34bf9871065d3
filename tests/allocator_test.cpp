//===- tests/allocator_test.cpp - the CLI's allocator set-up ------------===//
///
/// \file
/// cli/allocator.hpp: built with mimalloc, the CLI asks for huge pages from
/// the start (mimalloc's large_os_pages, set from .preinit_array, before any
/// allocation); nothing switches them off for a large input (4 KiB pages
/// for a 64 MiB+ input make the 10^6-instruction matmul 1-1.5 s slower
/// where a 4 KiB page's first touch costs about 10 us). A user's
/// MIMALLOC_LARGE_OS_PAGES or DEPREDUCE_MALLOC_TUNING=0 leaves mimalloc's own
/// setting. Every thread's first segment is committed at once, in huge
/// pages (eager_commit_delay 0: mimalloc's default commits a thread's first
/// segment page by page, outside huge pages, and the DOT writer's helper
/// thread allocates), unless
/// MIMALLOC_EAGER_COMMIT_DELAY or DEPREDUCE_MALLOC_TUNING=0 is set. Linked
/// with the CLI's allocator object, as the CLI is.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "allocator.hpp"

namespace depreduce::cli {
namespace {

/// Whether the user's environment chose for mimalloc (then the CLI does not).
bool user_chose() {
  const char* off = std::getenv("DEPREDUCE_MALLOC_TUNING");
  return std::getenv("MIMALLOC_LARGE_OS_PAGES") != nullptr || (off && std::string(off) == "0");
}

TEST(Allocator, HugePagesAreAskedForFromTheStart) {
#if !defined(DEPREDUCE_WITH_MIMALLOC)
  GTEST_SKIP() << "built without mimalloc (DEPREDUCE_CLI_MIMALLOC off, the package missing, or a sanitizer build)";
#else
  if (user_chose()) GTEST_SKIP() << "MIMALLOC_LARGE_OS_PAGES or DEPREDUCE_MALLOC_TUNING=0 is set";
  EXPECT_TRUE(huge_pages_requested()) << "set from .preinit_array, before main()";
#endif
}

TEST(Allocator, HelperThreadsCommitTheirFirstSegmentAtOnce) {
#if !defined(DEPREDUCE_WITH_MIMALLOC)
  GTEST_SKIP() << "built without mimalloc (DEPREDUCE_CLI_MIMALLOC off, the package missing, or a sanitizer build)";
#else
  const char* off = std::getenv("DEPREDUCE_MALLOC_TUNING");
  if (std::getenv("MIMALLOC_EAGER_COMMIT_DELAY") != nullptr || (off && std::string(off) == "0"))
    GTEST_SKIP() << "MIMALLOC_EAGER_COMMIT_DELAY or DEPREDUCE_MALLOC_TUNING=0 is set";
  EXPECT_TRUE(helper_threads_commit_eagerly()) << "set from .preinit_array, before main()";
#endif
}

} // namespace
} // namespace depreduce::cli
