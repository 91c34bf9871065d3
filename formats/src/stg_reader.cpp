//===- formats/src/stg_reader.cpp - Kasahara Standard Task Graph ---------===//
///
/// \file
/// Line 1: n (real tasks). Then n+2 task lines `id time npred pred...` with
/// ids 0..n+1 (0 and n+1 are the dummy entry/exit). Then a `#` trailer.
/// Fields are whitespace-separated (the files use right-aligned columns).
//===----------------------------------------------------------------------===//
#include <string>
#include <vector>

#include "depreduce/formats/formats.hpp"
#include "internal.hpp"

namespace depreduce::formats {
namespace {

using detail::show;

struct Line {
  std::uint32_t number = 0;
  std::vector<std::string_view> fields;
  bool comment = false; ///< First field starts with '#'.
};

/// Splits \p text into lines of whitespace-separated fields. Blank lines are
/// dropped; a last line without '\n' is kept.
std::vector<Line> split(std::string_view text) {
  std::vector<Line> out;
  std::uint32_t number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view raw = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    Line line;
    line.number = number;
    std::size_t i = 0;
    while (i < raw.size()) {
      while (i < raw.size() && detail::is_space(raw[i])) ++i;
      std::size_t s = i;
      while (i < raw.size() && !detail::is_space(raw[i])) ++i;
      if (i > s) line.fields.push_back(raw.substr(s, i - s));
    }
    if (line.fields.empty()) continue;
    line.comment = line.fields.front().front() == '#';
    out.push_back(std::move(line));
  }
  return out;
}

bool is_number(std::string_view s) {
  // A non-negative decimal processing time: digits with at most one '.'.
  bool digit = false, dot = false;
  for (char c : s) {
    if (c >= '0' && c <= '9') digit = true;
    else if (c == '.' && !dot) dot = true;
    else return false;
  }
  return digit;
}

} // namespace

InputGraph read_stg(std::string_view text, const std::string& file) {
  InputGraph g;
  g.file = file;
  std::vector<Line> lines = split(text);
  if (lines.empty()) throw InputError(file, 1, "empty STG file: expected the task count on line 1");

  const Line& header = lines.front();
  if (header.comment || header.fields.size() != 1)
    throw InputError(file, header.number,
                     "expected the number of tasks alone on the first line, found " +
                         show(header.fields.front()) + (header.fields.size() > 1 ? " and more" : ""));
  auto n = detail::parse_uint(header.fields.front(), UINT32_MAX - 2);
  if (!n) throw InputError(file, header.number, "bad task count " + show(header.fields.front()));
  const std::uint64_t total = *n + 2; // with the dummy entry and exit tasks

  std::size_t next = 1;
  auto where = [&](std::uint64_t seen) {
    return "header (line " + std::to_string(header.number) + ") announces " + std::to_string(*n) +
           " tasks, i.e. " + std::to_string(total) + " task lines with the dummy entry/exit; found " +
           std::to_string(seen);
  };
  for (std::uint64_t id = 0; id < total; ++id, ++next) {
    if (next >= lines.size()) {
      throw InputError(file, lines.back().number,
                       "truncated file: " + where(id) + " task lines before the file ends on this line");
    }
    const Line& l = lines[next];
    if (l.comment)
      throw InputError(file, l.number, "truncated task list: " + where(id) + " task lines before this comment");
    if (l.fields.size() < 3)
      throw InputError(file, l.number, "task line needs 'id time npred pred...', found " +
                                           std::to_string(l.fields.size()) + " field(s)");
    auto got = detail::parse_uint(l.fields[0], UINT32_MAX);
    if (!got) throw InputError(file, l.number, "bad task id " + show(l.fields[0]));
    if (*got != id)
      throw InputError(file, l.number, "task id " + std::to_string(*got) + " out of sequence: expected " +
                                           std::to_string(id) + " (ids are contiguous from 0)");
    if (!is_number(l.fields[1]))
      throw InputError(file, l.number, "task " + std::to_string(id) + ": bad processing time " + show(l.fields[1]));
    auto npred = detail::parse_uint(l.fields[2], UINT32_MAX);
    if (!npred)
      throw InputError(file, l.number, "task " + std::to_string(id) + ": bad predecessor count " + show(l.fields[2]));
    std::uint64_t listed = l.fields.size() - 3;
    if (listed < *npred)
      throw InputError(file, l.number, "truncated task line: task " + std::to_string(id) + " announces " +
                                           std::to_string(*npred) + " predecessor(s) but lists " +
                                           std::to_string(listed));
    if (listed > *npred)
      throw InputError(file, l.number, "task " + std::to_string(id) + " announces " + std::to_string(*npred) +
                                           " predecessor(s) but lists " + std::to_string(listed));
    Node node;
    node.name = std::to_string(id);
    node.line = l.number;
    node.input_index = static_cast<std::uint32_t>(id);
    node.attrs.emplace_back("weight", std::string(l.fields[1]));
    g.nodes.push_back(std::move(node));
    for (std::size_t k = 3; k < l.fields.size(); ++k) {
      auto p = detail::parse_uint(l.fields[k], UINT32_MAX);
      if (!p) throw InputError(file, l.number, "task " + std::to_string(id) + ": bad predecessor id " + show(l.fields[k]));
      if (*p >= total)
        throw InputError(file, l.number, "task " + std::to_string(id) + ": predecessor " + std::to_string(*p) +
                                             " is not a task (ids are 0.." + std::to_string(total - 1) + ")");
      Edge e;
      e.src = static_cast<NodeId>(*p);
      e.dst = static_cast<NodeId>(id);
      e.line = l.number;
      e.input_index = static_cast<std::uint32_t>(g.edges.size());
      g.edges.push_back(std::move(e));
    }
  }
  for (; next < lines.size(); ++next) {
    const Line& l = lines[next];
    if (l.comment) continue;
    throw InputError(file, l.number,
                     "task count mismatch: " + where(total) + " and then another non-comment line " +
                         show(l.fields.front()) + " (does the header count the dummy tasks?)");
  }
  return g;
}

} // namespace depreduce::formats
