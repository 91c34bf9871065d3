//===- cli/options.cpp - The options every sub-command shares -----------===//
#include "options.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <utility>

#include "commands.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/formats/reference/dot_reader.hpp"
#include "depreduce/reference/condense.hpp"
#include "depreduce/reference/transitive_reduction.hpp"

namespace depreduce::cli {

bool quiet = false;

void add_input_options(CLI::App& cmd, InputOptions& in, unsigned which) {
  if (which & kFormat)
    cmd.add_option("--format", in.format, "Input format: auto (by extension, then content), dot, stg, wfjson, dax")
        ->check(CLI::IsMember({"auto", "dot", "stg", "wfjson", "dax"}));
  if (which & kCycles)
    cmd.add_option("--cycles", in.cycles,
                   "error (a cycle is bad input) or condense (the strongly connected components of the WAIT edges, "
                   "as reduce condenses them)")
        ->check(CLI::IsMember({"error", "condense"}));
  if (which & kKinds)
    cmd.add_option("--kinds", in.kinds,
                   "Edges a reduction may remove: all, or a list of flow,anti,output,ordered "
                   "(flow = applyReorderReduction; anti,output = applyAntiDependenceReduction); "
                   "edges outside K always count as paths");
  if (which & kImpl)
    cmd.add_option("--impl", in.impl, "Implementation: optimized, or reference (the test oracle)")
        ->check(CLI::IsMember({"optimized", "reference"}));
}

void add_output_option(CLI::App& cmd, std::string& out) {
  cmd.add_option("-o,--output", out, "Output file (written to a temporary, then renamed); - = stdout");
}

void add_json_flag(CLI::App& cmd, bool& json, const std::string& what) { cmd.add_flag("--json", json, what); }

void add_quiet_flag(CLI::App& cmd) {
  cmd.add_flag("-q,--quiet", quiet, "No warnings and no progress bar on stderr (errors still print)");
}

void refuse_repeated_options(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands({}))
    for (CLI::Option* opt : sub->get_options([](const CLI::Option* o) {
           return o->nonpositional() && o->get_items_expected_max() == 1 && o->get_type_size() > 0;
         })) {
      // Validators see every value given, before CLI11 keeps the last one.
      auto seen = std::make_shared<std::vector<std::string>>();
      const std::string name = opt->get_name();
      opt->check(CLI::Validator(
          [seen, name](std::string& value) {
            seen->push_back(value);
            if (seen->size() < 2) return std::string();
            std::string values;
            for (std::size_t i = 0; i < seen->size(); ++i)
              values += (i == 0 ? "'" : i + 1 == seen->size() ? "' and '" : "', '") + (*seen)[i];
            return "given " + std::to_string(seen->size()) + " times, " + values + "'; it takes one value";
          },
          "", "once"));
    }
}

KindFilter parse_filter(const std::string& text) {
  if (text == "all") return KindFilter{};
  auto kinds = parse_kinds(text);
  if (!kinds || kinds->empty())
    throw CLI::ValidationError("--kinds", "expected 'all' or a list of flow, anti, output, ordered");
  return KindFilter{*kinds, false};
}

ReduceOptions reduce_options(const InputOptions& in) {
  ReduceOptions o;
  o.filter = parse_filter(in.kinds);
  o.cycles = in.cycles == "condense" ? CycleMode::Condense : CycleMode::Error;
  return o;
}

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

std::string input_format_name(const std::string& file, const std::string& format) {
  if (format != "auto") return format == "json" ? "wfjson" : format;
  const std::string named = format_of_extension(file);
  return named == "json" ? "wfjson" : named;
}

void check_output(const std::string& path, const std::string& written, const std::string& input_format,
                  bool offers_to) {
  std::string named = format_of_extension(path);
  if (named.empty() && path.size() > 4 && path.compare(path.size() - 4, 4, ".tsv") == 0)
    named = "edges"; // the edge list's own extension (a .txt file may hold anything)
  if (!named.empty() && named != written) {
    std::string what = written == "dot"    ? "DOT (the only graph writer"
                       : written == "json" ? "a JSON summary ("
                       : written == "edges" ? "an edge list ("
                                            : "not a graph (";
    if (written == "dot") // the writer the extension asks for: wfjson for a .json file of a WfCommons input
      what += named == "json" && input_format != "wfjson" ? ")"
              : "; there is no " + (named == "json" ? std::string("wfjson") : named) + " writer)";
    else
      what += written.empty() ? "a program or report)" : "as asked)";
    const char* fits = written == "dot"    ? "a .dot file"
                       : written == "json" ? "a .json file"
                       : written == "edges" ? "a .tsv or .txt file"
                                            : "a file with another extension";
    std::string choose = offers_to ? ", or choose the output with --to" : "";
    throw CLI::ValidationError("-o", "'" + path + "' names " + (named == "edges" ? "an edge-list" : "a " + named) +
                                         " file, but the output is " + what +
                                         "; write to " + fits + " or to -" + choose);
  }
  formats::check_output_path(path);
}

