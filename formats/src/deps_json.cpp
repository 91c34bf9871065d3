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

/// A byte range of the text and the line on which it starts.
struct Span {
  std::size_t begin = 0, end = 0;
  std::uint32_t line = 0;
};

/// One member of an object: its decoded key and where its value is.
struct Member {
  std::string key;
  Span value;
};

/// Walks well-formed JSON text (already accepted by nlohmann) to find where
/// things are: the elements of a top-level array member and the members of
/// an object, as byte spans with their lines. Iterative, so deep nesting
/// cannot overflow the stack. Keys are decoded as nlohmann decodes them
/// (escapes included), so a member found here is the one nlohmann keeps.
class Scanner {
public:
  explicit Scanner(std::string_view text) : t_(text) {}

  /// The members of the object starting at \p at (its '{'), in text order.
  std::vector<Member> members(std::size_t at, std::uint32_t line) {
    std::vector<Member> out;
    p_ = at;
    line_ = line;
    ws();
    if (!is('{')) return out;
    ++p_;
    for (;;) {
      ws();
      if (!is('"')) return out; // '}' or end
      Member m;
      m.key = key();
      ws();
      if (is(':')) ++p_;
      ws();
      m.value.begin = p_;
      m.value.line = line_;
      skip_value();
      m.value.end = p_;
      out.push_back(std::move(m));
      ws();
      if (is(',')) ++p_;
      else return out;
    }
  }

