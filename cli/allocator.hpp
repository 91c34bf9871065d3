//===- cli/allocator.hpp - the allocator of depreduce's programs -------===//
///
/// \file
/// How the CLI (and the benchmarks that measure it as it runs, bench/io_bench)
/// get their process allocator: by linking only. Built with mimalloc
/// (DEPREDUCE_CLI_MIMALLOC, libmimalloc-dev), linking cli/allocator.cpp is
/// all it takes: mimalloc serves every allocation, and transparent huge
/// pages are switched on from the executable's .preinit_array, before any
/// allocation. Without it the process runs with glibc's malloc and its
/// defaults: nothing is set and the program never runs itself again.
/// docs/cli.md ("allocator") says what each measured.
//===----------------------------------------------------------------------===//
#pragma once

namespace depreduce::cli {

/// Whether memory the allocator maps from now on is asked for in huge pages
/// (mimalloc's large_os_pages option; false with glibc's allocator, whose
/// tunables this does not read). With mimalloc it stays on for the whole
/// process, whatever the input's size: a 64 MiB+ input read in 4 KiB pages
/// instead makes the 10^6-instruction matmul 1-1.5 s slower on a host where
/// a 4 KiB page's first touch costs about 10 us. For
/// tests/allocator_test.cpp. Cost: O(1).
bool huge_pages_requested();

/// Whether every thread's first allocator segment is committed at once, in
/// huge pages like the main thread's (mimalloc's eager_commit_delay 0),
/// rather than page by page: the DOT writer's helper thread allocates. False with glibc's allocator. For tests/allocator_test.cpp.
/// Cost: O(1).
bool helper_threads_commit_eagerly();

} // namespace depreduce::cli