Graph read_carrier(const std::string& file, const InputOptions& in, std::vector<std::string>& warnings,
                   InputGraph* as_read, std::vector<std::uint32_t>* component) {
  const bool reference = in.impl == "reference";
  if (in.cycles != "condense") {
    Graph g = read_model(file, in.format, reference, warnings, as_read);
    if (component) {
      component->resize(g.nodes.size());
      for (std::uint32_t v = 0; v < g.nodes.size(); ++v) (*component)[v] = v;
    }
    return g;
  }
  const formats::Format f = formats::parse_format(in.format);
  InputGraph input = reference ? formats::reference::read_graph(file, f) : formats::read_graph(file, f);
  if (as_read) *as_read = input;
  std::vector<std::uint32_t> own;
  return condensed_carrier(std::move(input), warnings, component ? *component : own);
}

Graph condensed_carrier(InputGraph input, std::vector<std::string>& warnings, std::vector<std::uint32_t>& component) {
  ReduceOptions none;
  none.cycles = CycleMode::Condense;
  none.filter = KindFilter{KindSet{}, false}; // the carrier only: nothing removed
  InputReduction ir = reduce_input(std::move(input), none, nullptr, &warnings);
  component = std::move(ir.component);
  return std::move(ir.graph);
}

std::vector<std::string> differing_components(const Graph& a, const std::vector<std::uint32_t>& comp_a,
                                              const InputGraph& cond_a, const Graph& b,
                                              const std::vector<std::uint32_t>& comp_b, const InputGraph& cond_b) {
  auto component_names = [](const Graph& g, const std::vector<std::uint32_t>& comp, const InputGraph& c) {
    std::map<std::string, std::string> named;
    for (std::uint32_t v = 0; v < g.nodes.size(); ++v) named[g.nodes[v].name] = c.nodes[comp[v]].name;
    return named;
  };
  const auto in_a = component_names(a, comp_a, cond_a), in_b = component_names(b, comp_b, cond_b);
  std::vector<std::string> differ;
  for (const auto& [name, ca] : in_a) {
    auto it = in_b.find(name);
    if (it != in_b.end() && it->second != ca)
      differ.push_back("'" + name + "' is in " + ca + " in " + a.file + ", in " + it->second + " in " + b.file);
  }
  return differ;
}

InputReduction oracle_reduce_input(InputGraph& input, const ReduceOptions& options, ReduceStats* stats,
                                   std::vector<std::string>& warnings) {
  InputReduction ir;
  if (options.cycles != CycleMode::Condense) {
    // The oracle works from the input as read (its own program order,
    // merging and reduction); make_program_order is not involved.
    ir.graph = oracle_graph(input, warnings);
    ir.reduction = reference::reduce(input, options, stats);
    ir.component.resize(ir.graph.nodes.size());
    for (std::uint32_t v = 0; v < ir.graph.nodes.size(); ++v) ir.component[v] = v;
    return ir;
  }
  // The oracle decides (input indices); the merged graph it is applied to
  // is reduce_input()'s.
  const std::vector<RemovedEdge> removed = reference::reduce_condensed(input, options);
  ReduceOptions none = options;
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
            [](const RemovedEdge& a, const RemovedEdge& b) { return a.edge < b.edge; });
  return ir;
}

InputGraph condensation(const InputGraph& input, const Graph& carrier, const std::vector<std::uint32_t>& component) {
  std::uint32_t count = 0;
  for (std::uint32_t c : component) count = std::max(count, c + 1);
  std::vector<std::vector<std::string>> members(count);
  std::vector<std::uint32_t> of_input(input.nodes.size());
  for (std::uint32_t v = 0; v < carrier.nodes.size(); ++v) {
    members[component[v]].push_back(carrier.nodes[v].name);
    of_input[carrier.nodes[v].input_index] = component[v];
  }
  InputGraph c;
  static_cast<GraphHeader&>(c) = static_cast<const GraphHeader&>(carrier);
  c.subgraphs.clear(); // they name the carrier's nodes
  c.nodes.resize(count);
  for (std::uint32_t v = 0; v < carrier.nodes.size(); ++v) {
    Node& n = c.nodes[component[v]];
    if (members[component[v]].size() == 1) {
      n.name = carrier.nodes[v].name;
      n.engine = carrier.nodes[v].engine;
      n.async_window = carrier.nodes[v].async_window;
      n.barrier = carrier.nodes[v].barrier;
      n.line = carrier.nodes[v].line;
    } else if (n.name.empty()) {
      std::vector<std::string>& names = members[component[v]];
      std::sort(names.begin(), names.end());
      n.name = "{";
      for (std::size_t i = 0; i < names.size(); ++i) n.name += (i ? "," : "") + names[i];
      n.name += "}";
      n.line = carrier.nodes[v].line;
    }
  }
  for (std::uint32_t v = 0; v < count; ++v) c.nodes[v].input_index = v;
  for (const Edge& e : input.edges) {
    const std::uint32_t s = of_input[e.src], d = of_input[e.dst];
    // Inside a component; or an edge without WAIT against the condensation's
    // order (it orders nothing, condense.hpp).
    if (s == d || (s > d && !is_wait(e))) continue;
    Edge mapped = e;
    mapped.src = s;
    mapped.dst = d;
    c.edges.push_back(mapped);
  }
  return c;
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

} // namespace depreduce::cli
