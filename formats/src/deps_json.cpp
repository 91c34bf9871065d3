//===- deps_json.cpp - deps.json and DAG files as task streams ------------===//
///
/// \file
/// nlohmann-json validates and parses the document; a small structural
/// scanner over the same text finds the line on which each element of
/// `tasks` and `edges` starts, so every error names a line (nlohmann 3.11
/// keeps no positions in its values).
//===----------------------------------------------------------------------===//
#include "depreduce/formats/deps_json.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <optional>
#include <unordered_map>
#include <utility>

#include <nlohmann/json.hpp>

#include "depreduce/formats/formats.hpp"

namespace depreduce::formats {

namespace {

using nlohmann::json;

/// Walks well-formed JSON text (already accepted by nlohmann) and returns the
/// line on which each element of the top-level array member \p key starts.
/// Iterative, so deep nesting cannot overflow the stack.
class LineScanner {
public:
  explicit LineScanner(std::string_view text) : t_(text) {}

  std::vector<std::uint32_t> element_lines(std::string_view key) {
    std::vector<std::uint32_t> lines;
    p_ = 0;
    line_ = 1;
    ws();
    if (!at('{')) return lines;
    ++p_;
    for (;;) {
      ws();
      if (!at('"')) return lines; // '}' or end
      const std::string k = string();
      ws();
      if (at(':')) ++p_;
      ws();
      if (k == key && at('[')) {
        lines.clear(); // a repeated key: nlohmann keeps the last one
        ++p_;
        for (;;) {
          ws();
          if (p_ >= t_.size() || at(']')) break;
          lines.push_back(line_);
          skip_value();
          ws();
          if (at(',')) ++p_;
        }
        if (at(']')) ++p_;
      } else {
        skip_value();
      }
      ws();
      if (at(',')) ++p_;
      else return lines;
    }
  }

private:
  bool at(char c) const { return p_ < t_.size() && t_[p_] == c; }
  void ws() {
    while (p_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[p_]))) {
      if (t_[p_] == '\n') ++line_;
      ++p_;
    }
  }
  /// At '"': returns the raw content (escapes kept as written) and moves past it.
  std::string string() {
    std::string out;
    ++p_;
    while (p_ < t_.size() && t_[p_] != '"') {
      if (t_[p_] == '\\' && p_ + 1 < t_.size()) out += t_[p_++];
      out += t_[p_++];
    }
    ++p_;
    return out;
  }
  void skip_value() {
    if (at('"')) { string(); return; }
    if (!at('{') && !at('[')) { // number, true, false, null
      while (p_ < t_.size() && !std::strchr(",]} \t\r\n", t_[p_])) ++p_;
      return;
    }
    std::size_t depth = 0;
    while (p_ < t_.size()) {
      const char c = t_[p_];
      if (c == '"') { string(); continue; }
      if (c == '\n') ++line_;
      ++p_;
      if (c == '{' || c == '[') ++depth;
      else if ((c == '}' || c == ']') && --depth == 0) return;
    }
  }

  std::string_view t_;
  std::size_t p_ = 0;
  std::uint32_t line_ = 1;
};

std::uint32_t line_of_byte(std::string_view text, std::size_t byte) {
  byte = std::min(byte, text.size());
  return 1 + static_cast<std::uint32_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(byte), '\n'));
}

/// A 64-bit unsigned value written as a JSON integer or as a string of one
/// (decimal, or hex with 0x). std::nullopt otherwise.
std::optional<std::uint64_t> as_u64(const json& v) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer()) {
    const auto x = v.get<std::int64_t>();
    if (x < 0) return std::nullopt;
    return static_cast<std::uint64_t>(x);
  }
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  std::string_view digits = s;
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    digits.remove_prefix(2);
    base = 16;
  }
  if (digits.empty()) return std::nullopt;
  std::uint64_t out = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out, base);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return out;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string dump_short(const json& v) {
  std::string s = v.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

} // namespace

