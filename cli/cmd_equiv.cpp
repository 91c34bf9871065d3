//===- cli/cmd_equiv.cpp - `depreduce equiv A B` --------------------------===//
///
/// \file
/// Do A and B have the same completed-before and issued-before relations
/// (implicit engine order included)? Exit 0 yes, 1 no (the differing pairs,
/// each with a path in the graph that has it), 2 bad input.
//===----------------------------------------------------------------------===//
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "options.hpp"
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

/// Both graphs must name the same nodes, with --cycles condense as without
/// (equivalent() says so there): \throws InputError naming a node of one
/// that the other lacks, on the other's file.
void require_same_names(const Graph& a, const Graph& b) {
  for (const auto& [from, to] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
    std::unordered_set<std::string_view> names;
    for (const Node& v : to->nodes) names.insert(v.name);
    for (const Node& v : from->nodes)
      if (!names.count(v.name))
        throw InputError(to->file, 0, "no node named '" + v.name + "' (the other graph, " + from->file +
                                          ", has it; both graphs must name the same nodes)");
  }
}

} // namespace

void add_equiv_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "equiv", "Do two graphs over the same nodes have the same completed-before and issued-before relations?");
  struct Args {
    std::string a, b;
    InputOptions in;
    std::size_t show = 10;
    bool stats = false;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("A", args->a, "First graph (- = stdin)")->required();
  cmd->add_option("B", args->b, "Second graph (- = stdin)")->required();
  add_input_options(*cmd, args->in, kEveryInputOption);
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
  add_json_flag(*cmd, args->json,
                "Print the answer as JSON: equivalent, the components that differ (--cycles condense) and every "
                "differing pair with its path");
  add_quiet_flag(*cmd);
  cmd->footer("Exit: 0 same relations, 1 they differ (pairs printed), 2 bad input (also: the node names differ).\n"
              "--cycles condense: same strongly connected components (of the WAIT edges), and the same relations\n"
              "between them (a component of two or more nodes is one node named {a,b,...}).");
  cmd->callback([args] {
    EquivalenceOptions o;
    o.filter = parse_filter(args->in.kinds);
    if (args->a == "-" && args->b == "-") throw CLI::ValidationError("A B", "only one of the two inputs can be '-'");
    std::vector<std::string> warnings;
    // The reference pipeline compares the inputs as read (cgraph's reader,
    // the oracle's program order); a and b name the nodes by its ids.
    const bool ref = args->in.impl == "reference";
    const bool condense = args->in.cycles == "condense";
    InputGraph input_a, input_b;
    std::vector<std::uint32_t> comp_a, comp_b;
    Graph a = read_carrier(args->a, args->in, warnings, &input_a, &comp_a);
    Graph b = read_carrier(args->b, args->in, warnings, &input_b, &comp_b);
    print_warnings(warnings);
    // --cycles condense: the components must match, then their condensations
    // are compared as graphs (each acyclic).
    std::vector<std::string> cycles_differ;
    const std::size_t nodes_read = a.nodes.size();
    if (condense) {
      require_same_names(a, b);
      input_a = condensation(input_a, a, comp_a);
      input_b = condensation(input_b, b, comp_b);
      cycles_differ = differing_components(a, comp_a, input_a, b, comp_b, input_b);
      std::vector<std::string> again; // the carriers' warnings were printed
      a = ref ? oracle_graph(input_a, again) : make_program_order(input_a);
      b = ref ? oracle_graph(input_b, again) : make_program_order(input_b);
    }
    const auto t0 = std::chrono::steady_clock::now();
    // Different components: the condensations name different nodes.
    const Equivalence eq = !cycles_differ.empty() ? Equivalence{false, {}}
                           : ref                  ? reference::equivalent(input_a, input_b, o)
                                                  : equivalent(a, b, o);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (args->stats)
      fmt::print(stderr, "nodes: {}\nedges A: {}\nedges B: {}\ndifferences: {}\ntime: {:.6f} s\n", a.nodes.size(),
                 a.edges.size(), b.edges.size(), eq.differences.size(), seconds);
    if (args->json) {
      nlohmann::ordered_json j;
      j["a"] = a.file;
      j["b"] = b.file;
      j["nodes"] = a.nodes.size();
      j["equivalent"] = eq.equivalent && cycles_differ.empty();
      j["cycles_differ"] = cycles_differ;
      j["differences"] = nlohmann::ordered_json::array();
      std::unique_ptr<PathFinder> in_a, in_b;
      for (const RelationDifference& d : eq.differences) {
        const Graph& has = d.in_first ? a : b;
        std::unique_ptr<PathFinder>& finder = d.in_first ? in_a : in_b;
        if (!finder) finder = std::make_unique<PathFinder>(has);
        nlohmann::ordered_json path = nlohmann::ordered_json::array();
        if (auto w = finder->find(d.src, d.dst, d.relation)) {
          path.push_back(has.nodes[d.src].name);
          for (const Hop& h : w->hops) path.push_back(has.nodes[h.to].name);
        }
        j["differences"].push_back({{"src", has.nodes[d.src].name},
                                    {"dst", has.nodes[d.dst].name},
                                    {"relation", relation_text(d.relation)},
                                    {"in", d.in_first ? "A" : "B"},
                                    {"path", std::move(path)}});
      }
      fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
      exit_code = j["equivalent"].get<bool>() ? kExitOk : kExitFindings;
      return;
    }
    if (!cycles_differ.empty()) {
      fmt::print("{} and {} differ in their cycles: {} node(s)\n", a.file, b.file, cycles_differ.size());
      for (std::size_t i = 0; i < cycles_differ.size() && i < args->show; ++i) fmt::print("  {}\n", cycles_differ[i]);
      if (cycles_differ.size() > args->show) fmt::print("  ... and {} more\n", cycles_differ.size() - args->show);
      exit_code = kExitFindings;
      return;
    }
    if (eq.equivalent) {
      fmt::print("{} and {} have the same completed-before and issued-before relations ({} nodes{})\n", a.file,
                 b.file, nodes_read,
                 condense && a.nodes.size() != nodes_read ? fmt::format("; {} after condensing the cycles", a.nodes.size())
                                                          : std::string());
      exit_code = kExitOk;
      return;
    }
    fmt::print("{} and {} differ: {} pair(s){}\n", a.file, b.file, eq.differences.size(),
               ref ? "" : " that generate the relations (the others follow from these)");
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
        const char* separator = " ";
        for (const Hop& h : w->hops) {
          fmt::print("{}{} -> {} [{}]", separator, has.nodes[h.from].name, has.nodes[h.to].name, hop_text(h.kind));
          separator = "; ";
        }
        fmt::print("\n");
      }
    }
    if (eq.differences.size() > args->show) fmt::print("  ... and {} more\n", eq.differences.size() - args->show);
    exit_code = kExitFindings;
  });
}

} // namespace depreduce::cli
