//===- implementations.cpp - The twins behind one interface ------------===//
#include "depreduce/testing/implementations.hpp"

#include "depreduce/reference/transitive_reduction.hpp"

namespace depreduce::testing {

namespace {
std::vector<ReductionImpl>& registry() {
  static std::vector<ReductionImpl> impls = {
      {"optimized", &depreduce::reduce, &depreduce::find_witness},
      {"reference", &depreduce::reference::reduce, &depreduce::reference::find_witness},
  };
  return impls;
}
} // namespace

const std::vector<ReductionImpl>& reduction_impls() { return registry(); }

bool register_reduction_impl(ReductionImpl impl) {
  registry().push_back(std::move(impl));
  return true;
}
const ReductionImpl& optimized_reduction() { return reduction_impls()[0]; }
const ReductionImpl& reference_reduction() { return reduction_impls()[1]; }

} // namespace depreduce::testing
