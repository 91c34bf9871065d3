//===- formats/src/wfjson_reader.cpp - WfCommons WfFormat JSON -----------===//
///
/// \file
/// Schema 1.5: `workflow.specification.tasks[]`, each with `id`, `name`,
/// `parents`, `children`. Runtimes (`workflow.execution`) are not read.
//===----------------------------------------------------------------------===//
#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "depreduce/formats/formats.hpp"
#include "internal.hpp"

namespace depreduce::formats {
namespace {

using detail::show;
using json = nlohmann::json;

/// Line of the first `"id" : "<value>"` for every value in the text
/// (nlohmann keeps no positions). Ids needing JSON escapes are not found.
std::unordered_map<std::string, std::uint32_t> id_lines(std::string_view text) {
  std::unordered_map<std::string, std::uint32_t> out;
  detail::LineMap lines(text);
  static constexpr std::string_view kKey = "\"id\"";
  std::size_t pos = 0;
  while ((pos = text.find(kKey, pos)) != std::string_view::npos) {
    std::size_t at = pos;
    pos += kKey.size();
    std::size_t i = pos;
    while (i < text.size() && detail::is_space(text[i])) ++i;
    if (i >= text.size() || text[i] != ':') continue;
    ++i;
    while (i < text.size() && detail::is_space(text[i])) ++i;
    if (i >= text.size() || text[i] != '"') continue;
    std::size_t s = ++i;
    while (i < text.size() && text[i] != '"' && text[i] != '\\') ++i;
    if (i >= text.size() || text[i] != '"') continue;
    out.emplace(std::string(text.substr(s, i - s)), lines.line_of(at));
  }
  return out;
}

const json& member(const json& obj, const char* key, const std::string& path, const std::string& file,
                   std::uint32_t line) {
  auto it = obj.find(key);
  if (it == obj.end()) throw InputError(file, line, "missing key '" + path + "'");
  return *it;
}

} // namespace

InputGraph read_wfjson(std::string_view text, const std::string& file) {
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    std::size_t byte = e.byte > 0 ? e.byte - 1 : 0;
    std::uint32_t line = detail::LineMap(text).line_of(std::min(byte, text.size()));
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 3, column 5: ..."
    if (std::size_t c = what.find("] "); c != std::string::npos) what = what.substr(c + 2);
    throw InputError(file, line, "JSON " + what);
  }

  InputGraph g;
  g.file = file;
  if (!doc.is_object()) throw InputError(file, 1, "expected a JSON object (WfFormat) at the top level");
  if (auto n = doc.find("name"); n != doc.end() && n->is_string()) g.name = n->get<std::string>();
  if (!doc.contains("workflow"))
    throw InputError(file, 1,
                     "missing key 'workflow' (a WfCommons workflow, WfFormat 1.5, has one; window-report "
                     "also reads deps.json: top-level \"tasks\" and \"edges\" arrays)");
  const json& wf = doc["workflow"];
  if (!wf.is_object()) throw InputError(file, 1, "'workflow' must be an object");
  if (!wf.contains("specification") && wf.contains("tasks"))
    throw InputError(file, 1,
                     "WfFormat schema 1.4 (workflow.tasks) is not supported; expected schema 1.5 "
                     "(workflow.specification.tasks)");
  const json& spec = member(wf, "specification", "workflow.specification", file, 1);
  if (!spec.is_object()) throw InputError(file, 1, "'workflow.specification' must be an object");
  const json& tasks = member(spec, "tasks", "workflow.specification.tasks", file, 1);
  if (!tasks.is_array()) throw InputError(file, 1, "'workflow.specification.tasks' must be an array");

  const auto lines = id_lines(text);
  auto line_of = [&](const std::string& id) -> std::uint32_t {
    auto it = lines.find(id);
    return it == lines.end() ? 0 : it->second;
  };

  // Pass 1: nodes.
  std::unordered_map<std::string, NodeId> index;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const json& t = tasks[i];
    std::string where = "workflow.specification.tasks[" + std::to_string(i) + "]";
    if (!t.is_object()) throw InputError(file, 0, where + " must be an object");
    const json& id = member(t, "id", where + ".id", file, 0);
    if (!id.is_string()) throw InputError(file, 0, where + ".id must be a string");
    Node node;
    node.name = id.get<std::string>();
    node.line = line_of(node.name);
    node.input_index = static_cast<std::uint32_t>(g.nodes.size());
    if (auto nm = t.find("name"); nm != t.end()) {
      if (!nm->is_string()) throw InputError(file, node.line, "task " + show(node.name) + ": 'name' must be a string");
      if (nm->get_ref<const std::string&>() != node.name) node.attrs.emplace_back("label", nm->get<std::string>());
    }
    if (!index.emplace(node.name, node.input_index).second)
      throw InputError(file, node.line, "duplicate task id " + show(node.name));
    g.nodes.push_back(std::move(node));
  }

  // Pass 2: edges from parents; children must agree.
  auto id_list = [&](const json& t, const char* key, const Node& node, bool required) {
    std::vector<NodeId> out;
    auto it = t.find(key);
    if (it == t.end()) {
      if (required) throw InputError(file, node.line, "task " + show(node.name) + ": missing key '" + key + "'");
      return out;
    }
    if (!it->is_array()) throw InputError(file, node.line, "task " + show(node.name) + ": '" + key + "' must be an array");
    for (const json& p : *it) {
      if (!p.is_string())
        throw InputError(file, node.line, "task " + show(node.name) + ": '" + key + "' must list task ids (strings)");
      auto f = index.find(p.get_ref<const std::string&>());
      if (f == index.end())
        throw InputError(file, node.line, "task " + show(node.name) + ": " + (key[0] == 'p' ? "parent " : "child ") +
                                              show(p.get_ref<const std::string&>()) + " is not a task id");
      out.push_back(f->second);
    }
    return out;
  };
  std::set<std::pair<NodeId, NodeId>> from_parents, from_children;
  bool any_children = false;
  std::vector<bool> has_children(g.nodes.size(), false);
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const Node& node = g.nodes[i];
    for (NodeId p : id_list(tasks[i], "parents", node, true)) {
      Edge e;
      e.src = p;
      e.dst = static_cast<NodeId>(i);
      e.line = node.line;
      e.input_index = static_cast<std::uint32_t>(g.edges.size());
      g.edges.push_back(std::move(e));
      from_parents.emplace(p, static_cast<NodeId>(i));
    }
    if (tasks[i].contains("children")) {
      any_children = true;
      has_children[i] = true;
      for (NodeId c : id_list(tasks[i], "children", node, false)) from_children.emplace(static_cast<NodeId>(i), c);
    }
  }
  if (any_children) {
    for (auto [p, c] : from_parents)
      if (has_children[p] && !from_children.count({p, c}))
        throw InputError(file, g.nodes[c].line,
                         "task " + show(g.nodes[c].name) + " lists parent " + show(g.nodes[p].name) + ", but " +
                             show(g.nodes[p].name) + " does not list it among its children");
    for (auto [p, c] : from_children)
      if (!from_parents.count({p, c}))
        throw InputError(file, g.nodes[p].line,
                         "task " + show(g.nodes[p].name) + " lists child " + show(g.nodes[c].name) + ", but " +
                             show(g.nodes[c].name) + " does not list it among its parents");
  }
  return g;
}

} // namespace depreduce::formats
