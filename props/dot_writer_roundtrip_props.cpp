//===- dot_writer_roundtrip_props.cpp - Non-DOT readers' graphs as DOT ----===//
///
/// A graph read from WfCommons JSON, Pegasus DAX or STG text and
/// written as DOT reads back as the same graph (fuzz/dot_roundtrip.hpp says
/// what "the same" is). The texts are written here from generated graphs
/// whose names and labels are short strings over an alphabet heavy in the
/// bytes DOT quoting must handle: backslashes (runs of them at the end: a
/// WfCommons task named `C:\tmp\`), quotes, newlines, angle brackets, '&'.
/// fuzz_dot_writer_roundtrip does the same from arbitrary bytes.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

#include "depreduce/formats/formats.hpp"
#include "dot_roundtrip.hpp"

namespace depreduce {
namespace {

/// A name of 1-5 bytes, heavy in what quoting changes; \p nul allows NUL.
rc::Gen<std::string> tricky_text(bool nul) {
  std::vector<char> alphabet = {'\\', '\\', '\\', '"', '\n', '<', '>', '&', 'a', 'b', ' ', ':'};
  if (nul) alphabet.push_back('\0');
  return rc::gen::container<std::string>(*rc::gen::inRange(1, 6), rc::gen::elementOf(alphabet));
}

/// \p n distinct names (an index in front keeps them apart and leaves the
/// generated end, the backslash runs, where it is).
std::vector<std::string> names(std::size_t n, bool nul) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(std::to_string(i) + *tricky_text(nul));
  return out;
}

/// Edges i -> j (i < j) of a random DAG on \p n nodes.
std::vector<std::pair<std::size_t, std::size_t>> dag_edges(std::size_t n) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t j = 1; j < n; ++j)
    for (std::size_t i = 0; i < j; ++i)
      if (*rc::gen::inRange(0, 3) == 0) out.emplace_back(i, j);
  return out;
}

std::string xml_escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else if (c == '\n') out += "&#10;";
    else out += c;
  }
  return out;
}

/// Checks the round trip of what \p text reads as (\p format).
void check(const std::string& text, formats::Format format) {
  RC_LOG() << "input:\n" << text << "\n";
  const Graph g = make_program_order(formats::read_graph_text(text, "-", format));
  const std::string dot = formats::write_dot(g);
  RC_LOG() << "written DOT:\n" << dot << "\n";
  const auto why = formats::dot_roundtrip_mismatch(g, dot);
  RC_LOG() << (why ? *why : std::string("same graph")) << "\n";
  RC_ASSERT(!why.has_value());
}

RC_GTEST_PROP(DotWriterRoundTrip, WfCommonsJsonReadsBackAsTheSameGraph, ()) {
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 9);
  const auto ids = names(n, true);
  const auto labels = names(n, true);
  const auto edges = dag_edges(n);
  nlohmann::json tasks = nlohmann::json::array();
  for (std::size_t i = 0; i < n; ++i) {
    nlohmann::json parents = nlohmann::json::array(), children = nlohmann::json::array();
    for (const auto& [a, b] : edges) {
      if (b == i) parents.push_back(ids[a]);
      if (a == i) children.push_back(ids[b]);
    }
    // Half the tasks carry the generated label, the others their id (no label attribute).
    const bool labelled = *rc::gen::arbitrary<bool>();
    tasks.push_back({{"name", labelled ? labels[i] : ids[i]}, {"id", ids[i]}, {"parents", parents},
                     {"children", children}});
  }
  const nlohmann::json doc = {{"name", *tricky_text(false)},
                              {"schemaVersion", "1.5"},
                              {"workflow", {{"specification", {{"tasks", tasks}}}, {"execution", {{"tasks", nlohmann::json::array()}}}}}};
  check(doc.dump(1), formats::Format::WfJson);
}

RC_GTEST_PROP(DotWriterRoundTrip, PegasusDaxReadsBackAsTheSameGraph, ()) {
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 9);
  const auto ids = names(n, false);
  const auto edges = dag_edges(n);
  std::string text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<adag name=\"" + xml_escaped(*tricky_text(false)) + "\">\n";
  for (std::size_t i = 0; i < n; ++i)
    text += "  <job id=\"" + xml_escaped(ids[i]) + "\" name=\"" + xml_escaped(*tricky_text(false)) +
            "\" namespace=\"" + xml_escaped(*tricky_text(false)) + "\" runtime=\"" +
            std::to_string(*rc::gen::inRange(0, 100)) + "\"/>\n";
  for (std::size_t j = 0; j < n; ++j) {
    std::string parents;
    for (const auto& [a, b] : edges)
      if (b == j) parents += "<parent ref=\"" + xml_escaped(ids[a]) + "\"/>";
    if (!parents.empty()) text += "  <child ref=\"" + xml_escaped(ids[j]) + "\">" + parents + "</child>\n";
  }
  check(text + "</adag>\n", formats::Format::Dax);
}

RC_GTEST_PROP(DotWriterRoundTrip, StgReadsBackAsTheSameGraph, ()) {
  // Ids are numbers; what varies is the shape and the weights (attribute `weight`).
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 12);
  const auto edges = dag_edges(n + 2); // tasks 0..n+1, the two dummies included
  std::string text = std::to_string(n) + "\n";
  for (std::size_t j = 0; j < n + 2; ++j) {
    std::vector<std::size_t> preds;
    for (const auto& [a, b] : edges)
      if (b == j) preds.push_back(a);
    text += std::to_string(j) + " " + std::to_string(*rc::gen::inRange(0, 1000)) + " " + std::to_string(preds.size());
    for (std::size_t p : preds) text += " " + std::to_string(p);
    text += "\n";
  }
  check(text, formats::Format::Stg);
}

} // namespace
} // namespace depreduce
