//===- depreduce/formats/deps_json.hpp - Task-stream traces ----*- C++ -*-===//
///
/// \file
/// Turns a runtime dependency dump (`deps.json`) or any DAG file into the
/// task stream the bounded-window reducer replays (SPEC §6,
/// depreduce/window_reducer.hpp), for `depreduce window-report`.
///
/// `deps.json` is the runtime's dependency capture (its `dep_gen` output;
/// docs/formats.md "deps.json" gives the schema and where it is published):
/// \code
///   { "runtime": "tensormap_and_ringbuffer",
///     "tasks": [ {"task_id": "4294967296", "scope": "auto", "kernel_ids": [7,-1,-1],
///                 "block_num": 4, "args": [...]}, ... ],
///     "tensors": [ ... ],
///     "edges": [ {"pred": "0", "succ": "4294967296", "arg": 0, "source": "creator",
///                 "flags": ["wait", "retain"], "tensor_id": "...", ...}, ... ] }
/// \endcode
///  - `runtime` decides how a task id decodes (SPEC §6, last paragraph):
///    `tensormap_and_ringbuffer` - ring = bits 39:32, local id = bits 31:0
///    (bits 63:40 must be 0); the reducer sees slot = local % slots_per_ring,
///    generation = local / slots_per_ring (the runtime's ring buffer), so a
///    producer whose slot was reused before its consumer is stale.
///    `host_build_graph` - one submission stream; ids are opaque beyond their
///    order (bits 63:62 an id space, 51:32 a parent task: used in messages
///    only): task i of the order is slot i of one ring, generation 0.
///    A missing or unknown `runtime` is an error unless
///    DepsJsonOptions::runtime names one.
///  - `tasks[]` is in submission order. 64-bit values are JSON strings
///    (decimal or 0x-hex) or JSON integers. Other task fields are ignored.
///  - `edges[]`: `pred` and `succ` name tasks; `source` is explicit, creator
///    or tensormap (default explicit); `flags` (optional: the host-built
///    writer leaves it out) is a list (or a "|"-separated string) of wait and
///    retain; absent, it follows from `source`: creator -> wait|retain,
///    tensormap -> wait, explicit -> wait|retain. Records of one pair are
///    candidates of one producer, whose flags the reducer ORs.
///  - A `pred` that is not in `tasks[]` (an `alloc_tensors` task: referenced,
///    never captured) is a task with no fanin, submitted just before its first
///    consumer (earliest `succ` in submission order; several such tasks before
///    one consumer in order of first mention in `edges[]`). A `succ` must be
///    in `tasks[]`. `"edges": []` is a valid capture.
///
/// write_reduced_deps_json() writes a reduction back as the same capture:
/// the text unchanged except the `flags` of the records whose pair lost WAIT.
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

/// The runtimes whose captures read_deps_json() decodes (the capture's
/// top-level `runtime`).
enum class CaptureRuntime : std::uint8_t {
  None,                   ///< Not a capture (a DAG file), or not named yet.
  TensorMapAndRingBuffer, ///< "tensormap_and_ringbuffer": ring = bits 39:32, local = bits 31:0.
  HostBuildGraph,         ///< "host_build_graph": one stream, ids opaque beyond their order.
};

/// "tensormap_and_ringbuffer", "host_build_graph"; "" for None.
std::string to_string(CaptureRuntime runtime);
/// Parses the two names above (exactly as the runtime writes them);
/// CaptureRuntime::None for anything else. Cost: O(1).
CaptureRuntime parse_capture_runtime(std::string_view name);

/// \p id as a message names it: the decimal id, then its fields under
/// \p runtime ("4294967297 (ring 1, local 1)", "4611686018427387905
/// (SUB_TASK, parent 0, local 1)"). Cost: O(1).
std::string describe_task_id(CaptureRuntime runtime, std::uint64_t id);

/// One element of a capture's `edges[]` as read_deps_json() resolved it, in
/// record order: what write_reduced_deps_json() needs to write it back.
struct DepsEdgeRecord {
  std::uint32_t producer = 0; ///< Position of `pred` in WindowTrace::stream.
  std::uint32_t consumer = 0; ///< Position of `succ` in WindowTrace::stream.
  FlagSet flags;              ///< As written, or derived from `source` when absent.
  bool flags_written = false; ///< The record has a `flags` member.
  std::uint32_t line = 0;     ///< Line on which the record starts.
  friend bool operator==(const DepsEdgeRecord&, const DepsEdgeRecord&) = default;
};

