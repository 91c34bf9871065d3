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
#include "depreduce/dependence_builder.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/reference/dependence_builder.hpp"

namespace depreduce::cli {

void add_build_command(CLI::App& app) {
  struct Args {
    std::string file;
    std::string format = "auto";
    std::string out = "-";
    std::string impl = "optimized";
    bool stats = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "build", "Replace the edges by the dependences computed from the nodes' reads=/writes= (walrus dep_opt) and write DOT");
  cmd->add_option("FILE", args->file, "Input graph; program order = input order, constrained by its edges")
      ->required();
  cmd->add_option("-o,--output", args->out, "Output file (written to a temporary, then renamed); - = stdout");
  cmd->add_option("--format", args->format, "Input format")->check(CLI::IsMember({"auto", "dot", "stg", "wfjson", "dax"}));
  cmd->add_option("--impl", args->impl, "Implementation")->check(CLI::IsMember({"optimized", "reference"}));
  cmd->add_flag("--stats", args->stats, "Print counts and time on stderr");
  cmd->footer("Every pair p before c that shares a byte gets one edge labelled FLOW (p writes, c reads), OUTPUT (both\n"
              "write) and/or ANTI (p reads, c writes), with no writer of that byte in between. The input's edges are\n"
              "dropped (docs/builder.md). Exit: 0 written, 2 bad input.");
  cmd->callback([args] {
    std::vector<std::string> warnings;
    const Graph g = read_model(args->file, args->format, args->impl == "reference", warnings);
    print_warnings(warnings);
    auto t0 = std::chrono::steady_clock::now();
    Graph built = args->impl == "reference" ? reference::build_dependences(g) : build_dependences(g);
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
