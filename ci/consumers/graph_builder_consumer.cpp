// A compiler's scheduler vendoring depreduce (docs/vendoring.md, "By id, in
// program order"): three instructions on two engines built from scratch with
// GraphBuilder and reduced with a Reducer; no names, no exceptions on this path.
#include <cstdio>

#include <depreduce/graph_builder.hpp>
#include <depreduce/reducer.hpp>

int main() {
  using namespace depreduce;
  GraphBuilder b;
  b.clear(/*num_engines=*/2);
  const NodeId load = b.add_node({.engine = 0});                     // DMA engine
  const NodeId mul = b.add_node({.engine = 1, .async_window = 1});   // PE engine, async
  const NodeId store = b.add_node({.engine = 0});                    // DMA engine
  b.add_edge(load, mul, Kind::Flow);
  b.add_edge(mul, store, Kind::Flow);
  b.add_edge(load, store, Kind::Output); // load completes before store: engine 0 is in order, load synchronous

  Reducer reducer; // keep it: its scratch memory serves the next region
  Reduction red;
  if (Status s = reducer.reduce(b, red); !s.ok()) {
    std::fprintf(stderr, "depreduce: %s (%s, index %llu)\n", s.message().c_str(), error_code_name(s.code()),
                 static_cast<unsigned long long>(s.index()));
    return 1;
  }
  for (const RemovedEdge& e : red.removed) std::printf("redundant: %u -> %u\n", e.src, e.dst);
  const bool reduced = red.removed.size() == 1 && red.removed[0].src == load && red.removed[0].dst == store;

  // A bad id comes back as a value, naming the edge.
  b.add_edge(store, 7);
  const Status bad = reducer.reduce(b, red);
  std::printf("bad edge: %s\n", bad.message().c_str());
  return reduced && bad.code() == ErrorCode::NodeOutOfRange && bad.index() == 3 ? 0 : 1;
}