  /// The elements of the top-level array member \p key (the last one if the
  /// key repeats: nlohmann keeps the last).
  std::vector<Span> elements(std::string_view key) {
    std::vector<Span> out;
    Span array;
    bool found = false;
    for (const Member& m : members(0, 1))
      if (m.key == key) array = m.value, found = true;
    if (!found) return out;
    p_ = array.begin;
    line_ = array.line;
    if (!is('[')) return out;
    ++p_;
    for (;;) {
      ws();
      if (p_ >= t_.size() || is(']')) break;
      Span e;
      e.begin = p_;
      e.line = line_;
      skip_value();
      e.end = p_;
      out.push_back(e);
      ws();
      if (is(',')) ++p_;
      else break;
    }
    return out;
  }

private:
  bool is(char c) const { return p_ < t_.size() && t_[p_] == c; }
  void ws() {
    while (p_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[p_]))) {
      if (t_[p_] == '\n') ++line_;
      ++p_;
    }
  }
  /// At '"': moves past the string.
  void skip_string() {
    ++p_;
    while (p_ < t_.size() && t_[p_] != '"') p_ += t_[p_] == '\\' ? 2 : 1;
    ++p_;
  }
  /// At '"': the decoded key, moving past it.
  std::string key() {
    const std::size_t start = p_;
    skip_string();
    const std::string_view raw = t_.substr(start, std::min(p_, t_.size()) - start);
    if (raw.find('\\') == std::string_view::npos) return std::string(raw.substr(1, raw.size() - 2));
    const json decoded = json::parse(raw.begin(), raw.end(), nullptr, /*allow_exceptions=*/false);
    return decoded.is_string() ? decoded.get<std::string>() : std::string();
  }
  void skip_value() {
    if (is('"')) { skip_string(); return; }
    if (!is('{') && !is('[')) { // number, true, false, null
      while (p_ < t_.size() && !std::strchr(",]} \t\r\n", t_[p_])) ++p_;
      return;
    }
    std::size_t depth = 0;
    while (p_ < t_.size()) {
      const char c = t_[p_];
      if (c == '"') { skip_string(); continue; }
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

std::string dump_short(std::string s) {
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

/// True if \p literal (a JSON number or string as written) is a whole
/// number: digits only, or 0x and hex digits (quotes stripped).
bool whole_number_text(std::string_view literal) {
  if (literal.size() >= 2 && literal.front() == '"') literal = literal.substr(1, literal.size() - 2);
  bool hex = false;
  if (literal.size() > 2 && literal[0] == '0' && (literal[1] == 'x' || literal[1] == 'X')) {
    literal.remove_prefix(2);
    hex = true;
  }
  if (literal.empty()) return false;
  for (char c : literal)
    if (!(hex ? std::isxdigit(static_cast<unsigned char>(c)) : std::isdigit(static_cast<unsigned char>(c))))
      return false;
  return true;
}

/// Flags a record without `flags` has, by its source (the runtime's own
/// fanin construction: a creator retains and orders, a tensor-map hit orders,
/// an explicit dependency by default does both).
FlagSet flags_of_source(DepSource source) {
  return source == DepSource::TensorMap ? FlagSet::wait() : FlagSet::wait() | FlagSet::retain();
}

/// Reads the 64-bit id member \p key of \p element (whose members \p members
/// the scanner found). \throws InputError naming \p line and the value as
/// written (a number of 2^64 or more as its digits, never as the floating
/// point value nlohmann-json reads it as).
std::uint64_t read_id(const json& element, const std::vector<Member>& members, std::string_view text, const char* key,
                      const std::string& file, std::uint32_t line) {
  const json& v = element[key];
  if (const auto id = as_u64(v)) return *id;
  std::string literal = v.dump();
  for (const Member& m : members)
    if (m.key == key) literal = std::string(text.substr(m.value.begin, m.value.end - m.value.begin));
  if (whole_number_text(literal) && (v.is_number() || v.is_string()))
    throw InputError(file, line,
                     std::string(key) + " " + dump_short(literal) + " does not fit in 64 bits (2^64 or more)");
  throw InputError(file, line,
                   std::string(key) + " " + dump_short(literal) +
                       " is not an unsigned 64-bit integer (write large ids as strings)");
}

/// Flags as read_deps_json() writes them back: ["retain"], [], ...
std::string flags_json(FlagSet flags) {
  std::string out = "[";
  if (flags.has(Flag::Wait)) out += "\"wait\"";
  if (flags.has(Flag::Retain)) out += std::string(out.size() > 1 ? ", " : "") + "\"retain\"";
  return out + "]";
}

constexpr const char* kRuntimeChoice =
    "tensormap_and_ringbuffer or host_build_graph; to decode the capture as NAME, give window-report --runtime NAME, "
    "or runtime='NAME' in Python";

} // namespace

std::string to_string(CaptureRuntime runtime) {
  switch (runtime) {
  case CaptureRuntime::TensorMapAndRingBuffer: return "tensormap_and_ringbuffer";
  case CaptureRuntime::HostBuildGraph: return "host_build_graph";
  case CaptureRuntime::None: break;
  }
  return "";
}

CaptureRuntime parse_capture_runtime(std::string_view name) {
  if (name == "tensormap_and_ringbuffer") return CaptureRuntime::TensorMapAndRingBuffer;
  if (name == "host_build_graph") return CaptureRuntime::HostBuildGraph;
  return CaptureRuntime::None;
}

std::string describe_task_id(CaptureRuntime runtime, std::uint64_t id) {
  const std::string local = std::to_string(id & 0xffffffffu);
  if (runtime == CaptureRuntime::TensorMapAndRingBuffer)
    return std::to_string(id) + " (ring " + std::to_string(id >> 32) + ", local " + local + ")";
  if (runtime == CaptureRuntime::HostBuildGraph) {
    static const char* const spaces[] = {"GLOBAL", "SUB_TASK", "PARAM", "space 3"};
    std::string out = std::to_string(id) + " (" + spaces[id >> 62];
    if ((id >> 62) == 1) out += ", parent " + std::to_string((id >> 32) & 0xfffffu);
    return out + ", local " + local + ")";
  }
  return std::to_string(id);
}

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
  } catch (const json::exception& e) {
    // out_of_range 406: a number beyond a double ("1e999"); the message names
    // the literal, whose first appearance gives the line.
    std::string what = e.what();
    if (auto colon = what.find("] "); what.rfind("[json.exception", 0) == 0 && colon != std::string::npos)
      what = what.substr(colon + 2);
    std::size_t at = 0;
    if (auto q1 = what.find('\''), q2 = what.rfind('\''); q1 != std::string::npos && q2 > q1 + 1)
      if (auto pos = text.find(what.substr(q1 + 1, q2 - q1 - 1)); pos != std::string_view::npos) at = pos;
    throw InputError(file, line_of_byte(text, at), "malformed JSON: " + what);
  }
  if (!doc.is_object()) throw InputError(file, 1, "deps.json must be a JSON object with \"tasks\" and \"edges\"");
  for (const char* key : {"tasks", "edges"})
    if (!doc.contains(key) || !doc[key].is_array())
      throw InputError(file, 1, std::string("deps.json has no \"") + key + "\" array");

  Scanner scan(text);
  // The capture's runtime decides what an id means (SPEC §6): never guessed.
  CaptureRuntime runtime = options.runtime;
  if (runtime == CaptureRuntime::None) {
    std::uint32_t line = 1;
    for (const Member& m : scan.members(0, 1))
      if (m.key == "runtime") line = m.value.line;
    if (!doc.contains("runtime"))
      throw InputError(file, 1,
                       std::string("deps.json has no \"runtime\": a task id's layout depends on the runtime that "
                                   "wrote it (") + kRuntimeChoice + ")");
    const json& r = doc["runtime"];
    runtime = r.is_string() ? parse_capture_runtime(r.get<std::string>()) : CaptureRuntime::None;
    if (runtime == CaptureRuntime::None)
      throw InputError(file, line, "unknown runtime " + dump_short(r.dump()) + " (" + kRuntimeChoice + ")");
  }
  const bool ring_buffer = runtime == CaptureRuntime::TensorMapAndRingBuffer;
  const std::vector<Span> task_spans = scan.elements("tasks");
  const std::vector<Span> edge_spans = scan.elements("edges");
  auto span_at = [](const std::vector<Span>& spans, std::size_t i) { return i < spans.size() ? spans[i] : Span{}; };

  // A tensormap_and_ringbuffer id has its ring in bits 39:32 and nothing above.
  auto check_ring_id = [&](std::uint64_t id, std::uint32_t line) {
    if (!ring_buffer) return;
    if ((id >> 40) != 0)
      throw InputError(file, line,
                       "task_id " + std::to_string(id) +
                           " has bits 63:40 set: not a tensormap_and_ringbuffer id (ring = bits 39:32, local = bits "
                           "31:0); a host_build_graph capture keeps an id space and a parent there (depreduce "
                           "--runtime host_build_graph, Python runtime='host_build_graph')");
    const std::uint64_t ring = id >> 32;
    if ((ring + 1) * options.slots_per_ring > kMaxWindowSlots)
      throw InputError(file, line,
                       "task_id " + describe_task_id(runtime, id) + ": too many rings for " +
                           std::to_string(options.slots_per_ring) + " slots per ring (at most 2^24 slots in all)");
  };

  // Captured tasks, in record order.
  const json& tasks = doc["tasks"];
  std::vector<std::uint64_t> captured_ids;
  std::vector<std::uint32_t> captured_lines;
  std::unordered_map<std::uint64_t, std::size_t> captured_at; // task_id -> index in tasks[]
  captured_ids.reserve(tasks.size());
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const Span span = span_at(task_spans, i);
    const json& t = tasks[i];
    if (!t.is_object() || !t.contains("task_id"))
      throw InputError(file, span.line, "task " + std::to_string(i) + " has no \"task_id\"");
    const std::uint64_t id = read_id(t, scan.members(span.begin, span.line), text, "task_id", file, span.line);
    if (!captured_at.emplace(id, i).second)
      throw InputError(file, span.line,
                       "duplicate task_id " + describe_task_id(runtime, id) + " (first at line " +
                           std::to_string(captured_lines[captured_at[id]]) + ")");
    check_ring_id(id, span.line);
    captured_ids.push_back(id);
    captured_lines.push_back(span.line);
  }

  // Edge records; preds that no task lists are uncaptured tasks.
  struct Raw {
    std::uint64_t pred = 0, succ = 0;
    FlagSet flags;
    bool flags_written = false;
    DepSource source = DepSource::Explicit;
    std::uint32_t line = 0;
  };
  struct Uncaptured {
    std::size_t first_consumer = 0; ///< Index in tasks[] of its earliest consumer.
    std::size_t first_mention = 0;  ///< Index in edges[] of its first record.
    std::uint32_t line = 0;
  };
  const json& edges = doc["edges"];
  std::vector<Raw> raw(edges.size());
  std::unordered_map<std::uint64_t, Uncaptured> uncaptured;
  for (std::size_t k = 0; k < edges.size(); ++k) {
    const Span span = span_at(edge_spans, k);
    const std::uint32_t line = span.line;
    const json& e = edges[k];
    if (!e.is_object()) throw InputError(file, line, "edge " + std::to_string(k) + " is not an object");
    const std::vector<Member> members = scan.members(span.begin, span.line);
    Raw& r = raw[k];
    r.line = line;
    for (const char* key : {"pred", "succ"})
      if (!e.contains(key)) throw InputError(file, line, std::string("edge has no \"") + key + "\"");
    r.pred = read_id(e, members, text, "pred", file, line);
    r.succ = read_id(e, members, text, "succ", file, line);
    const auto succ = captured_at.find(r.succ);
    if (succ == captured_at.end())
      throw InputError(file, line,
                       "succ " + describe_task_id(runtime, r.succ) +
                           " is not a task in \"tasks\" (only a pred may be an uncaptured task)");
    if (!captured_at.count(r.pred)) {
      check_ring_id(r.pred, line);
      auto [it, fresh] = uncaptured.try_emplace(r.pred, Uncaptured{succ->second, k, line});
      if (!fresh) it->second.first_consumer = std::min(it->second.first_consumer, succ->second);
    }
    if (e.contains("source")) {
      if (!e["source"].is_string()) throw InputError(file, line, "\"source\" must be a string");
      const std::string s = lower(e["source"].get<std::string>());
      if (s == "creator") r.source = DepSource::Creator;
      else if (s == "tensormap" || s == "tensor_map") r.source = DepSource::TensorMap;
      else if (s == "explicit") r.source = DepSource::Explicit;
      else throw InputError(file, line, "unknown source \"" + s + "\" (explicit, creator or tensormap)");
    }
    r.flags = flags_of_source(r.source);
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
      r.flags = flags;
      r.flags_written = true;
    }
  }

  // Submission order: each uncaptured task just before its first consumer
  // (several before one consumer: in order of first mention).
  std::vector<std::vector<std::pair<std::size_t, std::uint64_t>>> before(captured_ids.size());
  for (const auto& [id, u] : uncaptured) before[u.first_consumer].emplace_back(u.first_mention, id);
  WindowTrace out;
  out.file = file;
  out.runtime = runtime;
  const std::size_t n = captured_ids.size() + uncaptured.size();
  if (!ring_buffer && n > kMaxWindowSlots)
    throw InputError(file, 0, "more than 2^24 tasks: a host_build_graph capture is replayed as one ring of one slot per task");
  out.ids.reserve(n);
  out.lines.reserve(n);
  out.captured.reserve(n);
  for (std::size_t i = 0; i < captured_ids.size(); ++i) {
    std::sort(before[i].begin(), before[i].end());
    for (const auto& [mention, id] : before[i]) {
      out.ids.push_back(id);
      out.lines.push_back(uncaptured[id].line);
      out.captured.push_back(false);
    }
    out.ids.push_back(captured_ids[i]);
    out.lines.push_back(captured_lines[i]);
    out.captured.push_back(true);
  }
  std::unordered_map<std::uint64_t, std::uint32_t> position;
  position.reserve(n);
  out.stream.resize(n);
  out.names.reserve(n);
  std::uint64_t max_ring = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint64_t id = out.ids[i];
    position.emplace(id, i);
    out.names.push_back(std::to_string(id));
    TaskRecord& rec = out.stream[i];
    if (ring_buffer) {
      const auto ring = static_cast<std::uint32_t>(id >> 32), local = static_cast<std::uint32_t>(id);
      max_ring = std::max<std::uint64_t>(max_ring, ring);
      // The ring buffer: slot = local mod slots per ring, not a mask (slot
      // counts need not be powers of two).
      rec.id = make_task_id(ring, local % options.slots_per_ring);
      rec.generation = local / options.slots_per_ring;
    } else {
      rec.id = make_task_id(0, i); // opaque ids: the order is all there is
    }
  }
  out.geometry.rings = static_cast<std::uint32_t>(max_ring + 1);
  out.geometry.slots_per_ring = ring_buffer ? options.slots_per_ring : std::max<std::uint32_t>(1, static_cast<std::uint32_t>(n));

  std::size_t self_loops = 0;
  out.records.reserve(raw.size());
  for (const Raw& r : raw) {
    DepsEdgeRecord rec;
    rec.producer = position.at(r.pred);
    rec.consumer = position.at(r.succ);
    rec.flags = r.flags;
    rec.flags_written = r.flags_written;
    rec.line = r.line;
    out.records.push_back(rec);
    if (rec.producer == rec.consumer) {
      ++self_loops;
      continue;
    }
    if (rec.producer > rec.consumer)
      throw InputError(file, r.line,
                       "edge " + describe_task_id(runtime, r.pred) + " -> " + describe_task_id(runtime, r.succ) +
                           " goes against submission order (pred is submitted after succ)");
    const TaskRecord& p = out.stream[rec.producer];
    out.stream[rec.consumer].candidates.push_back({p.id, p.generation, r.flags, r.source});
  }
  if (self_loops > 0)
    out.warnings.push_back(std::to_string(self_loops) + " self-loop edge(s) dropped (a task cannot wait for itself)");
  return out;
}