bool looks_like_deps_json(std::string_view text) noexcept {
  try {
    const json doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    // A `tasks` or `edges` array without WfCommons' `workflow` object is a
    // deps.json, even when one of the two is missing: read_deps_json() then
    // names what is missing instead of the WfCommons reader asking for `workflow`.
    if (!doc.is_object() || doc.contains("workflow")) return false;
    return (doc.contains("tasks") && doc["tasks"].is_array()) || (doc.contains("edges") && doc["edges"].is_array());
  } catch (...) {
    return false;
  }
}

WindowTrace read_deps_json(std::string_view text, const std::string& file, const DepsJsonOptions& options) {
  if (options.slots_per_ring == 0) throw InputError(file, 0, "slots per ring must be at least 1");
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    if (auto colon = what.find(": "); what.rfind("[json.exception", 0) == 0 && colon != std::string::npos)
      what = what.substr(colon + 2);
    throw InputError(file, line_of_byte(text, e.byte == 0 ? 0 : e.byte - 1), "malformed JSON: " + what);
  }
  if (!doc.is_object()) throw InputError(file, 1, "deps.json must be a JSON object with \"tasks\" and \"edges\"");
  for (const char* key : {"tasks", "edges"})
    if (!doc.contains(key) || !doc[key].is_array())
      throw InputError(file, 1, std::string("deps.json has no \"") + key + "\" array");

  LineScanner scan(text);
  const std::vector<std::uint32_t> task_lines = scan.element_lines("tasks");
  const std::vector<std::uint32_t> edge_lines = scan.element_lines("edges");
  auto line_at = [](const std::vector<std::uint32_t>& lines, std::size_t i) -> std::uint32_t {
    return i < lines.size() ? lines[i] : 0;
  };

  WindowTrace out;
  out.file = file;
  out.geometry.slots_per_ring = options.slots_per_ring;
  std::uint32_t max_ring = 0;
  std::unordered_map<std::uint64_t, std::size_t> position; // task_id -> record position
  const json& tasks = doc["tasks"];
  out.stream.reserve(tasks.size());
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const std::uint32_t line = line_at(task_lines, i);
    const json& t = tasks[i];
    if (!t.is_object() || !t.contains("task_id"))
      throw InputError(file, line, "task " + std::to_string(i) + " has no \"task_id\"");
    const auto id = as_u64(t["task_id"]);
    if (!id)
      throw InputError(file, line,
                       "task_id " + dump_short(t["task_id"]) +
                           " is not an unsigned 64-bit integer (write large ids as strings)");
    if (!position.emplace(*id, i).second)
      throw InputError(file, line,
                       "duplicate task_id " + std::to_string(*id) + " (first at line " +
                           std::to_string(line_at(task_lines, position[*id])) + ")");
    const std::uint32_t ring = task_ring(*id), local = task_slot(*id);
    if ((static_cast<std::uint64_t>(ring) + 1) * options.slots_per_ring > kMaxWindowSlots)
      throw InputError(file, line,
                       "task_id " + std::to_string(*id) + " is on ring " + std::to_string(ring) +
                           ": too many rings for " + std::to_string(options.slots_per_ring) + " slots per ring");
    max_ring = std::max(max_ring, ring);
    TaskRecord rec;
    rec.id = make_task_id(ring, local % options.slots_per_ring);
    rec.generation = local / options.slots_per_ring;
    out.stream.push_back(std::move(rec));
    out.names.push_back(std::to_string(*id));
    out.lines.push_back(line);
  }
  out.geometry.rings = max_ring + 1;

  const json& edges = doc["edges"];
  std::size_t self_loops = 0;
  for (std::size_t k = 0; k < edges.size(); ++k) {
    const std::uint32_t line = line_at(edge_lines, k);
    const json& e = edges[k];
    if (!e.is_object()) throw InputError(file, line, "edge " + std::to_string(k) + " is not an object");
    std::size_t ends[2];
    const char* names[2] = {"pred", "succ"};
    for (int j = 0; j < 2; ++j) {
      if (!e.contains(names[j])) throw InputError(file, line, std::string("edge has no \"") + names[j] + "\"");
      const auto id = as_u64(e[names[j]]);
      if (!id)
        throw InputError(file, line,
                         std::string(names[j]) + " " + dump_short(e[names[j]]) +
                             " is not an unsigned 64-bit integer (write large ids as strings)");
      const auto it = position.find(*id);
      if (it == position.end())
        throw InputError(file, line, std::string(names[j]) + " " + std::to_string(*id) + " is not a task in \"tasks\"");
      ends[j] = it->second;
    }
    if (ends[0] == ends[1]) {
      ++self_loops;
      continue;
    }
    if (ends[0] > ends[1])
      throw InputError(file, line,
                       "edge " + out.names[ends[0]] + " -> " + out.names[ends[1]] +
                           " goes against submission order (pred is submitted after succ)");
    Candidate c;
    c.producer = out.stream[ends[0]].id;
    c.generation = out.stream[ends[0]].generation;
    c.source = DepSource::Explicit;
    if (e.contains("source")) {
      if (!e["source"].is_string()) throw InputError(file, line, "\"source\" must be a string");
      const std::string s = lower(e["source"].get<std::string>());
      if (s == "creator") c.source = DepSource::Creator;
      else if (s == "tensormap" || s == "tensor_map") c.source = DepSource::TensorMap;
      else if (s == "explicit") c.source = DepSource::Explicit;
      else throw InputError(file, line, "unknown source \"" + s + "\" (explicit, creator or tensormap)");
    }
    if (e.contains("flags")) {
      const json& f = e["flags"];
      FlagSet flags;
      auto add = [&](const std::string& name) {
        const auto parsed = parse_flags(name);
        if (!parsed) throw InputError(file, line, "unknown flag \"" + name + "\" (wait, retain)");
        flags |= *parsed;
      };
      if (f.is_string()) {
        add(f.get<std::string>());
      } else if (f.is_array()) {
        for (const json& x : f) {
          if (!x.is_string()) throw InputError(file, line, "\"flags\" must hold strings");
          add(x.get<std::string>());
        }
      } else {
        throw InputError(file, line, "\"flags\" must be a list of strings");
      }
      c.flags = flags;
    }
    out.stream[ends[1]].candidates.push_back(c);
  }
  if (self_loops > 0)
    out.warnings.push_back(std::to_string(self_loops) + " self-loop edge(s) dropped (a task cannot wait for itself)");
  return out;
}

