//===- cli/cmd_reduce.cpp - `depreduce reduce` and `depreduce explain` ---===//
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <unistd.h>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "batch.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "depreduce/condense.hpp"
#include "depreduce/error.hpp"
#include "depreduce/paths.hpp"
#include "depreduce/reference/condense.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/formats/reference/dot_reader.hpp"
#include "depreduce/reference/transitive_reduction.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce::cli {
namespace {

/// A command's input: the file and the shared input options (options.hpp).
struct InputFile : InputOptions {
  std::string file;
};

std::function<void(std::size_t, std::size_t)> progress_bar(const char* what, bool enabled);

std::string engine_name(Engine e) { return e == kNoEngine ? "none" : std::to_string(e); }

/// Removed edges per kind set and per (source engine, target engine), keyed
/// by their printed names ("flow|anti", "3 -> 5"): counted on small keys,
/// named once per key (a 10^6-instruction graph removes millions of edges).
struct RemovedCounts {
  std::map<std::string, std::size_t> by_kind, by_engines;
  RemovedCounts(const Graph& g, const Reduction& r) {
    std::map<std::uint8_t, std::size_t> kinds;
    std::map<std::pair<Engine, Engine>, std::size_t> engines;
    for (const RemovedEdge& e : r.removed) {
      ++kinds[e.kinds.bits()];
      if (g.num_engines > 0) ++engines[{g.nodes[e.src].engine, g.nodes[e.dst].engine}];
    }
    for (const auto& [k, count] : kinds) {
      const KindSet set = KindSet::from_bits(k);
      by_kind[set.empty() ? "unlabelled" : to_string(set)] += count;
    }
    for (const auto& [k, count] : engines) by_engines[engine_name(k.first) + " -> " + engine_name(k.second)] += count;
  }
};

/// \p g: the graph before or after the reduction (its nodes); \p edges_in:
/// its edges before.
void print_stats(const Graph& g, std::size_t edges_in, const Reduction& r, const ReduceStats& s, double seconds) {
  std::size_t demoted = 0;
  for (const RemovedEdge& e : r.removed) demoted += e.demoted_to_retain;
  fmt::print(stderr, "nodes: {}\nedges in: {}\nedges out: {}\nremoved: {}\n", g.nodes.size(),
             edges_in, edges_in - r.removed.size() + demoted, r.removed.size());
  const RemovedCounts counts(g, r);
  const auto& by_kind = counts.by_kind;
  const auto& by_engines = counts.by_engines;
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
  if (!enabled || quiet || !isatty(fileno(stderr))) return {};
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

std::string json_string(const std::string& text) {
  // Names may hold any bytes; never throw on invalid UTF-8.
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string json_names(const std::string& text) { // "flow|anti" -> ["flow","anti"]
  std::string out = "[";
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t j = text.find('|', i);
    if (j == std::string::npos) j = text.size();
    if (out.size() > 1) out += ',';
    out += json_string(text.substr(i, j - i));
    i = j + 1;
  }
  return out + "]";
}

/// `reduce --json` (docs/cli.md gives the schema): the counts of --stats, then
/// one entry per removed edge with its witness in the reduced graph, written
/// entry by entry (the witnesses are found one at a time, PathFinder).
void write_reduce_json(formats::AtomicOutput& out, const Graph& g, const Reduction& r, const ReduceStats& s,
                       double seconds, std::size_t cyclic_components) {
  std::size_t demoted = 0, cross = 0;
  const RemovedCounts counts(g, r);
  const auto& by_kind = counts.by_kind;
  const auto& by_engines = counts.by_engines;
  for (const RemovedEdge& e : r.removed) {
    demoted += e.demoted_to_retain;
    if (g.num_engines > 0) cross += g.nodes[e.src].engine != g.nodes[e.dst].engine;
  }
  const std::size_t edges_out = g.edges.size() - r.removed.size() + demoted;
  out.write(fmt::format("{{\n  \"name\": {},\n  \"nodes\": {},\n  \"edges\": {},\n  \"engines\": {},\n"
                        "  \"self_loops\": {},\n",
                        json_string(g.name), g.nodes.size(), edges_out, g.num_engines, g.self_loops.size()));
  out.write(fmt::format("  \"counts\": {{\"nodes\": {}, \"edges_in\": {}, \"edges_out\": {}, \"removed\": {}, "
                        "\"demoted_to_retain\": {}, \"candidates\": {}, \"cross_engine_removed\": {}, "
                        "\"peak_live_closures\": {}, \"cyclic_components\": {}}},\n",
                        g.nodes.size(), g.edges.size(), edges_out, r.removed.size(), demoted, s.candidates, cross,
                        s.peak_live_closures, cyclic_components));
  auto write_map = [&](const char* key, const std::map<std::string, std::size_t>& m) {
    out.write(fmt::format("  \"{}\": {{", key));
    bool first = true;
    for (const auto& [k, v] : m) {
      out.write(fmt::format("{}{}: {}", first ? "" : ", ", json_string(k), v));
      first = false;
    }
    out.write("},\n");
  };
  write_map("removed_per_kind", by_kind);
  write_map("removed_per_engine_pair", by_engines);
  out.write(fmt::format("  \"time_s\": {:.6f},\n  \"removed\": [", seconds));
  PathFinder kept(g, r);
  std::unique_ptr<PathFinder> any; // only if a kept path is missing (never, by SPEC §4)
  for (std::size_t i = 0; i < r.removed.size(); ++i) {
    const RemovedEdge& e = r.removed[i];
    std::optional<Witness> w = kept.witness(e.src, e.dst);
    if (!w) w = kept.find(e.src, e.dst, Relation::IssuedBefore, true); // condensed components: issue order
    if (!w) {
      if (!any) any = std::make_unique<PathFinder>(g);
      w = any->witness(e.src, e.dst);
    }
    std::string names = "[";
    if (w && !w->hops.empty()) {
      names += json_string(g.nodes[w->hops.front().from].name);
      for (const Hop& h : w->hops) names += "," + json_string(g.nodes[h.to].name);
    }
    names += "]";
    out.write(fmt::format("{}\n    {{\"src\": {}, \"dst\": {}, \"kinds\": {}, \"flags\": {}, "
                          "\"demoted_to_retain\": {}, \"witness\": {}}}",
                          i ? "," : "", json_string(g.nodes[e.src].name), json_string(g.nodes[e.dst].name),
                          json_names(to_string(e.kinds)), json_names(to_string(e.flags)),
                          e.demoted_to_retain ? "true" : "false", names));
  }
  out.write(r.removed.empty() ? "]\n}\n" : "\n  ]\n}\n");
}

struct ReduceArgs {
  InputFile in;
  std::string out = "-";
  std::string mode = "exact";
  bool stats = false;
  bool json = false;
  std::string to; ///< --to: dot, json or edges ("" = json with --json, else dot).
  BatchArgs batch; ///< FILE... (in.file is unused: each input is passed in), --out-dir, --files-from.
};

/// The file extension batch mode gives an output written as \p to ("dot",
/// "json", "edges"), the one check_output() accepts for it.
std::string output_extension(const std::string& to) {
  return to == "dot" ? ".dot" : to == "json" ? ".json" : ".tsv";
}

/// One input through `reduce`: \p file read with a.in's options, reduced
/// with \p o, written as \p to ("dot", "json", "edges") to \p output
/// (atomic). Warnings are printed on stderr as they come, or appended to
/// \p collect (batch mode, which also shows no progress bar and frees the
/// graphs). Returns the exit code. \throws InputError on bad input.
int reduce_file(const ReduceArgs& a, const ReduceOptions& o, const std::string& to, const std::string& file,
                const formats::OutputPath& output, std::vector<std::string>* collect) {
  const formats::Format format = formats::parse_format(a.in.format);
  const bool oracle = a.in.impl == "reference";
  const bool no_bar = quiet || collect != nullptr;
  // The reference pipeline (SPEC §1) reads with the DOT reader's twin,
  // cgraph; the default one with the one-pass reader, a progress bar over a
  // long read on a terminal.
  std::error_code size_error;
  const auto size = no_bar ? 0 : std::filesystem::file_size(file, size_error); // for the bar only
  const auto read_start = std::chrono::steady_clock::now();
  InputGraph input =
      oracle ? formats::reference::read_graph(file, format)
             : formats::read_graph(file, format, progress_bar("read", !no_bar && !size_error && size > (64u << 20)));
  const double read_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - read_start).count();
  ReduceStats s;
  s.progress = progress_bar("reduce", !no_bar && input.edges.size() > 1000000);
  std::vector<std::string> warnings;
  InputReduction ir;
  std::optional<Graph> reduced; // set by the reference pipeline, which applies its own decision
  double seconds = 0;
  if (oracle) {
    auto t0 = std::chrono::steady_clock::now();
    ir = oracle_reduce_input(input, o, &s, warnings);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (o.cycles != CycleMode::Condense) reduced = reference::apply(input, ir.reduction);
  } else {
    auto t0 = std::chrono::steady_clock::now();
    ir = reduce_input(std::move(input), o, &s, &warnings);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  if (collect) collect->insert(collect->end(), warnings.begin(), warnings.end());
  else print_warnings(warnings);
  const Reduction& r = ir.reduction;
  const std::size_t edges_in = ir.graph.edges.size();
  const auto write_start = std::chrono::steady_clock::now();
  formats::AtomicOutput out(output);
  if (to == "json") {
    write_reduce_json(out, ir.graph, r, s, seconds, ir.cyclic_components);
  } else {
    // The reduced graph reuses the merged one (one graph in memory, not
    // two), and the text goes out as it is written.
    if (!reduced) reduced = apply(std::move(ir.graph), r);
    if (to == "dot") formats::write_dot(*reduced, out);
    else out.write(formats::write_edge_list(*reduced));
  }
  out.commit();
  const double write_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - write_start).count();
  if (a.stats) {
    print_stats(to == "json" ? ir.graph : *reduced, edges_in, r, s, seconds);
    // Where a whole run goes (docs/performance.md): `time` above is the
    // model build and the reduction.
    fmt::print(stderr, "read: {:.6f} s\nwrite: {:.6f} s\n", read_seconds, write_seconds);
  }
  // The output is complete: a single run leaves the graphs to the
  // process's exit; a batch frees them before the next input.
  if (!collect) {
    keep_until_exit(input); // --impl reference reads it to the end; moved from otherwise
    keep_until_exit(ir);
    keep_until_exit(reduced);
  }
  return kExitOk;
}

struct ConvertArgs {
  InputFile in;
  std::string out = "-";
  std::string to; ///< --to: dot, json or edges ("" = json with --json, else dot).
  BatchArgs batch; ///< FILE... (in.file is unused: each input is passed in), --out-dir, --files-from, --json.
};

/// One input through `convert`: \p file read with a.in's options (--format,
/// --cycles, --impl), written as \p to ("dot", "json", "edges") to \p output
/// (atomic). Warnings are printed on stderr, or appended to \p collect (batch
/// mode, which also frees the graph). Returns the exit code. \throws
/// InputError on bad input.
int convert_file(const ConvertArgs& a, const std::string& to, const std::string& file, const formats::OutputPath& output,
                 std::vector<std::string>* collect) {
  std::vector<std::string> warnings;
  Graph g = read_carrier(file, a.in, warnings);
  if (to == "edges" && !g.self_loops.empty()) // an edge list carries no self-loops
    warnings = {g.file + ": warning: " + std::to_string(g.self_loops.size()) + " self-loop(s) left out of the edge list"};
  if (collect) collect->insert(collect->end(), warnings.begin(), warnings.end());
  else print_warnings(warnings);
  formats::AtomicOutput out(output);
  if (to == "dot") formats::write_dot(g, out);
  else if (to == "json") out.write(formats::write_json_summary(g));
  else out.write(formats::write_edge_list(g));
  out.commit();
  if (!collect) keep_until_exit(g);
  return kExitOk;
}

} // namespace

