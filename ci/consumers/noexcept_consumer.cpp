// A C++ consumer built as compilers and runtimes often are, with
// -fno-exceptions -fno-rtti: a 3-instruction, 2-engine graph built from
// scratch and reduced exactly through the online reducer (one node at a time,
// the same removed edges as reduce()), an implied() query, and a window
// reducer's Status form of submit_flags. Errors come back as Status values.
//
//   a: engine 0    b: engine 1    c: engine 0 (after a: a completes before c)
//   a -> b flow,   b -> c flow,   a -> c flow   => a -> c is redundant
#include <cstdio>
#include <vector>

#include <depreduce/online_reduction.hpp>
#include <depreduce/window_reducer.hpp>

#define EXPECT(cond)                                                                \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::fprintf(stderr, "noexcept_consumer: %s failed (line %d)\n", #cond, __LINE__); \
      return 1;                                                                     \
    }                                                                               \
  } while (0)

int main() {
  using namespace depreduce;
  OnlineReducer r;
  EXPECT(r.reset({.num_engines = 2}).ok());
  NodeId a = 0, b = 0, c = 0;
  std::vector<RemovedEdge> removed;
  EXPECT(r.add_node({.engine = 0}, &a).ok() && r.add_edges(a, {}, removed).ok());
  EXPECT(r.add_node({.engine = 1}, &b).ok());
  const std::vector<OnlineEdge> into_b{{a, Kind::Flow}};
  EXPECT(r.add_edges(b, into_b, removed).ok() && removed.empty());
  EXPECT(r.add_node({.engine = 0}, &c).ok());
  bool implied = false;
  EXPECT(r.implied(a, c, Kind::Flow, &implied).ok() && implied); // engine 0: a completes before c
  const std::vector<OnlineEdge> into_c{{b, Kind::Flow}, {a, Kind::Flow}};
  EXPECT(r.add_edges(c, into_c, removed).ok());
  EXPECT(removed.size() == 1 && removed[0].src == a && removed[0].dst == c && removed[0].edge == 1);
  const Status bad = r.add_edges(c, into_c, removed); // c is finished: an error value, not a throw
  EXPECT(bad.code() == ErrorCode::BadState);

  WindowOptions options;
  options.rings = 1;
  options.slots_per_ring = 8;
  EXPECT(check_window_options(options).ok());
  window_reducer<128> w(options);
  FlagSet effective[2];
  std::size_t lost = 0;
  EXPECT(w.try_submit_flags(make_task_id(0, 0), 0, {}, effective, &lost).ok());
  const std::vector<Candidate> on_a{{make_task_id(0, 0), 0}};
  EXPECT(w.try_submit_flags(make_task_id(0, 1), 0, on_a, effective, &lost).ok());
  const std::vector<Candidate> on_a_b{{make_task_id(0, 0), 0}, {make_task_id(0, 1), 0}};
  EXPECT(w.try_submit_flags(make_task_id(0, 2), 0, on_a_b, effective, &lost).ok());
  EXPECT(lost == 1 && effective[0].empty() && effective[1] == FlagSet::wait());
  EXPECT(w.try_submit_flags(make_task_id(3, 0), 0, {}, effective, &lost).code() == ErrorCode::NodeOutOfRange);
  std::printf("noexcept_consumer: online and window reductions as expected\n");
  return 0;
}
