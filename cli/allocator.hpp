//===- cli/allocator.hpp - the allocator of depreduce's programs -------===//
///
/// \file
/// How the CLI (and the benchmarks that measure it as it runs, bench/io_bench)
/// set up the process allocator. Built with mimalloc (DEPREDUCE_CLI_MIMALLOC,
/// libmimalloc-dev), linking cli/allocator.cpp is all it takes: transparent
/// huge pages are switched on from the executable's .preinit_array, before
/// any allocation. Without it, tune_allocator() re-runs the program once
/// with glibc's tunables set. docs/cli.md ("allocator") and
/// docs/performance.md ("Allocator") say what each measured.
//===----------------------------------------------------------------------===//
#pragma once

namespace depreduce::cli {

/// Whether memory the allocator maps from now on is asked for in huge pages
/// (mimalloc's large_os_pages option; false with glibc's allocator, whose
/// tunables this does not read). With mimalloc it stays on for the whole
/// process, whatever the input's size: a 64 MiB+ input read in 4 KiB pages
/// (the seventh pass's choice) was 1-1.5 s slower on the 10^6-instruction
/// matmul on the host of docs/performance.md's eleventh pass. For
/// tests/allocator_test.cpp. Cost: O(1).
bool huge_pages_requested();

/// Whether every thread's first allocator segment is committed at once, in
/// huge pages like the main thread's (mimalloc's eager_commit_delay 0),
/// rather than page by page: the DOT reader's and writer's helper threads
/// allocate. False with glibc's allocator. For tests/allocator_test.cpp.
/// Cost: O(1).
bool helper_threads_commit_eagerly();

/// Called first thing in main() with main's argv. With mimalloc: nothing
/// (done before main). With glibc: execs /proc/self/exe once with
/// GLIBC_TUNABLES set (hugetlb=1, mmap_threshold 32 MiB, trim_threshold
/// 256 MiB), unless GLIBC_TUNABLES is already set, DEPREDUCE_MALLOC_TUNING=0,
/// or the process runs under valgrind; returns only if it did not exec.
/// Cost: about 1.3-2.3 ms of start-up when it execs. Errors: none (a failed
/// exec leaves the process as it was).
void tune_allocator(char** argv);

} // namespace depreduce::cli
