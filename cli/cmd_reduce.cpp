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
  print_warnings(own);
  return g;
}

/// The format a file extension names for an output ("dot", "wfjson",
/// "stg", "dax"; "json" for .json, which a JSON summary or WfCommons JSON
/// may fill), or "" for any other extension, none, "-" or a device path.
std::string format_of_extension(const std::string& path) {
  if (path == "-") return "";
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".dot" || ext == ".gv") return "dot";
  if (ext == ".json") return "json";
  if (ext == ".stg") return "stg";
  if (ext == ".xml" || ext == ".dax") return "dax";
  return "";
}

/// SPEC §9, docs/cli.md "Output format": refuses (usage error, exit 64)
/// before anything is read an -o \p path whose extension names another
/// format than \p written ("dot", "json" for a JSON document, "edges"):
/// `reduce wf.json -o wf.red.json` would otherwise fill a .json file with
/// DOT, which `equiv wf.json wf.red.json` then reads as broken JSON. DOT is
/// the only graph writer, so a graph read from WfCommons JSON, STG or DAX is
/// written as DOT.
void check_output_extension(const std::string& path, const std::string& written, const std::string& input_format) {
  const std::string named = format_of_extension(path);
  if (named.empty() || named == written) return;
  std::string what = written == "dot" ? "DOT (the only graph writer"
                     : written == "json" ? "a JSON summary ("
                                         : "an edge list (";
  if (written == "dot")
    what += input_format.empty() || input_format == "dot" ? ")" : "; there is no " + input_format + " writer)";
  else
    what += "as asked)";
  const char* fits = written == "dot" ? "a .dot file" : written == "json" ? "a .json file" : "a .tsv or .txt file";
  throw CLI::ValidationError("-o", "'" + path + "' names a " + named + " file, but the output is " + what +
                                       "; write to " + fits + " or to -, or choose the output with --to");
}

/// The input format name of \p file as read with \p format ("auto" decides
/// by extension, as read_graph does; "" when the content must decide).
std::string input_format_name(const std::string& file, const std::string& format) {
  if (format != "auto") return format == "json" ? "wfjson" : format;
  const std::string named = format_of_extension(file);
  return named == "json" ? "wfjson" : named;
}

KindFilter parse_filter(const std::string& text) {
  if (text == "all") return KindFilter{};
  auto kinds = parse_kinds(text);
  if (!kinds || kinds->empty())
    throw CLI::ValidationError("--kinds", "expected 'all' or a list of flow, anti, output, ordered");
  return KindFilter{*kinds, false};
}

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
  InputOptions in;
  std::string out = "-";
  std::string impl = "optimized";
  std::string kinds = "all";
  std::string mode = "exact";
  std::string cycles = "error";
  bool stats = false;
  bool json = false;
  std::string to; ///< --to: dot, json or edges ("" = json with --json, else dot).
  bool quiet = false;
  BatchArgs batch; ///< FILE... (in.file is the one being read), --out-dir, --files-from.
};

/// The file extension batch mode gives an output written as \p to ("dot",
/// "json", "edges"), the one check_output_extension() accepts for it.
std::string output_extension(const std::string& to) {
  return to == "dot" ? ".dot" : to == "json" ? ".json" : ".tsv";
}

