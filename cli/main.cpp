//===- cli/main.cpp - depreduce command-line entry point ---------------===//
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iterator>
#include <string>

#include <signal.h>

#include <fmt/core.h>
#include <fmt/format.h>

#include "allocator.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "depreduce/error.hpp"
#include "depreduce/formats/formats.hpp"

namespace depreduce::cli {
int exit_code = kExitOk;

namespace {
// Atomic, so that no optimiser drops the stores to slots nothing reads (a
// plain static array was: memcheck then saw the buried graphs as lost).
std::atomic<void*> buried[8];
std::atomic<unsigned> buried_count{0};
} // namespace

bool bury(void* p) noexcept {
  const unsigned i = buried_count.fetch_add(1, std::memory_order_relaxed);
  if (i >= std::size(buried)) return false;
  buried[i].store(p, std::memory_order_relaxed);
  return true;
}

std::string one_line(std::string_view text) {
  // The common case, nothing to escape: one copy.
  if (std::none_of(text.begin(), text.end(), [](char c) {
        const auto b = static_cast<unsigned char>(c);
        return b < 0x20 || b == 0x7f;
      }))
    return std::string(text);
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (b < 0x20 || b == 0x7f) out += fmt::format("\\x{:02x}", b);
    else out += c;
  }
  return out;
}

void print_warnings(const std::vector<std::string>& warnings) {
  if (quiet) return;
  for (const std::string& w : warnings) fmt::print(stderr, "depreduce: {}\n", one_line(w));
}
} // namespace depreduce::cli

namespace {
/// SIGINT, SIGTERM, SIGHUP: remove the temporary file of an output being
/// written, then die of the signal as before (SA_RESETHAND restored the
/// default; the signal raised here is delivered when the handler returns).
extern "C" void remove_temporaries_and_die(int sig) {
  depreduce::formats::remove_temporary_outputs();
  ::raise(sig);
}

void install_signal_handlers() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction now {};
    if (::sigaction(sig, nullptr, &now) != 0 || now.sa_handler == SIG_IGN) continue; // nohup: stays ignored
    struct sigaction act {};
    act.sa_handler = remove_temporaries_and_die;
    act.sa_flags = SA_RESETHAND;
    sigemptyset(&act.sa_mask);
    ::sigaction(sig, &act, nullptr);
  }
}
} // namespace

int main(int argc, char** argv) {
  using namespace depreduce::cli;
  install_signal_handlers();
  CLI::App app{"depreduce: remove redundant dependency edges exactly, and prove it.\n"
               "Exit codes: 0 ok, 1 findings (verify), a difference (equiv) or a needed edge (explain), 2 bad input, 64 usage error."};
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
  refuse_repeated_options(app);
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
    fmt::print(stderr, "depreduce: error: {}\n", depreduce::cli::one_line(e.what()));
    return kExitBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "depreduce: error: {}\n", depreduce::cli::one_line(e.what()));
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
