//===- depreduce/formats/deps_json.hpp - Task-stream traces ----*- C++ -*-===//
///
/// \file
/// Turns a runtime dependency dump (`deps.json`) or any DAG file into the
/// task stream the bounded-window reducer replays (SPEC §6,
/// depreduce/window_reducer.hpp), for `depreduce window-report`.
///
/// `deps.json` (what the runtime dumps):
/// \code
///   { "tasks": [ {"task_id": "4294967296", "scope": 0, ...}, ... ],
///     "edges": [ {"pred": "4294967296", "succ": "4294967297",
///                 "source": "tensormap", "flags": ["wait", "retain"]}, ... ] }
/// \endcode
///  - `tasks[]` is in submission order; `task_id` = (ring << 32) | local id,
///    where the local id counts the ring's tasks. 64-bit values may be JSON
///    numbers or strings (decimal or 0x-hex). Other task fields are ignored.
///  - `edges[]`: `pred` and `succ` name tasks; `source` is explicit, creator or
///    tensormap (default explicit); `flags` is a list (or a "|"-separated
///    string) of wait and retain (default ["wait"]). Candidates of a task are
///    its edges in record order.
///  - The reducer sees slots, not local ids: slot = local % slots_per_ring,
///    generation = local / slots_per_ring (the runtime's ring buffer), so a
///    producer whose slot was reused before its consumer is stale.
///
/// Any other DAG file (DOT, STG, WfCommons JSON, DAX: formats.hpp) becomes one
/// ring whose submission order is the graph's program order, each node its
/// own slot (generation 0), each edge a candidate of its target with the
/// edge's flags and source explicit.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_FORMATS_DEPS_JSON_HPP
#define DEPREDUCE_FORMATS_DEPS_JSON_HPP

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "depreduce/error.hpp"
#include "depreduce/graph.hpp"
#include "depreduce/window_reducer.hpp"

namespace depreduce::formats {

/// A replayable trace: the stream plus what a report needs to name things.
struct WindowTrace {
  std::string file;
  TaskStream stream;           ///< Submission order.
  /// Geometry the stream was built for: rings = highest ring + 1,
  /// slots_per_ring as requested (deps.json) or the node count (DAG files).
  /// seq_width 64, mode Global; callers set the mode they want.
  WindowOptions geometry;
  std::vector<std::string> names;   ///< Per task: its task_id (deps.json) or node name.
  std::vector<std::uint32_t> lines; ///< Per task: source line (0 = unknown).
  std::vector<std::string> warnings; ///< E.g. self-loops dropped.
};

/// How deps.json local ids map onto the reducer's slots.
struct DepsJsonOptions {
  /// Slots per ring of the runtime's task ring buffer (default: the runtime's
  /// 16,384). Must be >= 1.
  std::uint32_t slots_per_ring = 16384;
};

/// True if \p text is a JSON object with a `tasks` or an `edges` array and no
/// `workflow` member (a deps.json dump, possibly incomplete, rather than a
/// WfCommons workflow). Never throws.
bool looks_like_deps_json(std::string_view text) noexcept;

/// Parses deps.json \p text (\p file names it in messages).
/// \returns the trace; edges whose pred equals succ are dropped with a warning.
/// \throws InputError with file and line for: malformed JSON (line of the
///   error), a missing or non-array `tasks`/`edges`, a task without a valid
///   `task_id`, duplicate task ids, an edge naming an unknown task, an edge
///   whose pred is submitted after its succ, an unknown source or flag, a
///   64-bit value that is neither an unsigned integer nor a string of one,
///   and slots_per_ring == 0.
/// Cost: O(size of text + tasks + edges log tasks).
WindowTrace read_deps_json(std::string_view text, const std::string& file = "<deps.json>",
                           const DepsJsonOptions& options = {});

/// One-ring trace of a canonical graph: task i = node i (program order),
/// TaskId (0 << 32) | i, generation 0, candidates = its incoming edges
/// (g.edges order) with the edges' flags, source explicit. Self-loops are not
/// in g.edges and are not candidates. Cost: O(n + m).
WindowTrace trace_from_graph(const Graph& g);

/// Reads \p path: deps.json when looks_like_deps_json() says so, otherwise any
/// DAG format read_graph() knows, put in program order (make_program_order).
/// \throws InputError as read_deps_json(), read_graph(), make_program_order().
WindowTrace read_window_trace(const std::string& path, const DepsJsonOptions& options = {});

} // namespace depreduce::formats

#endif // DEPREDUCE_FORMATS_DEPS_JSON_HPP
