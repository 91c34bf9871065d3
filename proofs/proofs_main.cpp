//===- proofs/proofs_main.cpp - Runs every obligation ---------------------===//
///
/// \file
/// `depreduce_proofs [FILTER]`: runs every obligation whose id starts with
/// FILTER (all without one) and prints one line each:
///   proved  <id> <title> (<paths> paths, <queries> queries, <s> s)
///   refuted <id> <title>: counterexample <inputs>   (a teeth variant: expected)
/// Exit code 0 iff every real obligation is proved and every teeth variant
/// is refuted; 1 otherwise; 2 on a Z3 error.
//===----------------------------------------------------------------------===//
#include <chrono>
#include <cstdio>
#include <string>

#include "obligation.hpp"

namespace depreduce::proofs {
std::vector<obligation>& obligations() {
  static std::vector<obligation> all;
  return all;
}
bool add_obligation(obligation o) {
  obligations().push_back(std::move(o));
  return true;
}
} // namespace depreduce::proofs

int main(int argc, char** argv) {
  using namespace depreduce::proofs;
  const std::string filter = argc > 1 ? argv[1] : "";
  int bad = 0, run = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (const obligation& o : obligations()) {
    if (!filter.empty() && o.id.rfind(filter, 0) != 0)
      continue;
    ++run;
    explorer ex;
    const auto start = std::chrono::steady_clock::now();
    std::size_t paths = 0;
    try {
      scoped_explorer scope(ex);
      paths = ex.explore([&] { o.body(ex); });
    } catch (const z3::exception& e) {
      std::printf("error   %-5s %s: Z3: %s\n", o.id.c_str(), o.title.c_str(), e.msg());
      std::fflush(stdout);
      return 2;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const bool refuted = ex.failure().has_value();
    if (refuted) {
      std::printf("refuted %-5s %s: counterexample %s (%.2f s)%s\n", o.id.c_str(), o.title.c_str(),
                  ex.failure()->c_str(), s, o.teeth ? " [teeth: expected]" : " [OBLIGATION FAILS]");
    } else {
      std::printf("proved  %-5s %s (%zu paths, %zu queries, %.2f s)%s\n", o.id.c_str(), o.title.c_str(), paths,
                  ex.queries(), s, o.teeth ? " [TEETH NOT REFUTED]" : "");
    }
    std::fflush(stdout);
    if (refuted == !o.teeth) ++bad;
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%d obligation(s) run, %d wrong, %.1f s\n", run, bad, total);
  return bad == 0 && run > 0 ? 0 : 1;
}
