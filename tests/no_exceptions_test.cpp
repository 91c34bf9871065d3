//===- tests/no_exceptions_test.cpp - The embeddable paths without exceptions ===//
///
/// \file
/// Compiled with -fno-exceptions -fno-rtti (tests/CMakeLists.txt), as a
/// compiler or runtime that vendors depreduce would be (SPEC §1,
/// "embedding"): includes the core headers, and drives every error path of
/// the per-node and per-task entry points - the online reducer, the window
/// reducer's try_ forms, check_window_options() and the C API - checking the
/// ErrorCode, the index and that nothing changed after the error. A throw
/// anywhere on these paths would terminate this program. Plain main(), no
/// GoogleTest (its own headers would need exceptions for some macros).
//===----------------------------------------------------------------------===//
#include "depreduce/c_api.h"
#include "depreduce/graph.hpp"
#include "depreduce/kinds.hpp"
#include "depreduce/online_reduction.hpp"
#include "depreduce/status.hpp"
#include "depreduce/transitive_reduction.hpp"
#include "depreduce/window_reducer.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(__cpp_rtti) || defined(__GXX_RTTI)
#error "no_exceptions_test must be compiled with -fno-exceptions -fno-rtti"
#endif

namespace {
using namespace depreduce;
int failures = 0;

#define CHECK(cond)                                                                                                    \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                                  \
      ++failures;                                                                                                      \
    }                                                                                                                  \
  } while (0)

void check_status(const Status& s, ErrorCode code, std::uint64_t index, int line) {
  if (s.code() != code || s.index() != index || s.message().empty()) {
    std::fprintf(stderr, "line %d: expected %s at %llu, got %s at %llu: %s\n", line, error_code_name(code),
                 static_cast<unsigned long long>(index), error_code_name(s.code()),
                 static_cast<unsigned long long>(s.index()), s.message().c_str());
    ++failures;
  }
}
#define CHECK_STATUS(expr, code, index) check_status((expr), (code), (index), __LINE__)

// The online reducer: three instructions on two engines, every error of the protocol.
void online_errors() {
  OnlineReducer r;
  CHECK_STATUS(r.reset({kMaxEngines + 1, {}}), ErrorCode::EngineOutOfRange, kMaxEngines + 1);
  CHECK(r.reset({2, {}}).ok());
  NodeId a = 0, b = 0, c = 0;
  CHECK_STATUS(r.add_node({2}, &a), ErrorCode::EngineOutOfRange, 0);
  CHECK(r.size() == 0);
  CHECK(r.add_node({0}, &a).ok());
  std::vector<RemovedEdge> removed;
  CHECK(r.add_edges(a, {}, removed).ok());
  CHECK(r.add_node({1}, &b).ok());
  const OnlineEdge ab{a, KindSet(Kind::Flow)};
  CHECK(r.add_edges(b, std::vector<OnlineEdge>{ab}, removed).ok() && removed.empty());
  CHECK(r.add_node({0}, &c).ok());
  bool implied = false;
  CHECK_STATUS(r.implied(c, a, KindSet(Kind::Flow), &implied), ErrorCode::NotProgramOrder, c);
  CHECK_STATUS(r.implied(a, 7, KindSet(Kind::Flow), &implied), ErrorCode::NodeOutOfRange, 7);
  CHECK_STATUS(r.implied(a, c, KindSet(Kind::Flow), nullptr), ErrorCode::BadArgument, 0);
  CHECK(r.implied(a, c, KindSet(Kind::Flow), &implied).ok() && implied); // engine 0: a then c, synchronous
  CHECK(r.implied(b, c, KindSet(Kind::Flow), &implied).ok() && !implied);
  // An edge forward of c, the wrong node, retiring the open node: refused, nothing changed.
  CHECK_STATUS(r.add_edges(c, std::vector<OnlineEdge>{{a, {}}, {c + 1, {}}}, removed), ErrorCode::NotProgramOrder, 1);
  CHECK_STATUS(r.add_edges(b, {}, removed), ErrorCode::BadState, b);
  CHECK_STATUS(r.retire(c), ErrorCode::BadState, c);
  CHECK_STATUS(r.retire(9), ErrorCode::NodeOutOfRange, 9);
  CHECK(r.retire(a).ok());
  CHECK_STATUS(r.retire(a), ErrorCode::BadState, a);
  CHECK_STATUS(r.implied(0, a + 0, Relation::CompletedBefore, &implied), ErrorCode::NotProgramOrder, 0);
  // a is retired: a WAIT edge from it is refused (a RETAIN-only one is not).
  CHECK_STATUS(r.add_edges(c, std::vector<OnlineEdge>{{b, {}}, {a, {}}}, removed), ErrorCode::BadState, 1);
  CHECK(r.add_edges(c, std::vector<OnlineEdge>{{b, KindSet(Kind::Flow)}, {a, {}, FlagSet::retain()}}, removed).ok());
  CHECK(removed.empty());
  // Declared successor counts: one consumer more than declared is refused.
  CHECK(r.reset({0, {}}).ok());
  CHECK(r.add_node({kNoEngine, 0, false, 1}, &a).ok());
  CHECK(r.add_node({}, &b).ok());
  CHECK(r.add_edges(b, std::vector<OnlineEdge>{{a, {}}}, removed).ok());
  CHECK(r.add_node({}, &c).ok());
  CHECK_STATUS(r.add_edges(c, std::vector<OnlineEdge>{{b, {}}, {a, {}}}, removed), ErrorCode::BadState, 1);
  CHECK(r.add_edges(c, std::vector<OnlineEdge>{{b, {}}}, removed).ok());
}

