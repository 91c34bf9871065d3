//===- cli/cmd_equiv.cpp - `depreduce equiv A B` --------------------------===//
///
/// \file
/// Do A and B have the same completed-before and issued-before relations
/// (implicit engine order included)? Exit 0 yes, 1 no (the differing pairs,
/// each with a path in the graph that has it), 2 bad input.
//===----------------------------------------------------------------------===//
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "commands.hpp"
#include "depreduce/equivalence.hpp"
#include "depreduce/error.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/paths.hpp"
#include "depreduce/reference/equivalence.hpp"

namespace depreduce::cli {
namespace {

const char* relation_text(Relation r) {
  return r == Relation::CompletedBefore ? "completed-before" : "issued-before";
}

const char* hop_text(HopKind k) {
  switch (k) {
  case HopKind::ExplicitCompletion: return "edge, completed-before";
  case HopKind::ExplicitIssue: return "ordered edge, issued-before";
  case HopKind::EngineIssue: return "engine order, issued-before";
  case HopKind::EngineCompletion: return "engine order, completed-before";
  }
  return "?";
}

} // namespace

void add_equiv_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "equiv", "Do two graphs over the same nodes have the same completed-before and issued-before relations?");
  struct Args {
    std::string a, b;
    std::string format = "auto";
    std::string kinds = "all";
    std::string impl = "optimized";
    std::size_t show = 10;
    bool stats = false;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("A", args->a, "First graph (- = stdin)")->required();
  cmd->add_option("B", args->b, "Second graph (- = stdin)")->required();
  cmd->add_option("--format", args->format, "Input format of both")
      ->check(CLI::IsMember({"auto", "dot", "stg", "wfjson", "dax"}));
  cmd->add_option("--kinds", args->kinds,
                  "all, or a list of flow,anti,output,ordered: as for reduce, the edges a reduction may remove; "
                  "edges outside K always count as paths (SPEC 4), so every edge counts and K does not change "
                  "the answer");
  cmd->add_option("--impl", args->impl, "Implementation (reference: all pairs, every differing pair)")
      ->check(CLI::IsMember({"optimized", "reference"}));
  cmd->add_option("--show", args->show, "Differences to print in full (the rest are counted)")
      ->check(CLI::Validator(
          [](std::string& text) {
            // CLI11 would wrap "-5" into a huge unsigned (fresh-user trial).
            if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
              return std::string("expected a count >= 0, not '" + text + "'");
            return std::string();
          },
          "UINT"));
  cmd->add_flag("--stats", args->stats, "Print the sizes and the comparison's time (reading excluded) on stderr");
  cmd->footer("Exit: 0 same relations, 1 they differ (pairs printed), 2 bad input (also: the node names differ).");
  cmd->callback([args] {
    EquivalenceOptions o;
    if (args->kinds != "all") {
      auto kinds = parse_kinds(args->kinds);
      if (!kinds || kinds->empty())
        throw CLI::ValidationError("--kinds", "expected 'all' or a list of flow, anti, output, ordered");
      o.filter = KindFilter{*kinds, false};
    }
    if (args->a == "-" && args->b == "-") throw CLI::ValidationError("A B", "only one of the two inputs can be '-'");
    std::vector<std::string> warnings;
    // The reference pipeline compares the inputs as read (cgraph's reader,
    // the oracle's program order); a and b name the nodes by its ids.
    const bool ref = args->impl == "reference";
    InputGraph input_a, input_b;
    const Graph a = read_model(args->a, args->format, ref, warnings, &input_a);
    const Graph b = read_model(args->b, args->format, ref, warnings, &input_b);
    print_warnings(warnings);
    const auto t0 = std::chrono::steady_clock::now();
    const Equivalence eq = ref ? reference::equivalent(input_a, input_b, o) : equivalent(a, b, o);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (args->stats)
      fmt::print(stderr, "nodes: {}\nedges A: {}\nedges B: {}\ndifferences: {}\ntime: {:.6f} s\n", a.nodes.size(),
                 a.edges.size(), b.edges.size(), eq.differences.size(), seconds);
    if (eq.equivalent) {
      fmt::print("{} and {} have the same completed-before and issued-before relations ({} nodes)\n", a.file,
                 b.file, a.nodes.size());
      exit_code = kExitOk;
      return;
    }
    fmt::print("{} and {} differ: {} pair(s){}\n", a.file, b.file, eq.differences.size(),
               args->impl == "reference" ? "" : " that generate the relations (the others follow from these)");
    std::unique_ptr<PathFinder> in_a, in_b;
    for (std::size_t i = 0; i < eq.differences.size() && i < args->show; ++i) {
      const RelationDifference& d = eq.differences[i];
      const Graph& has = d.in_first ? a : b;
      const Graph& lacks = d.in_first ? b : a;
      std::unique_ptr<PathFinder>& finder = d.in_first ? in_a : in_b;
      if (!finder) finder = std::make_unique<PathFinder>(has);
      fmt::print("  {} -> {}: {} in {}, not in {}\n", has.nodes[d.src].name, has.nodes[d.dst].name,
                 relation_text(d.relation), has.file, lacks.file);
      if (auto w = finder->find(d.src, d.dst, d.relation)) {
        fmt::print("    path in {}:", has.file);
        for (const Hop& h : w->hops)
          fmt::print(" {} -> {} [{}];", has.nodes[h.from].name, has.nodes[h.to].name, hop_text(h.kind));
        fmt::print("\n");
      }
    }
    if (eq.differences.size() > args->show) fmt::print("  ... and {} more\n", eq.differences.size() - args->show);
    exit_code = kExitFindings;
  });
}

} // namespace depreduce::cli