void add_reduce_commands(CLI::App& app) {
  // ---- reduce
  auto* reduce_cmd = app.add_subcommand("reduce", "Remove every redundant dependency edge and write the graph as DOT");
  auto args = std::make_shared<ReduceArgs>();
  reduce_cmd->add_option("FILE", args->batch.files,
                         "Input graph (DOT, STG, WfCommons JSON, Pegasus DAX); several with --out-dir");
  add_output_option(*reduce_cmd, args->out);
  add_input_options(*reduce_cmd, args->in, kEveryInputOption);
  reduce_cmd->add_option("--mode", args->mode, "exact (two-pass) or shipped (the seed's one-pass loop)")
      ->check(CLI::IsMember({"exact", "shipped"}));
  reduce_cmd->add_flag("--stats", args->stats,
                       "Print counts and times on stderr (time: model build + reduction; read; write)");
  add_json_flag(*reduce_cmd, args->json,
                "Write a JSON summary instead of DOT: counts, and every removed edge with its witness");
  reduce_cmd->add_option("--to", args->to,
                         "Output: dot (the reduced graph, the default), json (as --json) or edges (the reduced "
                         "graph's edges, one 'src<TAB>dst' line per merged edge)")
      ->check(CLI::IsMember({"dot", "json", "edges"}));
  add_batch_options(*reduce_cmd, args->batch);
  add_quiet_flag(*reduce_cmd);
  reduce_cmd->callback([args, reduce_cmd] {
    ReduceOptions o = reduce_options(args->in);
    o.mode = args->mode == "shipped" ? ReductionMode::Shipped : ReductionMode::Exact;
    if (args->in.impl == "reference" && o.mode == ReductionMode::Shipped)
      throw CLI::ValidationError("--mode", "the reference implements the exact mode only");
    const bool batch = batch_mode(args->batch);
    // In batch mode --json also makes the status lines JSON, so --to may
    // choose another output beside it.
    if (args->json && !args->to.empty() && args->to != "json" && !batch)
      throw CLI::ValidationError("--to", "--json writes the JSON summary; it contradicts --to " + args->to);
    const std::string to = !args->to.empty() ? args->to : args->json ? "json" : "dot";
    if (batch) {
      if (reduce_cmd->count("-o") > 0) refuse_in_batch("-o");
      if (args->stats) throw CLI::ValidationError("--stats", "prints one run's counts; batch mode does not take it");
      BatchArgs batch_args = args->batch;
      batch_args.json = args->json;
      exit_code = run_batch(batch_args, output_extension(to),
                            [&](const std::string& file, const formats::OutputPath& output, std::vector<std::string>& w) {
                              return reduce_file(*args, o, to, file, output, &w);
                            });
      return;
    }
    const std::string& file = args->batch.files.front();
    check_output(args->out, to, input_format_name(file, args->in.format), true);
    exit_code = reduce_file(*args, o, to, file, args->out, nullptr);
  });

  // ---- convert
  auto* convert = app.add_subcommand("convert", "Read any supported graph and write it as DOT, a JSON summary or an edge list");
  auto cargs = std::make_shared<ConvertArgs>();
  convert->add_option("FILE", cargs->batch.files, "Input graph; several with --out-dir");
  add_output_option(*convert, cargs->out);
  add_input_options(*convert, cargs->in, kFormat | kCycles | kImpl);
  convert->add_option("--to", cargs->to, "dot, json or edges (one 'src<TAB>dst' line per merged edge)")
      ->check(CLI::IsMember({"dot", "json", "edges"}));
  add_batch_options(*convert, cargs->batch);
  add_json_flag(*convert, cargs->batch.json,
                "Write the input's JSON summary (as --to json); in batch mode, status lines as JSON objects too");
  add_quiet_flag(*convert);
  convert->callback([cargs, convert] {
    const bool batch = batch_mode(cargs->batch);
    // As reduce: --json is the JSON summary, and in batch mode also makes the
    // status lines JSON, so --to may choose another output beside it.
    if (cargs->batch.json && !cargs->to.empty() && cargs->to != "json" && !batch)
      throw CLI::ValidationError("--to", "--json writes the JSON summary; it contradicts --to " + cargs->to);
    const std::string to = !cargs->to.empty() ? cargs->to : cargs->batch.json ? "json" : "dot";
    if (batch) {
      if (convert->count("-o") > 0) refuse_in_batch("-o");
      exit_code = run_batch(cargs->batch, output_extension(to),
                            [&](const std::string& file, const formats::OutputPath& output, std::vector<std::string>& w) {
                              return convert_file(*cargs, to, file, output, &w);
                            });
      return;
    }
    const std::string& file = cargs->batch.files.front();
    check_output(cargs->out, to, input_format_name(file, cargs->in.format), true);
    exit_code = convert_file(*cargs, to, file, cargs->out, nullptr);
  });

  // ---- explain
  auto* explain = app.add_subcommand("explain", "Print the other path that makes the edge SRC -> DST redundant");
  struct ExplainArgs {
    InputFile in;
    std::string src, dst;
    bool json = false;
  };
  auto eargs = std::make_shared<ExplainArgs>();
  explain->add_option("FILE", eargs->in.file, "Input graph")->required();
  explain->add_option("SRC", eargs->src, "Source node name")->required();
  explain->add_option("DST", eargs->dst, "Destination node name")->required();
  add_input_options(*explain, eargs->in, kEveryInputOption);
  add_json_flag(*explain, eargs->json,
                "Print the answer as JSON: src, dst, redundant, why (when kept) and the witness's hops");
  add_quiet_flag(*explain);
  explain->footer("Exit: 0 the edge is redundant (witness printed), 1 reduce keeps it (needed, outside --kinds, or\n"
                  "inside a cycle under --cycles condense), 2 bad input or no such edge.");
  explain->callback([eargs] {
    // The answer is reduce's (same --kinds and --cycles): the edge is
    // redundant iff the reduction removes it, and the witness is made of
    // edges it keeps.
    const ReduceOptions o = reduce_options(eargs->in);
    std::vector<std::string> warnings;
    const formats::Format format = formats::parse_format(eargs->in.format);
    InputGraph input;
    InputReduction ir = eargs->in.impl == "reference"
                            ? oracle_reduce_input(input = formats::reference::read_graph(eargs->in.file, format), o,
                                                  nullptr, warnings)
                            : reduce_input(formats::read_graph(eargs->in.file, format), o, nullptr, &warnings);
    print_warnings(warnings);
    const Graph& g = ir.graph;
    NodeId s = node_named(g, eargs->src), d = node_named(g, eargs->dst);
    const Edge* edge = nullptr;
    for (const Edge& e : g.edges)
      if (e.src == s && e.dst == d) edge = &e;
    const bool self_loop = s == d && std::any_of(g.self_loops.begin(), g.self_loops.end(),
                                                 [&](const Edge& e) { return e.src == s; });
    if (!edge && !self_loop) throw InputError(g.file, 0, "no edge '" + eargs->src + "' -> '" + eargs->dst + "'");
    const bool removed = !self_loop && std::any_of(ir.reduction.removed.begin(), ir.reduction.removed.end(),
                                     [&](const RemovedEdge& x) { return x.src == s && x.dst == d; });
    std::optional<Witness> w;
    if (removed) {
      PathFinder kept(g, ir.reduction);
      w = kept.witness(s, d);
      if (!w) w = kept.find(s, d, Relation::IssuedBefore, true); // condensed components: issue order
    }
    std::string why;
    if (!removed)
      why = self_loop                         ? "it is a self-loop (never a path, never removed)"
            : !is_wait(*edge)                 ? "it carries no WAIT (it orders nothing and is never removed)"
            : !o.filter.admits(*edge)         ? "--kinds " + eargs->in.kinds + " does not admit it"
            : ir.component[s] == ir.component[d] ? "it lies inside a cycle (kept by --cycles condense)"
                                              : "no other path implies it";
    exit_code = removed ? kExitOk : kExitFindings;
    if (eargs->json) {
      nlohmann::ordered_json j;
      j["src"] = eargs->src;
      j["dst"] = eargs->dst;
      j["redundant"] = removed;
      if (!removed) j["why"] = why;
      j["witness"] = nlohmann::ordered_json::array();
      if (w)
        for (const Hop& h : w->hops)
          j["witness"].push_back({{"from", g.nodes[h.from].name}, {"to", g.nodes[h.to].name}, {"hop", hop_text(h.kind)}});
      fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
      return;
    }
    if (!removed) {
      fmt::print("{} -> {} is {}: {}\n", eargs->src, eargs->dst, why == "no other path implies it" ? "needed" : "kept", why);
      return;
    }
    fmt::print("{} -> {} is redundant; witness ({} hops):\n", eargs->src, eargs->dst, w ? w->hops.size() : 0);
    if (w)
      for (const Hop& h : w->hops)
        fmt::print("  {} -> {}  [{}]\n", g.nodes[h.from].name, g.nodes[h.to].name, hop_text(h.kind));
  });
}

} // namespace depreduce::cli