// The window reducer's Status forms: every failure, then the same submit succeeds.
template <unsigned BL>
void window_errors() {
  WindowOptions o;
  o.rings = 2;
  o.slots_per_ring = 4;
  CHECK(check_window_options(o).ok());
  WindowOptions bad = o;
  bad.rings = 0;
  CHECK_STATUS(check_window_options(bad), ErrorCode::BadArgument, 0);
  bad = o;
  bad.seq_width = 16;
  CHECK_STATUS(check_window_options(bad), ErrorCode::BadArgument, 0);
  for (WindowKernel kernel : {WindowKernel::Auto, WindowKernel::Portable}) {
    o.kernel = kernel;
    window_reducer<BL> w(o);
    FlagSet eff[3];
    std::size_t removed = 99;
    CHECK(w.try_submit_flags(make_task_id(0, 0), 0, {}, eff, &removed).ok() && removed == 0);
    const Candidate ok_a{make_task_id(0, 0), 0};
    CHECK(w.try_submit_flags(make_task_id(0, 1), 0, std::vector<Candidate>{ok_a}, eff, &removed).ok());
    const std::uint64_t seq = w.next_seq();
    const std::vector<Candidate> two{ok_a, {make_task_id(0, 1), 0}};
    const std::vector<Candidate> far{ok_a, {make_task_id(0, 9), 0}, {make_task_id(5, 0), 0}};
    CHECK_STATUS(w.try_submit_flags(make_task_id(0, 7), 0, two, eff, &removed), ErrorCode::NodeOutOfRange,
                 make_task_id(0, 7));
    CHECK_STATUS(w.try_submit_flags(make_task_id(0, 1), 0, two, eff, &removed), ErrorCode::BadState,
                 make_task_id(0, 1));
    CHECK_STATUS(w.try_submit_flags(make_task_id(0, 2), 0, two, std::span<FlagSet>(eff, 1), &removed),
                 ErrorCode::BadArgument, 1);
    eff[0] = FlagSet::retain();
    CHECK_STATUS(w.try_submit_flags(make_task_id(0, 2), 0, far, eff, &removed), ErrorCode::NodeOutOfRange, 1);
    CHECK(eff[0] == FlagSet::retain()); // not written
    std::vector<WindowEdge> edges(1);
    CHECK_STATUS(w.try_submit(make_task_id(1, 0), 0, far, edges), ErrorCode::NodeOutOfRange, 1);
    CHECK(edges.size() == 1);
    std::size_t count = 0;
    WindowEdge room[3];
    CHECK_STATUS(w.try_submit_into(make_task_id(1, 0), 0, far, room, &count), ErrorCode::NodeOutOfRange, 1);
    CHECK(w.next_seq() == seq); // no sequence consumed by a failure
    // C <- A, B: A reaches C through B, so it loses WAIT.
    CHECK(w.try_submit_flags(make_task_id(0, 2), 0, two, eff, &removed).ok());
    CHECK(removed == 1 && eff[0].empty() && eff[1] == FlagSet::wait());
    CHECK(w.try_submit(make_task_id(0, 3), 0, two, edges).ok() && edges.size() == 2);
  }
}

