//===- tests/allocator_test.cpp - the CLI's allocator set-up ------------===//
///
/// \file
/// cli/allocator.hpp: huge pages are asked for from the start (mimalloc's
/// large_os_pages, set from .preinit_array), and not any more once a command
/// is about to read an input of kLargeInputBytes or more. Linked with the
/// CLI's allocator object, as the CLI is; skipped where that allocator does
/// not ask for huge pages (built without mimalloc, e.g. under sanitizers, or
/// run with MIMALLOC_LARGE_OS_PAGES or DEPREDUCE_MALLOC_TUNING=0 set).
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "allocator.hpp"

namespace depreduce::cli {
namespace {

// One test: once off, huge pages stay off for the process.
TEST(Allocator, HugePagesStayForASmallInputAndGoForA64MiBOne) {
  if (!huge_pages_requested()) GTEST_SKIP() << "this build or environment does not ask for huge pages";
  before_reading_input(std::uintmax_t{0});
  before_reading_input(kLargeInputBytes - 1);
  EXPECT_TRUE(huge_pages_requested()) << "an input under 64 MiB keeps huge pages";
  // A path whose size cannot be read changes nothing.
  before_reading_input(std::string("/nonexistent/depreduce-allocator-test.dot"));
  EXPECT_TRUE(huge_pages_requested());
  const std::string path = ::testing::TempDir() + "depreduce-allocator-test.dot";
  {
    std::ofstream f(path, std::ios::binary);
    f << "digraph { a -> b; }\n";
  }
  before_reading_input(path);
  EXPECT_TRUE(huge_pages_requested()) << "a 20-byte file keeps huge pages";
  std::filesystem::resize_file(path, kLargeInputBytes); // sparse: nothing written
  before_reading_input(path);
  std::remove(path.c_str());
  EXPECT_FALSE(huge_pages_requested()) << "a 64 MiB file is read with 4 KiB pages";
}

} // namespace
} // namespace depreduce::cli
