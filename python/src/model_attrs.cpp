//===- python/src/model_attrs.cpp - DOT model attributes ------------------===//
#include "model_attrs.hpp"

#include <limits>
#include <optional>

#include "depreduce/error.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/kinds.hpp"

namespace depreduce::python {
namespace {

std::string_view trim(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

bool same_word(std::string_view w, std::string_view kw) { // case-insensitive, kw lower case
  if (w.size() != kw.size()) return false;
  for (std::size_t i = 0; i < w.size(); ++i) {
    char c = w[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != kw[i]) return false;
  }
  return true;
}

std::optional<std::uint64_t> parse_uint(std::string_view s, std::uint64_t max) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto d = static_cast<unsigned>(c - '0');
    if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  if (v > max) return std::nullopt;
  return v;
}

std::string show(std::string_view s) {
  std::string out = "'";
  if (s.size() > 60) {
    out.append(s.substr(0, 60));
    out += "...";
  } else {
    out.append(s);
  }
  return out + "'";
}

} // namespace

bool is_node_model_attr(std::string_view k) noexcept {
  return k == "engine" || k == "async" || k == "barrier" || k == "reads" || k == "writes";
}
bool is_edge_model_attr(std::string_view k) noexcept { return k == "kind" || k == "flags"; }

void set_node_model_attr(Node& node, std::string_view key, std::string_view v, const std::string& file) {
  if (v.empty()) return; // "" = not set
  const std::string_view t = trim(v);
  auto bad = [&](const std::string& expected) {
    throw InputError(file, 0, "node " + show(node.name) + ": " + std::string(key) + "=" + show(v) + ": expected " + expected);
  };
  if (key == "engine") {
    if (same_word(t, "none")) {
      node.engine = kNoEngine;
      return;
    }
    auto e = parse_uint(t, kNoEngine - 1);
    if (!e) bad("an integer >= 0 or 'none'");
    node.engine = static_cast<Engine>(*e);
  } else if (key == "async") {
    if (same_word(t, "inf")) {
      node.async_window = kAsyncInfinite;
      return;
    }
    auto w = parse_uint(t, kAsyncInfinite - 1);
    if (!w) bad("an integer >= 0 (0 = synchronous) or 'inf'");
    node.async_window = static_cast<std::uint32_t>(*w);
  } else if (key == "barrier") {
    if (same_word(t, "true") || same_word(t, "yes") || t == "1") node.barrier = true;
    else if (same_word(t, "false") || same_word(t, "no") || t == "0") node.barrier = false;
    else bad("true or false");
  } else {
    std::vector<ByteRange>& dst = key == "reads" ? node.reads : node.writes;
    try {
      dst = formats::parse_byte_ranges(v, file, 0);
    } catch (const InputError& e) {
      throw InputError(file, 0, "node " + show(node.name) + ": " + std::string(key) + "=" + show(v) + ": " + e.problem());
    }
  }
}

void set_edge_model_attr(Edge& edge, std::string_view key, std::string_view v, const std::string& who,
                         const std::string& file) {
  if (v.empty()) return;
  if (key == "kind") {
    auto k = parse_kinds(v);
    if (!k)
      throw InputError(file, 0, who + ": kind=" + show(v) +
                                    ": expected a '|' or ',' list of flow, anti, output, ordered (raw, war, waw)");
    edge.kinds = *k;
  } else {
    auto f = parse_flags(v);
    if (!f || f->empty())
      throw InputError(file, 0, who + ": flags=" + show(v) + ": expected a '|' or ',' list of wait, retain");
    edge.flags = *f;
  }
}

std::uint32_t parse_engines_attr(std::string_view value, const std::string& file) {
  auto n = parse_uint(trim(value), kMaxEngines);
  if (!n || *n < 1)
    throw InputError(file, 0, "graph attribute engines=" + show(value) + ": expected an integer in [1, " +
                                  std::to_string(kMaxEngines) + "]");
  return static_cast<std::uint32_t>(*n);
}

} // namespace depreduce::python