/// A replayable trace: the stream plus what a report needs to name things.
struct WindowTrace {
  std::string file;
  TaskStream stream;           ///< Submission order.
  /// Geometry the stream was built for: rings = highest ring + 1,
  /// slots_per_ring as requested (tensormap_and_ringbuffer) or the task
  /// count (host_build_graph, DAG files). seq_width 64, mode Global; callers
  /// set the mode they want.
  WindowOptions geometry;
  std::vector<std::string> names;   ///< Per task: its task_id (deps.json) or node name.
  std::vector<std::uint32_t> lines; ///< Per task: source line (0 = unknown; an uncaptured task: its first edge's).
  std::vector<std::string> warnings; ///< E.g. self-loops dropped.
  /// deps.json only (empty / None otherwise):
  CaptureRuntime runtime = CaptureRuntime::None;
  std::vector<std::uint64_t> ids;    ///< Per task: its raw 64-bit task id.
  std::vector<bool> captured;        ///< Per task: listed in `tasks[]` (false: named only as a `pred`).
  std::vector<DepsEdgeRecord> records; ///< Per `edges[]` element (self-loops included), record order.
};

/// How deps.json task ids map onto the reducer's slots.
struct DepsJsonOptions {
  /// Slots per ring of the runtime's task ring buffer (default: the runtime's
  /// 16,384); tensormap_and_ringbuffer only. Must be >= 1.
  std::uint32_t slots_per_ring = 16384;
  /// The runtime to decode ids by (`window-report --runtime`): None takes the
  /// capture's own `runtime`; anything else overrides it.
  CaptureRuntime runtime = CaptureRuntime::None;
};

/// True if \p text is a JSON object with a `tasks` or an `edges` array and no
/// `workflow` member (a deps.json dump, possibly incomplete, rather than a
/// WfCommons workflow). Never throws.
bool looks_like_deps_json(std::string_view text) noexcept;

/// Parses deps.json \p text (\p file names it in messages) as the file
/// comment describes.
/// \returns the trace; an edge whose pred equals succ is no candidate (a
///   warning says how many), but stays in `records`.
/// \throws InputError with file and line for: malformed JSON (line of the
///   error), a missing or non-array `tasks`/`edges`, a missing or unknown
///   `runtime` (naming --runtime) without an override, a task without a valid
///   `task_id`, duplicate task ids, a tensormap_and_ringbuffer id with bits
///   63:40 set or a ring beyond the slot budget, a `succ` that is not in
///   `tasks`, an edge whose pred is submitted after its succ, an unknown
///   source or flag, a 64-bit value that is neither an unsigned integer nor
///   a string of one (a number of 2^64 or more is named as written, not as
///   the floating-point value JSON parsers turn it into), more than 2^24
///   tasks in a host_build_graph capture, and slots_per_ring == 0.
/// Cost: O(size of text + tasks + edges log tasks).
WindowTrace read_deps_json(std::string_view text, const std::string& file = "<deps.json>",
                           const DepsJsonOptions& options = {});

/// A pair whose WAIT a reduction removed: positions in WindowTrace::stream.
struct ReducedPair {
  std::uint32_t producer = 0;
  std::uint32_t consumer = 0;
  friend auto operator<=>(const ReducedPair&, const ReducedPair&) = default;
};

/// Writes \p text (the capture \p trace was read from) back with WAIT
/// cleared from every record of every pair in \p removed, as the runtime's
/// own reduction (`reduce_wait_edges`) leaves an edge: wait|retain ->
/// ["retain"], wait -> [] (the record is kept either way). Everything else -
/// every record, every other field, their order, spacing and spelling - is
/// byte for byte as in \p text; a record whose `flags` was absent gets one
/// (`, "flags": [...]` after its last member), since its `source` would
/// otherwise give WAIT back on reading. read_deps_json() of the result gives
/// the same tasks and records with those flags.
/// \throws InputError (file \p trace.file) if \p text does not hold
///   trace.records.size() edge records, or a pair of \p removed has no
///   record carrying WAIT. Cost: O(size of text + removed log removed).
std::string write_reduced_deps_json(std::string_view text, const WindowTrace& trace,
                                    std::vector<ReducedPair> removed);

/// One-ring trace of a canonical graph: task i = node i (program order),
/// TaskId (0 << 32) | i, generation 0, candidates = its incoming edges
/// (g.edges order) with the edges' flags, source explicit. Self-loops are not
/// in g.edges and are not candidates. Cost: O(n + m).
WindowTrace trace_from_graph(const Graph& g);

/// Reads \p path: deps.json when looks_like_deps_json() says so, otherwise any
/// DAG format read_graph() knows, put in program order (make_program_order).
/// \throws InputError as read_deps_json(), read_graph(), make_program_order().
/// \p capture_text, if set, receives the text of a deps.json input (for
/// write_reduced_deps_json()); it is left empty for other formats.
WindowTrace read_window_trace(const std::string& path, const DepsJsonOptions& options = {},
                              std::string* capture_text = nullptr);

} // namespace depreduce::formats

#endif // DEPREDUCE_FORMATS_DEPS_JSON_HPP