std::string write_reduced_deps_json(std::string_view text, const WindowTrace& trace, std::vector<ReducedPair> removed) {
  std::sort(removed.begin(), removed.end());
  removed.erase(std::unique(removed.begin(), removed.end()), removed.end());
  Scanner scan(text);
  const std::vector<Span> spans = scan.elements("edges");
  if (spans.size() != trace.records.size())
    throw InputError(trace.file, 0,
                     "the capture holds " + std::to_string(spans.size()) + " edge records, its trace " +
                         std::to_string(trace.records.size()) + ": not the text the trace was read from");
  struct Splice {
    std::size_t begin, end;
    std::string with;
  };
  std::vector<Splice> splices;
  std::vector<bool> used(removed.size(), false);
  for (std::size_t k = 0; k < spans.size(); ++k) {
    const DepsEdgeRecord& r = trace.records[k];
    const auto it = std::lower_bound(removed.begin(), removed.end(), ReducedPair{r.producer, r.consumer});
    if (it == removed.end() || *it != ReducedPair{r.producer, r.consumer} || !r.flags.has(Flag::Wait)) continue;
    used[static_cast<std::size_t>(it - removed.begin())] = true;
    const std::string flags = flags_json(r.flags.without(Flag::Wait));
    const std::vector<Member> members = scan.members(spans[k].begin, spans[k].line);
    const Member* last_flags = nullptr;
    for (const Member& m : members)
      if (m.key == "flags") last_flags = &m;
    if (last_flags != nullptr && r.flags_written)
      splices.push_back({last_flags->value.begin, last_flags->value.end, flags});
    else if (!members.empty())
      splices.push_back({members.back().value.end, members.back().value.end, ", \"flags\": " + flags});
  }
  for (std::size_t i = 0; i < removed.size(); ++i)
    if (!used[i])
      throw InputError(trace.file, 0,
                       "no record of " + std::to_string(removed[i].producer) + " -> " +
                           std::to_string(removed[i].consumer) + " (stream positions) carries WAIT");
  std::sort(splices.begin(), splices.end(), [](const Splice& a, const Splice& b) { return a.begin < b.begin; });
  std::string out;
  out.reserve(text.size() + splices.size() * 24);
  std::size_t at = 0;
  for (const Splice& s : splices) {
    out.append(text.substr(at, s.begin - at));
    out += s.with;
    at = s.end;
  }
  out.append(text.substr(at));
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

WindowTrace read_window_trace(const std::string& path, const DepsJsonOptions& options, std::string* capture_text) {
  if (capture_text != nullptr) capture_text->clear();
  std::string text = read_file(path);
  if (looks_like_deps_json(text)) {
    WindowTrace t = read_deps_json(text, input_name(path), options);
    if (capture_text != nullptr) *capture_text = std::move(text);
    return t;
  }
  std::vector<std::string> warnings;
  WindowTrace t = trace_from_graph(make_program_order(read_graph_text(text, path), &warnings));
  t.file = input_name(path);
  t.warnings.insert(t.warnings.begin(), warnings.begin(), warnings.end());
  return t;
}

} // namespace depreduce::formats
