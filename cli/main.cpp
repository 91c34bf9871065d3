//===- cli/main.cpp - depreduce command-line entry point ---------------===//
#include <cstdio>
#include <exception>

#include <fmt/core.h>

#include "commands.hpp"
#include "depreduce/error.hpp"

namespace depreduce::cli {
int exit_code = kExitOk;
}

int main(int argc, char** argv) {
  using namespace depreduce::cli;
  CLI::App app{"depreduce: remove redundant dependency edges exactly, and prove it.\n"
               "Exit codes: 0 ok, 1 findings (verify) or a needed edge (explain), 2 bad input, 64 usage error."};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every sub-command");
  add_reduce_commands(app);
  add_generate_command(app);
  add_fence_command(app);
  add_window_report_command(app);
  add_build_command(app);
  add_verify_command(app);
  add_expand_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  } catch (const depreduce::InputError& e) {
    fmt::print(stderr, "depreduce: error: {}\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "depreduce: error: {}\n", e.what());
    return kExitBadInput;
  }
  return exit_code;
}
