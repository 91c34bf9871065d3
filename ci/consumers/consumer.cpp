// A compiler pass vendoring depreduce: reduce the diamond a->b->c + a->c.
#include <cstdio>

#include <depreduce/graph.hpp>
#include <depreduce/transitive_reduction.hpp>

int main() {
  using namespace depreduce;
  Graph g = graph_from_edges(3, {{0, 1}, {1, 2}, {0, 2}});
  Reduction r = reduce(g);
  std::printf("kept %zu, removed %zu\n", r.edges.size(), r.removed.size());
  return (r.edges.size() == 2 && r.removed.size() == 1) ? 0 : 1;
}