// The C API from C++ built without exceptions.
void c_api_errors() {
  dr_graph* g = nullptr;
  CHECK(dr_graph_create(65, &g) == DR_ENGINE_OUT_OF_RANGE && g == nullptr && std::strlen(dr_create_error()) > 0);
  CHECK(dr_graph_create(2, &g) == DR_OK);
  dr_node e0{0, 0, 0}, e1{1, 0, 0}, e9{9, 0, 0};
  std::uint32_t a = 0, b = 0, c = 0;
  CHECK(dr_graph_add_node(g, &e9, &a) == DR_ENGINE_OUT_OF_RANGE && std::strlen(dr_graph_last_error(g)) > 0);
  CHECK(dr_graph_add_node(g, &e0, &a) == DR_OK && *dr_graph_last_error(g) == '\0');
  CHECK(dr_graph_add_node(g, &e1, &b) == DR_OK);
  CHECK(dr_graph_add_node(g, &e0, &c) == DR_OK);
  const dr_edge back{c, a, DR_KIND_FLOW, DR_FLAG_WAIT}, unknown{a, 5, 0, DR_FLAG_WAIT};
  CHECK(dr_graph_add_edge(g, &back) == DR_NOT_PROGRAM_ORDER);
  CHECK(dr_graph_add_edge(g, &unknown) == DR_NODE_OUT_OF_RANGE);
  const dr_edge ab{a, b, DR_KIND_FLOW, DR_FLAG_WAIT}, ac{a, c, DR_KIND_FLOW, DR_FLAG_WAIT | DR_FLAG_RETAIN};
  CHECK(dr_graph_add_edge(g, &ab) == DR_OK && dr_graph_add_edge(g, &ac) == DR_OK);
  const dr_removed_edge* removed = nullptr;
  std::size_t n = 0;
  CHECK(dr_graph_reduce(g, nullptr, nullptr, &n) == DR_BAD_ARGUMENT);
  CHECK(dr_graph_reduce(g, nullptr, &removed, &n) == DR_OK);
  CHECK(n == 1 && removed[0].src == a && removed[0].dst == c && removed[0].edge == 1 && removed[0].demoted_to_retain);

  // Cleared and refilled: parts added out of (src, dst) order, so `edge` (the
  // pair's first part in add_edge order) differs from the merged pair's index.
  CHECK(dr_graph_clear(g, 65) == DR_ENGINE_OUT_OF_RANGE && dr_graph_clear(g, 0) == DR_OK);
  const dr_node free_node{DR_NO_ENGINE, 0, 0};
  for (int v = 0; v < 4; ++v) CHECK(dr_graph_add_node(g, &free_node, nullptr) == DR_OK);
  const dr_edge parts[] = {{1, 3, 0, DR_FLAG_WAIT}, {2, 3, 0, DR_FLAG_WAIT}, {0, 3, 0, DR_FLAG_WAIT},
                           {0, 1, 0, DR_FLAG_WAIT}, {0, 3, 0, DR_FLAG_WAIT}, {1, 2, 0, DR_FLAG_WAIT}};
  for (const dr_edge& e : parts) CHECK(dr_graph_add_edge(g, &e) == DR_OK);
  for (int round = 0; round < 2; ++round) { // reduced repeatedly: same answer
    CHECK(dr_graph_reduce(g, nullptr, &removed, &n) == DR_OK);
    CHECK(n == 2 && removed[0].src == 0 && removed[0].dst == 3 && removed[0].edge == 2 &&
          removed[1].src == 1 && removed[1].dst == 3 && removed[1].edge == 0 && !removed[1].demoted_to_retain);
  }
  const dr_edge shortcut{0, 2, 0, DR_FLAG_WAIT}; // grown: 0 -> 2 is implied by 0 -> 1 -> 2
  CHECK(dr_graph_add_edge(g, &shortcut) == DR_OK && dr_graph_reduce(g, nullptr, &removed, &n) == DR_OK);
  CHECK(n == 3 && removed[0].src == 0 && removed[0].dst == 2 && removed[0].edge == 6 && removed[1].edge == 2 &&
        removed[2].edge == 0);
  dr_graph_destroy(g);

  dr_window* w = nullptr;
  dr_window_options wo{100, 1, 8, 64, 0, 0};
  CHECK(dr_window_create(&wo, &w) == DR_BAD_ARGUMENT && w == nullptr);
  wo.window_bits = 128;
  CHECK(dr_window_create(&wo, &w) == DR_OK);
  const dr_candidate bad_producer{(std::uint64_t{3} << 32) | 0, 0, DR_FLAG_WAIT, 4};
  std::uint8_t eff[2] = {7, 7};
  CHECK(dr_window_submit(w, 0, 0, &bad_producer, 1, eff, nullptr) == DR_NODE_OUT_OF_RANGE && eff[0] == 7);
  CHECK(dr_window_submit(w, 9, 0, nullptr, 0, nullptr, nullptr) == DR_NODE_OUT_OF_RANGE);
  CHECK(dr_window_submit(w, 0, 0, nullptr, 0, nullptr, nullptr) == DR_OK);
  CHECK(dr_window_submit(w, 0, 0, nullptr, 0, nullptr, nullptr) == DR_BAD_STATE);
  dr_window_destroy(w);

  dr_online* r = nullptr;
  CHECK(dr_online_create(0, nullptr, &r) == DR_OK);
  CHECK(dr_online_add_node(r, &e0, DR_UNKNOWN_SUCCESSORS, &a) == DR_ENGINE_OUT_OF_RANGE);
  dr_node none{DR_NO_ENGINE, 0, 0};
  CHECK(dr_online_add_node(r, &none, DR_UNKNOWN_SUCCESSORS, &a) == DR_OK);
  int implied = 0;
  CHECK(dr_online_implied(r, a, a, 0, &implied) == DR_NOT_PROGRAM_ORDER);
  const dr_in_edge forward{a + 1, 0, DR_FLAG_WAIT};
  CHECK(dr_online_add_edges(r, a, &forward, 1, &removed, &n) == DR_NOT_PROGRAM_ORDER);
  CHECK(dr_online_retire(r, a) == DR_BAD_STATE);
  dr_online_destroy(r);
}
} // namespace

int main() {
  online_errors();
  window_errors<64>();
  window_errors<128>();
  window_errors<256>();
  c_api_errors();
  if (failures) std::fprintf(stderr, "%d check(s) failed\n", failures);
  else std::printf("no_exceptions_test: all checks passed\n");
  return failures ? 1 : 0;
}
