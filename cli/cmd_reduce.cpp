//===- cli/cmd_reduce.cpp - `depreduce reduce` and `depreduce explain` ---===//
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <unistd.h>
#include <map>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "commands.hpp"
#include "depreduce/error.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/formats/reference/dot_reader.hpp"
#include "depreduce/reference/transitive_reduction.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce::cli {
namespace {

struct InputOptions {
  std::string file;
  std::string format = "auto";
};

std::function<void(std::size_t, std::size_t)> progress_bar(const char* what, bool enabled);

/// Reads and checks the input; prints the model's warnings unless the caller
/// wants them (\p warnings). With \p progress, a read of more than 64 MB on a
/// terminal shows a progress bar (the DOT reader reports as it goes).
Graph load(const InputOptions& in, std::vector<std::string>* warnings = nullptr, bool progress = false) {
  std::vector<std::string> own;
  std::error_code ec;
  const auto size = std::filesystem::file_size(in.file, ec);
  auto bar = progress_bar("read", progress && !ec && size > (64u << 20));
  Graph g = make_program_order(formats::read_graph(in.file, formats::parse_format(in.format), bar),
                               warnings ? warnings : &own);
  for (const std::string& w : own) fmt::print(stderr, "depreduce: {}\n", w);
  return g;
}

KindFilter parse_filter(const std::string& text) {
  if (text == "all") return KindFilter{};
  auto kinds = parse_kinds(text);
  if (!kinds || kinds->empty())
    throw CLI::ValidationError("--kinds", "expected 'all' or a list of flow, anti, output, ordered");
  return KindFilter{*kinds, false};
}

std::string engine_name(const Graph& g, NodeId v) {
  return g.nodes[v].engine == kNoEngine ? "none" : std::to_string(g.nodes[v].engine);
}

void print_stats(const Graph& g, const Reduction& r, const ReduceStats& s, double seconds) {
  std::size_t demoted = 0;
  for (const RemovedEdge& e : r.removed) demoted += e.demoted_to_retain;
  fmt::print(stderr, "nodes: {}\nedges in: {}\nedges out: {}\nremoved: {}\n", g.nodes.size(),
             g.edges.size(), g.edges.size() - r.removed.size() + demoted, r.removed.size());
  std::map<std::string, std::size_t> by_kind, by_engines;
  for (const RemovedEdge& e : r.removed) {
    std::string kinds = e.kinds.empty() ? "unlabelled" : to_string(e.kinds);
    ++by_kind[kinds];
    if (g.num_engines > 0) ++by_engines[engine_name(g, e.src) + " -> " + engine_name(g, e.dst)];
  }
  fmt::print(stderr, "demoted to retain: {}\ncandidates: {}\n", demoted, s.candidates);
  for (const auto& [k, count] : by_kind) fmt::print(stderr, "removed {}: {}\n", k, count);
  if (g.num_engines > 0) {
    std::size_t cross = 0;
    for (const RemovedEdge& e : r.removed)
      if (g.nodes[e.src].engine != g.nodes[e.dst].engine) ++cross;
    fmt::print(stderr, "cross-engine removed (semaphores saved): {}\n", cross);
    for (const auto& [pair, count] : by_engines) fmt::print(stderr, "removed engine {}: {}\n", pair, count);
  }
  if (s.peak_live_closures) fmt::print(stderr, "peak live closures: {}\n", s.peak_live_closures);
  fmt::print(stderr, "time: {:.6f} s\n", seconds);
}

/// A one-line progress bar on stderr, only when stderr is a terminal.
std::function<void(std::size_t, std::size_t)> progress_bar(const char* what, bool enabled) {
  if (!enabled || !isatty(fileno(stderr))) return {};
  return [what](std::size_t done, std::size_t total) {
    const int width = 40;
    int filled = total ? static_cast<int>(width * done / total) : width;
    fmt::print(stderr, "\r{} [{}{}] {:3d}%", what, std::string(filled, '#'), std::string(width - filled, '.'),
               total ? static_cast<int>(100 * done / total) : 100);
    if (done == total) fmt::print(stderr, "\n");
  };
}

NodeId node_named(const Graph& g, const std::string& name) {
  for (NodeId v = 0; v < g.nodes.size(); ++v)
    if (g.nodes[v].name == name) return v;
  throw InputError(g.file, 0, "no node named '" + name + "'");
}

std::string hop_text(HopKind k) {
  switch (k) {
  case HopKind::ExplicitCompletion: return "edge, completed-before";
  case HopKind::ExplicitIssue: return "ordered edge, issued-before";
  case HopKind::EngineIssue: return "engine order, issued-before";
  case HopKind::EngineCompletion: return "engine order, completed-before";
  }
  return "?";
}

} // namespace

