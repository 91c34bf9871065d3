//===- cli/cmd_generate.cpp - `depreduce generate KIND` ------------------===//
#include <charconv>
#include <cstdint>
#include <string>
#include <system_error>

#include <fmt/core.h>

#include "commands.hpp"
#include "options.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/workloads/workloads.hpp"

namespace depreduce::cli {

void add_generate_command(CLI::App& app) {
  struct Args {
    std::string kind;
    std::uint64_t size = 1000;
    std::uint64_t seed = 1;
    std::string out = "-";
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("generate", "Write a realistic walrus-style instruction graph (DOT) for tests and benchmarks");
  cmd->add_option("KIND", args->kind, "Workload: matmul (tiled matmul), attention, or dag (random DAG without engines)")
      ->required()->check(CLI::IsMember(workloads::workload_names()));
  cmd->add_option("--size", args->size, "About this many instructions")->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100000000}));
  cmd->add_option("--seed", args->seed, "Seed for tile shapes and DMA queue choice")
      ->check(CLI::Validator(
          [](std::string& text) {
            // CLI11 would wrap "-1" and saturate values past 2^64 - 1 into an unsigned.
            std::uint64_t v = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (text.empty() || ec != std::errc() || end != text.data() + text.size())
              return std::string("expected an integer from 0 to 18446744073709551615, not '" + text + "'");
            return std::string();
          },
          "UINT64"));
  add_output_option(*cmd, args->out);
  add_quiet_flag(*cmd);
  cmd->callback([args] {
    check_output(args->out, "dot", "");
    Graph g = workloads::generate_workload(workloads::parse_workload(args->kind), args->size, args->seed);
    formats::write_file_atomically(args->out, formats::write_dot(g));
    exit_code = kExitOk;
  });
}

} // namespace depreduce::cli
