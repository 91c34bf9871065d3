//===- cli/main.cpp - depreduce command-line entry point ---------------===//
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include <fmt/core.h>

#include <cstdlib>
#include <unistd.h>

#if defined(DEPREDUCE_WITH_MIMALLOC)
#include <mimalloc.h>
#endif

#include "commands.hpp"
#include "depreduce/error.hpp"

namespace depreduce::cli {
int exit_code = kExitOk;

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
void tune_allocator_early(int /*argc*/, char** /*argv*/, char** envp) {
  for (char** e = envp; e && *e; ++e) {
    if (std::strncmp(*e, "MIMALLOC_LARGE_OS_PAGES=", 24) == 0) return;
    if (std::strcmp(*e, "DEPREDUCE_MALLOC_TUNING=0") == 0) return;
  }
  mi_option_set(mi_option_large_os_pages, 1);
}
[[gnu::section(".preinit_array"), gnu::used]] void (*const preinit_tune_allocator)(int, char**, char**) =
    &tune_allocator_early;
void tune_allocator(char** /*argv*/) {} // done before main()
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
void tune_allocator(char** argv) {
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
} // namespace depreduce::cli

int main(int argc, char** argv) {
  using namespace depreduce::cli;
  tune_allocator(argv);
  CLI::App app{"depreduce: remove redundant dependency edges exactly, and prove it.\n"
               "Exit codes: 0 ok, 1 findings (verify) or a needed edge (explain), 2 bad input, 64 usage error."};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every sub-command");
  app.set_version_flag("--version", std::string("depreduce ") + DEPREDUCE_VERSION);
  add_reduce_commands(app);
  add_generate_command(app);
  add_fence_command(app);
  add_window_report_command(app);
  add_build_command(app);
  add_verify_command(app);
  add_expand_command(app);
  add_equiv_command(app);
  // A mistyped sub-command would otherwise read as "a sub-command is required".
  if (argc > 1 && argv[1][0] != '-') {
    std::string names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      known |= sub->get_name() == argv[1];
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      fmt::print(stderr, "depreduce: error: unknown sub-command '{}' (one of: {}; see depreduce --help)\n", argv[1],
                 names);
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) { // usage errors: same prefix as every other error
    fmt::print(stderr, "depreduce: error: {}\nRun with --help for more information.\n", e.what());
    return kExitUsage;
  } catch (const depreduce::InputError& e) {
    fmt::print(stderr, "depreduce: error: {}\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "depreduce: error: {}\n", e.what());
    return kExitBadInput;
  }
  // Reports printed to stdout (window-report, explain, verify, ...): a full
  // disk or closed pipe must not pass for success.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const int err = errno;
    fmt::print(stderr, "depreduce: error: <stdout>: write error: {}\n",
               err != 0 ? std::strerror(err) : "the output could not be written");
    return kExitBadInput;
  }
  return exit_code;
}
