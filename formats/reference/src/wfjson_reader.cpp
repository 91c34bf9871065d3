//===- formats/reference/src/wfjson_reader.cpp - WfFormat via nlohmann ---===//
///
/// \file
/// REFERENCE READER: the twin of formats::read_wfjson() (formats/src/
/// wfjson_reader.cpp), the nlohmann-json reader that was formats::
/// read_wfjson() before the one-pass reader replaced it. nlohmann builds the
/// DOM and decides what is JSON; the checks below are the old reader's, in
/// its order. What changed to make it a twin (docs/formats.md, "WfCommons"):
///  * lines: a task's line is the line of its (last) `"id"` key, taken from
///    the parse itself (a counting iterator tells how far nlohmann has read
///    when it reports the key), not from a text search for `"id": "<value>"`
///    (which missed escaped ids and could hit a `files[]` or `execution` id);
///  * every nlohmann exception is an InputError with a line, also the number
///    overflow (out_of_range.406, `1e999`), which escaped before;
///  * every WfFormat error has a line, taken from the parse the
///    same way: a value of the wrong kind, the line of its (last) key; a
///    missing key, the line where the object lacking it starts (a task
///    without an `id`: its '{'); a task that is not an object, the line where
///    it starts; every other error of a task, the task's line.
//===----------------------------------------------------------------------===//
#include <nlohmann/json.hpp>

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../../src/internal.hpp"
#include "depreduce/formats/reference/wfjson_reader.hpp"

namespace depreduce::formats::reference {
namespace {

using detail::show;
using json = nlohmann::json;

/// A `const char*` that publishes how far it has been advanced: nlohmann
/// reads its input one byte at a time through this, so `*read` is the offset
/// just past the last byte the lexer has taken.
struct CountingIterator {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  const char* p = nullptr;
  const char** read = nullptr;
  reference operator*() const { return *p; }
  CountingIterator& operator++() {
    *read = ++p;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator old = *this;
    ++*this;
    return old;
  }
  friend bool operator==(const CountingIterator& a, const CountingIterator& b) { return a.p == b.p; }
};

/// nlohmann's own DOM builder, plus the positions nlohmann does not keep:
/// where each `workflow.specification.tasks[i]` has its `"id"` key (the last
/// one, as the DOM keeps the last value of a duplicate key), where the values
/// and keys the WfFormat errors name are (again the last of a duplicate key),
/// and where an error was reported. Positions are offsets just past the last
/// byte the lexer took: past a key's closing quote, past a '{' or '[', past a
/// string or literal, or one byte past a number (its lookahead, on the
/// number's line unless it is the end); the byte before is on the line.
class PositionSax {
public:
  PositionSax(json& doc, const char* begin, const char* const& read) : dom_(doc), begin_(begin), read_(read) {}

  std::unordered_map<std::size_t, std::size_t> id_key_end; ///< task index -> offset past its "id" key
  std::unordered_map<std::size_t, std::size_t> task_end;   ///< task index -> offset past its first token
  std::size_t top = 0;            ///< Offset past the top-level value's first token.
  std::size_t workflow_key = 0;   ///< Past the "workflow" key (top level).
  std::size_t workflow = 0;       ///< Past the first token of workflow's value.
  std::size_t workflow_tasks_key = 0; ///< Past "tasks" in workflow (schema 1.4).
  std::size_t spec_key = 0;       ///< Past "specification" in workflow.
  std::size_t spec = 0;           ///< Past the first token of workflow.specification's value.
  std::size_t tasks_key = 0;      ///< Past "tasks" in workflow.specification.
  std::size_t error_position = 0; ///< nlohmann's byte count at the error