/// One input through `reduce`: \p file read in a.in.format, reduced with
/// \p o, written as \p to ("dot", "json", "edges") to \p output (atomic).
/// Warnings are printed on stderr as they come, or appended to \p collect
/// (batch mode, which also shows no progress bar and frees the graphs).
/// Returns the exit code. \throws InputError on bad input.
int reduce_file(const ReduceArgs& a, const ReduceOptions& o, const std::string& to, const std::string& file,
                const formats::OutputPath& output, std::vector<std::string>* collect) {
  const formats::Format format = formats::parse_format(a.in.format);
  const bool oracle = a.impl == "reference";
  const bool quiet = a.quiet || collect != nullptr;
  // The reference pipeline (SPEC §1) reads with the DOT reader's twin,
  // cgraph; the default one with the one-pass reader, a progress bar over a
  // long read on a terminal.
  std::error_code size_error;
  const auto size = quiet ? 0 : std::filesystem::file_size(file, size_error); // for the bar only
  const auto read_start = std::chrono::steady_clock::now();
  InputGraph input =
      oracle ? formats::reference::read_graph(file, format)
             : formats::read_graph(file, format,
                                   progress_bar("read", !quiet && !size_error && size > (64u << 20)));
  const double read_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - read_start).count();
  ReduceStats s;
  s.progress = progress_bar("reduce", !quiet && input.edges.size() > 1000000);
  std::vector<std::string> warnings;
  InputReduction ir;
  std::optional<Graph> reduced; // set by the reference pipeline, which applies its own decision
  double seconds = 0;
  if (oracle && o.cycles == CycleMode::Condense) {
    // The oracle decides (reference::reduce_condensed, input indices); the
    // merged graph it is applied to is reduce_input()'s.
    auto t0 = std::chrono::steady_clock::now();
    const std::vector<RemovedEdge> removed = reference::reduce_condensed(input, o);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ReduceOptions none = o;
    none.filter = KindFilter{KindSet{}, false}; // the carrier only: nothing removed
    ir = reduce_input(std::move(input), none, nullptr, &warnings);
    std::map<std::pair<NodeId, NodeId>, std::uint32_t> index; // input indices -> edge of ir.graph
    for (std::uint32_t i = 0; i < ir.graph.edges.size(); ++i) {
      const Edge& e = ir.graph.edges[i];
      index[{ir.graph.nodes[e.src].input_index, ir.graph.nodes[e.dst].input_index}] = i;
    }
    for (const RemovedEdge& x : removed) {
      const std::uint32_t i = index.at({x.src, x.dst});
      const Edge& e = ir.graph.edges[i];
      ir.reduction.removed.push_back({e.src, e.dst, e.kinds, e.flags, x.demoted_to_retain, i});
    }
    std::sort(ir.reduction.removed.begin(), ir.reduction.removed.end(),
              [](const RemovedEdge& x, const RemovedEdge& y) { return x.edge < y.edge; });
  } else if (oracle) {
    // The oracle works from the input as read (its own program order,
    // merging and reduction); make_program_order is not involved.
    ir.graph = oracle_graph(input, warnings);
    auto t0 = std::chrono::steady_clock::now();
    ir.reduction = reference::reduce(input, o, &s);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    reduced = reference::apply(input, ir.reduction);
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
  InputOptions in;
  std::string out = "-";
  std::string to = "dot";
  BatchArgs batch; ///< FILE... (in.file is the one being read), --out-dir, --files-from, --json.
};