WindowTrace trace_from_graph(const Graph& g) {
  WindowTrace out;
  out.file = g.file;
  const auto n = static_cast<std::uint32_t>(g.nodes.size());
  out.geometry.rings = 1;
  out.geometry.slots_per_ring = std::max<std::uint32_t>(1, n);
  out.stream.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    out.stream[i].id = make_task_id(0, i);
    out.names.push_back(g.nodes[i].name);
    out.lines.push_back(g.nodes[i].line);
  }
  for (const Edge& e : g.edges)
    out.stream[e.dst].candidates.push_back({make_task_id(0, e.src), 0, e.flags, DepSource::Explicit});
  if (!g.self_loops.empty())
    out.warnings.push_back(std::to_string(g.self_loops.size()) + " self-loop(s) ignored");
  return out;
}

WindowTrace read_window_trace(const std::string& path, const DepsJsonOptions& options) {
  const std::string text = read_file(path);
  if (looks_like_deps_json(text)) return read_deps_json(text, input_name(path), options);
  std::vector<std::string> warnings;
  WindowTrace t = trace_from_graph(make_program_order(read_graph_text(text, path), &warnings));
  t.file = input_name(path);
  t.warnings.insert(t.warnings.begin(), warnings.begin(), warnings.end());
  return t;
}

} // namespace depreduce::formats
