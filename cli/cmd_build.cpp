//===- cli/cmd_build.cpp - `depreduce build` -------------------------------===//
///
/// \file
/// Rebuilds a graph's dependence edges from its nodes' `reads=`/`writes=`
/// (SPEC §5, walrus dep_opt `constructBIRGraph`) and writes it as DOT.
//===----------------------------------------------------------------------===//
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "commands.hpp"
#include "options.hpp"
#include "depreduce/dependence_builder.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/reference/dependence_builder.hpp"

namespace depreduce::cli {

void add_build_command(CLI::App& app) {
  struct Args {
    std::string file;
    InputOptions in;
    std::string out = "-";
    bool stats = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "build", "Replace the edges by the dependences computed from the nodes' reads=/writes= (walrus dep_opt) and write DOT");
  cmd->add_option("FILE", args->file, "Input graph; program order = input order, constrained by its edges")
      ->required();
  add_output_option(*cmd, args->out);
  add_input_options(*cmd, args->in, kFormat | kImpl);
  cmd->add_flag("--stats", args->stats, "Print counts and time on stderr");
  add_quiet_flag(*cmd);
  cmd->footer("Every pair p before c that shares a byte gets one edge labelled FLOW (p writes, c reads), OUTPUT (both\n"
              "write) and/or ANTI (p reads, c writes), with no writer of that byte in between. The input's edges are\n"
              "dropped (docs/builder.md). Exit: 0 written, 2 bad input.");
  cmd->callback([args] {
    check_output(args->out, "dot", input_format_name(args->file, args->in.format));
    std::vector<std::string> warnings;
    const Graph g = read_model(args->file, args->in.format, args->in.impl == "reference", warnings);
    print_warnings(warnings);
    auto t0 = std::chrono::steady_clock::now();
    Graph built = args->in.impl == "reference" ? reference::build_dependences(g) : build_dependences(g);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    formats::write_file_atomically(args->out, formats::write_dot(built));
    if (args->stats) {
      std::map<std::string, std::size_t> by_kinds;
      for (const Edge& e : built.edges) ++by_kinds[to_string(e.kinds)];
      fmt::print(stderr, "nodes: {}\nedges in: {}\nedges out: {}\n", g.nodes.size(), g.edges.size() + g.self_loops.size(),
                 built.edges.size());
      for (const auto& [kinds, count] : by_kinds) fmt::print(stderr, "edges {}: {}\n", kinds, count);
      fmt::print(stderr, "time: {:.6f} s\n", seconds);
    }
    exit_code = kExitOk;
  });
}

} // namespace depreduce::cli