/// One input through `convert`: \p file read in a.in.format, written as
/// a.to to \p output (atomic). Warnings are printed on stderr, or appended to
/// \p collect (batch mode, which also frees the graph). Returns the exit
/// code. \throws InputError on bad input.
int convert_file(const ConvertArgs& a, const std::string& file, const formats::OutputPath& output,
                 std::vector<std::string>* collect) {
  std::vector<std::string> warnings;
  Graph g = load(InputOptions{file, a.in.format}, &warnings);
  if (a.to == "edges" && !g.self_loops.empty()) { // an edge list carries no self-loops
    warnings.clear();
    warnings.push_back(fmt::format("{}: warning: {} self-loop(s) left out of the edge list", g.file, g.self_loops.size()));
  }
  if (collect) collect->insert(collect->end(), warnings.begin(), warnings.end());
  else print_warnings(warnings);
  formats::AtomicOutput out(output);
  if (a.to == "dot") formats::write_dot(g, out);
  else if (a.to == "json") out.write(formats::write_json_summary(g));
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
  reduce_cmd->add_option("-o,--output", args->out, "Output file (written to a temporary, then renamed); - = stdout");
  reduce_cmd->add_option("--format", args->in.format, "Input format")
      ->check(CLI::IsMember({"auto", "dot", "stg", "wfjson", "dax"}));
  reduce_cmd->add_option("--impl", args->impl, "Implementation")->check(CLI::IsMember({"optimized", "reference"}));
  reduce_cmd->add_option("--kinds", args->kinds,
                         "Edges that may be removed: all, or a list of flow,anti,output,ordered "
                         "(flow = applyReorderReduction; anti,output = applyAntiDependenceReduction)");
  reduce_cmd->add_option("--mode", args->mode, "exact (two-pass) or shipped (the seed's one-pass loop)")
      ->check(CLI::IsMember({"exact", "shipped"}));
  reduce_cmd->add_option("--cycles", args->cycles,
                         "error (a cycle is bad input) or condense (reduce across strongly connected components)")
      ->check(CLI::IsMember({"error", "condense"}));
  reduce_cmd->add_flag("--stats", args->stats,
                       "Print counts and times on stderr (time: model build + reduction; read; write)");
  reduce_cmd->add_flag("--json", args->json,
                       "Write a JSON summary instead of DOT: counts, and every removed edge with its witness");
  reduce_cmd->add_option("--to", args->to,
                         "Output: dot (the reduced graph, the default), json (as --json) or edges (the reduced "
                         "graph's edges, one 'src<TAB>dst' line per merged edge)")
      ->check(CLI::IsMember({"dot", "json", "edges"}));
  add_batch_options(*reduce_cmd, args->batch);
  reduce_cmd->add_flag("-q,--quiet", args->quiet, "No progress bar (shown on a terminal for inputs over 10^6 edges)");
  reduce_cmd->callback([args, reduce_cmd] {
    ReduceOptions o;
    o.filter = parse_filter(args->kinds);
    o.mode = args->mode == "shipped" ? ReductionMode::Shipped : ReductionMode::Exact;
    if (args->impl == "reference" && o.mode == ReductionMode::Shipped)
      throw CLI::ValidationError("--mode", "the reference implements the exact mode only");
    o.cycles = args->cycles == "condense" ? CycleMode::Condense : CycleMode::Error;
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
    check_output_extension(args->out, to, input_format_name(file, args->in.format));
    formats::check_output_path(args->out);
    exit_code = reduce_file(*args, o, to, file, args->out, nullptr);
  });

  // ---- convert
  auto* convert = app.add_subcommand("convert", "Read any supported graph and write it as DOT, a JSON summary or an edge list");
  auto cargs = std::make_shared<ConvertArgs>();
  convert->add_option("FILE", cargs->batch.files, "Input graph; several with --out-dir");
  convert->add_option("-o,--output", cargs->out, "Output file (atomic); - = stdout");
  convert->add_option("--format", cargs->in.format, "Input format")
      ->check(CLI::IsMember({"auto", "dot", "stg", "wfjson", "dax"}));
  convert->add_option("--to", cargs->to, "dot, json or edges (one 'src<TAB>dst' line per merged edge)")
      ->check(CLI::IsMember({"dot", "json", "edges"}));
  add_batch_options(*convert, cargs->batch);
  convert->add_flag("--json", cargs->batch.json, "Batch mode: status lines as JSON objects, one per line");
  convert->callback([cargs, convert] {
    if (batch_mode(cargs->batch)) {
      if (convert->count("-o") > 0) refuse_in_batch("-o");
      exit_code = run_batch(cargs->batch, output_extension(cargs->to),
                            [&](const std::string& file, const formats::OutputPath& output, std::vector<std::string>& w) {
                              return convert_file(*cargs, file, output, &w);
                            });
      return;
    }
    if (cargs->batch.json)
      throw CLI::ValidationError("--json", "makes batch mode's status lines JSON; give --out-dir, or --to json for a JSON summary");
    const std::string& file = cargs->batch.files.front();
    check_output_extension(cargs->out, cargs->to, input_format_name(file, cargs->in.format));
    formats::check_output_path(cargs->out);
    exit_code = convert_file(*cargs, file, cargs->out, nullptr);
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
    // Prefer a path the reduction keeps, so the witness reads next to the
    // reduced output; find_kept_witness() is empty iff needed.
    auto w = find_kept_witness(g, s, d);
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
