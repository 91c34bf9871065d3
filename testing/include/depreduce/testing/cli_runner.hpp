//===- depreduce/testing/cli_runner.hpp - Run the depreduce tool in tests -*- C++ -*-===//
///
/// \file
/// What every CLI test needs: run the built `depreduce` binary (the path is in
/// the DEPREDUCE_CLI environment variable, set by depreduce_add_test) and a
/// scratch folder per test. Header-only; include it from GoogleTest tests.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_TESTING_CLI_RUNNER_HPP
#define DEPREDUCE_TESTING_CLI_RUNNER_HPP

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace depreduce::testing {

/// The outcome of one run of the tool.
struct CliRun {
  int code = -1;   ///< Exit code (-1 if killed by a signal).
  std::string out; ///< stdout; with stderr too when no stderr file was given.
  std::string err; ///< stderr, when a stderr file was given.
};

/// Whole content of \p path ("" if it cannot be read).
inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Runs `$DEPREDUCE_CLI args` through the shell. With \p stderr_file empty,
/// stderr is merged into `out` (2>&1); otherwise it goes to that file and into `err`.
inline CliRun run_cli(const std::string& args, const std::string& stderr_file = "") {
  const char* cli = std::getenv("DEPREDUCE_CLI");
  std::string cmd = std::string(cli ? cli : "depreduce") + " " + args +
                    (stderr_file.empty() ? std::string(" 2>&1") : " 2>" + stderr_file);
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), p)) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (!stderr_file.empty()) r.err = slurp(stderr_file);
  return r;
}

/// A test with its own scratch folder, removed afterwards. The folder name
/// carries the suite name and the process id, so test executables running in
/// parallel under ctest -j never share one.
class TempDirTest : public ::testing::Test {
protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("depreduce_" + std::string(info->test_suite_name()) + "_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  /// Writes \p text to \p name in the scratch folder; returns its path.
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return path(name);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

} // namespace depreduce::testing

#endif
