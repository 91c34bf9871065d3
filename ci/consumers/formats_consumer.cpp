// A runtime vendoring depreduce::formats: load a DOT graph without Graphviz,
// reduce it, write it back.
#include <cstdio>
#include <string>

#include <depreduce/formats/formats.hpp>
#include <depreduce/transitive_reduction.hpp>

int main() {
  using namespace depreduce;
  const std::string text = "digraph g {\n  a -> b [kind=flow];\n  b -> c [kind=flow];\n  a:out -> c [kind=flow];\n}\n";
  try {
    Graph g = make_program_order(formats::read_dot(text, "g.dot"));
    Reduction r = reduce(g);
    std::string out = formats::write_dot(apply(g, r));
    std::printf("%s", out.c_str());
    formats::read_dot("digraph { a -> }", "bad.dot"); // throws InputError "bad.dot:1: syntax error near '}'"
  } catch (const InputError& e) {
    std::printf("rejected: %s\n", e.what());
    return std::string(e.what()).find("bad.dot:1:") == std::string::npos;
  }
  return 1;
}
