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

#include <cstdint>
#include <string>

namespace depreduce::cli {

/// Inputs from this size on are read without huge pages (before_reading_input()).
inline constexpr std::uintmax_t kLargeInputBytes = std::uintmax_t{64} << 20;

/// Called by a command before it reads an input graph of \p bytes (or the
/// file at \p path; a path whose size cannot be read changes nothing). From
/// kLargeInputBytes (64 MiB) on, and only where the CLI switched huge pages
/// on itself (mimalloc, neither MIMALLOC_LARGE_OS_PAGES nor
/// DEPREDUCE_MALLOC_TUNING=0 set), memory mapped from then on comes in
/// 4 KiB pages: on the 10^6-instruction matmul (266 MB of DOT) a read into
/// fresh huge pages took 1.5-2.2 s against 1.0-1.1 s, while the 20k DAG
/// (4.3 MB) and the 10^5 matmul (26 MB) run 5-11 % faster with them
/// (docs/performance.md, "Seventh pass"). With glibc's allocator it does
/// nothing (its tunables are fixed at start-up). Cost: one stat(). Errors:
/// none.
void before_reading_input(std::uintmax_t bytes);
void before_reading_input(const std::string& path);

/// Whether memory the allocator maps from now on is asked for in huge pages
/// (mimalloc's large_os_pages option; false with glibc's allocator, whose
/// tunables this does not read). For tests/allocator_test.cpp. Cost: O(1).
bool huge_pages_requested();

/// Called first thing in main() with main's argv. With mimalloc: nothing
/// (done before main). With glibc: execs /proc/self/exe once with
/// GLIBC_TUNABLES set (hugetlb=1, mmap_threshold 32 MiB, trim_threshold
/// 256 MiB), unless GLIBC_TUNABLES is already set, DEPREDUCE_MALLOC_TUNING=0,
/// or the process runs under valgrind; returns only if it did not exec.
/// Cost: about 1.3-2.3 ms of start-up when it execs. Errors: none (a failed
/// exec leaves the process as it was).
void tune_allocator(char** argv);

} // namespace depreduce::cli