void add_reduce_commands(CLI::App& app) {
  // ---- reduce
  auto* reduce_cmd = app.add_subcommand("reduce", "Remove every redundant dependency edge and write the graph as DOT");
  struct ReduceArgs {
    InputOptions in;
    std::string out = "-";
    std::string impl = "optimized";
    std::string kinds = "all";
    std::string mode = "exact";
    bool stats = false;
    bool json = false;
    bool quiet = false;
  };
  auto args = std::make_shared<ReduceArgs>();
  reduce_cmd->add_option("FILE", args->in.file, "Input graph (DOT, STG, WfCommons JSON, Pegasus DAX)")
      ->required();
  reduce_cmd->add_option("-o,--output", args->out, "Output file (written to a temporary, then renamed); - = stdout");
  reduce_cmd->add_option("--format", args->in.format, "Input format")
      ->check(CLI::IsMember({"auto", "dot", "stg", "wfjson", "dax"}));
  reduce_cmd->add_option("--impl", args->impl, "Implementation")->check(CLI::IsMember({"optimized", "reference"}));
  reduce_cmd->add_option("--kinds", args->kinds,
                         "Edges that may be removed: all, or a list of flow,anti,output,ordered "
                         "(flow = applyReorderReduction; anti,output = applyAntiDependenceReduction)");
  reduce_cmd->add_option("--mode", args->mode, "exact (two-pass) or shipped (the seed's one-pass loop)")
      ->check(CLI::IsMember({"exact", "shipped"}));
  reduce_cmd->add_flag("--stats", args->stats, "Print counts and time on stderr");
  reduce_cmd->add_flag("--json", args->json, "Write a JSON summary instead of DOT");
  reduce_cmd->add_flag("-q,--quiet", args->quiet, "No progress bar (shown on a terminal for inputs over 10^6 edges)");
  reduce_cmd->callback([args] {
    ReduceOptions o;
    o.filter = parse_filter(args->kinds);
    o.mode = args->mode == "shipped" ? ReductionMode::Shipped : ReductionMode::Exact;
    if (args->impl == "reference" && o.mode == ReductionMode::Shipped)
      throw CLI::ValidationError("--mode", "the reference implements the exact mode only");
    Graph g, reduced;
    Reduction r;
    ReduceStats s;
    double seconds = 0;
    if (args->impl == "reference") {
      // The whole reference pipeline (SPEC §1): cgraph reads DOT, and the
      // oracle works from the input as read (its own program order, merging
      // and reduction); make_program_order is not involved.
      InputGraph input = formats::reference::read_graph(args->in.file, formats::parse_format(args->in.format));
      g = reference::apply(input, Reduction{});
      if (!g.self_loops.empty())
        fmt::print(stderr, "depreduce: {}: warning: {} self-loop(s) kept in the output and ignored for reachability (first: '{}')\n",
                   g.file, g.self_loops.size(), g.nodes[g.self_loops.front().src].name);
      auto t0 = std::chrono::steady_clock::now();
      r = reference::reduce(input, o, &s);
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      reduced = reference::apply(input, r);
    } else {
      g = load(args->in, nullptr, !args->quiet);
      s.progress = progress_bar("reduce", !args->quiet && g.edges.size() > 1000000);
      auto t0 = std::chrono::steady_clock::now();
      r = reduce(g, o, &s);
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      reduced = apply(g, r);
    }
    formats::write_file_atomically(args->out, args->json ? formats::write_json_summary(reduced)
                                                          : formats::write_dot(reduced));
    if (args->stats) print_stats(g, r, s, seconds);
    exit_code = kExitOk;
  });

  // ---- convert
  auto* convert = app.add_subcommand("convert", "Read any supported graph and write it as DOT, a JSON summary or an edge list");
  struct ConvertArgs {
    InputOptions in;
    std::string out = "-";
    std::string to = "dot";
  };
  auto cargs = std::make_shared<ConvertArgs>();
  convert->add_option("FILE", cargs->in.file, "Input graph")->required();
  convert->add_option("-o,--output", cargs->out, "Output file (atomic); - = stdout");
  convert->add_option("--format", cargs->in.format, "Input format")
      ->check(CLI::IsMember({"auto", "dot", "stg", "wfjson", "dax"}));
  convert->add_option("--to", cargs->to, "dot, json or edges (one 'src<TAB>dst' line per merged edge)")
      ->check(CLI::IsMember({"dot", "json", "edges"}));
  convert->callback([cargs] {
    std::vector<std::string> warnings;
    Graph g = load(cargs->in, &warnings);
    if (cargs->to == "edges" && !g.self_loops.empty()) // an edge list carries no self-loops
      fmt::print(stderr, "depreduce: {}: warning: {} self-loop(s) left out of the edge list\n", g.file, g.self_loops.size());
    else
      for (const std::string& w : warnings) fmt::print(stderr, "depreduce: {}\n", w);
    std::string text;
    if (cargs->to == "dot") text = formats::write_dot(g);
    else if (cargs->to == "json") text = formats::write_json_summary(g);
    else text = formats::write_edge_list(g);
    formats::write_file_atomically(cargs->out, text);
    exit_code = kExitOk;
  });

  // ---- explain
  auto* explain = app.add_subcommand("explain", "Print the other path that makes the edge SRC -> DST redundant");
  struct ExplainArgs {
    InputOptions in;
    std::string src, dst;
  };
  auto eargs = std::make_shared<ExplainArgs>();
  explain->add_option("FILE", eargs->in.file, "Input graph")->required();
  explain->add_option("SRC", eargs->src, "Source node name")->required();
  explain->add_option("DST", eargs->dst, "Destination node name")->required();
  explain->add_option("--format", eargs->in.format, "Input format")
      ->check(CLI::IsMember({"auto", "dot", "stg", "wfjson", "dax"}));
  explain->footer("Exit: 0 the edge is redundant (witness printed), 1 the edge is needed, 2 bad input or no such edge.");
  explain->callback([eargs] {
    Graph g = load(eargs->in);
    NodeId s = node_named(g, eargs->src), d = node_named(g, eargs->dst);
    bool exists = false;
    for (const Edge& e : g.edges) exists |= (e.src == s && e.dst == d);
    if (!exists) throw InputError(g.file, 0, "no edge '" + eargs->src + "' -> '" + eargs->dst + "'");
    auto w = find_witness(g, s, d);
    if (!w) {
      fmt::print("{} -> {} is needed: no other path implies it\n", eargs->src, eargs->dst);
      exit_code = kExitFindings;
      return;
    }
    fmt::print("{} -> {} is redundant; witness ({} hops):\n", eargs->src, eargs->dst, w->hops.size());
    for (const Hop& h : w->hops)
      fmt::print("  {} -> {}  [{}]\n", g.nodes[h.from].name, g.nodes[h.to].name, hop_text(h.kind));
    exit_code = kExitOk;
  });
}

} // namespace depreduce::cli