  bool null() { return value(), dom_.null(); }
  bool boolean(bool v) { return value(), dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return value(), dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return value(), dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const std::string& s) { return value(), dom_.number_float(v, s); }
  bool string(std::string& v) { return value(), dom_.string(v); }
  bool binary(json::binary_t& v) { return value(), dom_.binary(v); }
  bool start_object(std::size_t n) {
    value();
    stack_.push_back({true, {}, 0});
    return dom_.start_object(n);
  }
  bool start_array(std::size_t n) {
    value();
    stack_.push_back({false, {}, 0});
    return dom_.start_array(n);
  }
  bool end_object() {
    stack_.pop_back();
    return dom_.end_object();
  }
  bool end_array() {
    stack_.pop_back();
    return dom_.end_array();
  }
  bool key(std::string& k) {
    stack_.back().key = k;
    const std::size_t at = here();
    if (stack_.size() == 1 && stack_[0].object && k == "workflow") workflow_key = at;
    if (in({"workflow"}) && stack_.size() == 2) {
      if (k == "specification") spec_key = at;
      if (k == "tasks") workflow_tasks_key = at;
    }
    if (in({"workflow", "specification"}) && stack_.size() == 3 && k == "tasks") tasks_key = at;
    // A task object: depth 5 on the path workflow / specification / tasks / [i].
    if (k == "id" && stack_.size() == 5 && stack_[0].object && stack_[0].key == "workflow" && stack_[1].object &&
        stack_[1].key == "specification" && stack_[2].object && stack_[2].key == "tasks" && !stack_[3].object)
      id_key_end[stack_[3].count - 1] = static_cast<std::size_t>(read_ - begin_);
    return dom_.key(k);
  }
  template <class Exception> bool parse_error(std::size_t position, const std::string& token, const Exception& ex) {
    error_position = position;
    return dom_.parse_error(position, token, ex);
  }

private:
  struct Frame {
    bool object;
    std::string key;       ///< Objects: the key whose value is being read.
    std::size_t count = 0; ///< Arrays: elements begun so far.
  };
  std::size_t here() const { return static_cast<std::size_t>(read_ - begin_); }
  /// True iff the open objects from the top level are entered through \p keys.
  bool in(std::initializer_list<const char*> keys) const {
    if (stack_.size() < keys.size()) return false;
    std::size_t d = 0;
    for (const char* k : keys) {
      if (!stack_[d].object || stack_[d].key != k) return false;
      ++d;
    }
    return true;
  }
  /// A value begins (its first token has just been read).
  void value() {
    if (!stack_.empty() && !stack_.back().object) ++stack_.back().count;
    const std::size_t at = here();
    if (stack_.empty()) top = at;
    if (stack_.size() == 1 && in({"workflow"})) workflow = at;
    if (stack_.size() == 2 && in({"workflow", "specification"})) spec = at;
    if (stack_.size() == 4 && in({"workflow", "specification", "tasks"}) && !stack_[3].object)
      task_end[stack_[3].count - 1] = at;
  }
  nlohmann::detail::json_sax_dom_parser<json> dom_;
  const char* begin_;
  const char* const& read_;
  std::vector<Frame> stack_;
};

const json& member(const json& obj, const char* key, const std::string& path, const std::string& file,
                   std::uint32_t line) {
  auto it = obj.find(key);
  if (it == obj.end()) throw InputError(file, line, "missing key '" + path + "'");
  return *it;
}

} // namespace

InputGraph read_wfjson(std::string_view text, const std::string& file) {
  json doc;
  const char* read = text.data();
  PositionSax sax(doc, text.data(), read);
  try {
    json::sax_parse(CountingIterator{text.data(), &read}, CountingIterator{text.data() + text.size(), &read}, &sax);
  } catch (const json::exception& e) {
    std::size_t byte = sax.error_position > 0 ? sax.error_position - 1 : 0;
    std::uint32_t line = detail::LineMap(text).line_of(std::min(byte, text.size()));
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 3, column 5: ..."
    if (std::size_t c = what.find("] "); c != std::string::npos) what = what.substr(c + 2);
    throw InputError(file, line, "JSON " + what);
  }

  InputGraph g;
  g.file = file;
  // THE RULE of the lines: a value of the wrong kind is reported at its
  // (last) key's line, a missing key at the line where the object lacking it
  // starts; `at(p)` is the line of the byte before offset p (see PositionSax).
  const detail::LineMap lines(text);
  auto at = [&](std::size_t p) -> std::uint32_t { return lines.line_of(p > 0 ? p - 1 : 0); };
  if (!doc.is_object()) throw InputError(file, at(sax.top), "expected a JSON object (WfFormat) at the top level");
  if (auto n = doc.find("name"); n != doc.end() && n->is_string()) g.name = n->get<std::string>();
  if (!doc.contains("workflow"))
    throw InputError(file, at(sax.top),
                     "missing key 'workflow' (a WfCommons workflow, WfFormat 1.5, has one; window-report "
                     "also reads deps.json: top-level \"tasks\" and \"edges\" arrays)");
  const json& wf = doc["workflow"];
  if (!wf.is_object()) throw InputError(file, at(sax.workflow_key), "'workflow' must be an object");
  if (!wf.contains("specification") && wf.contains("tasks"))
    throw InputError(file, at(sax.workflow_tasks_key),
                     "WfFormat schema 1.4 (workflow.tasks) is not supported; expected schema 1.5 "
                     "(workflow.specification.tasks)");
  const json& spec = member(wf, "specification", "workflow.specification", file, at(sax.workflow));
  if (!spec.is_object()) throw InputError(file, at(sax.spec_key), "'workflow.specification' must be an object");
  const json& tasks = member(spec, "tasks", "workflow.specification.tasks", file, at(sax.spec));
  if (!tasks.is_array()) throw InputError(file, at(sax.tasks_key), "'workflow.specification.tasks' must be an array");

  // A task's line: the line of its (last) "id" key; before it has one, the
  // line where the task starts.
  auto line_of_task = [&](std::size_t i) -> std::uint32_t {
    auto it = sax.id_key_end.find(i);
    return it == sax.id_key_end.end() ? 0 : at(it->second);
  };
  auto start_of_task = [&](std::size_t i) -> std::uint32_t { return at(sax.task_end.at(i)); };

  // Pass 1: nodes.
  std::unordered_map<std::string, NodeId> index;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const json& t = tasks[i];
    std::string where = "workflow.specification.tasks[" + std::to_string(i) + "]";
    if (!t.is_object()) throw InputError(file, start_of_task(i), where + " must be an object");
    const json& id = member(t, "id", where + ".id", file, start_of_task(i));
    if (!id.is_string()) throw InputError(file, line_of_task(i), where + ".id must be a string");
    Node node;
    node.name = id.get<std::string>();
    node.line = line_of_task(i);
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

} // namespace depreduce::formats::reference
