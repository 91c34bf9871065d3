//===- props/main.cpp - depreduce_props entry point ----------------------===//
///
/// Runs the RapidCheck properties through GoogleTest.
///   depreduce_props                      run every property
///   depreduce_props --list               list the properties, one per line
///   depreduce_props --gtest_filter=Window*   run some
/// RapidCheck reads RC_PARAMS, e.g. RC_PARAMS="seed=42 max_success=10000 max_size=200";
/// a failure prints a `reproduce=...` string to pass back in RC_PARAMS.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstring>
#include <iostream>

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--list") == 0) {
      ::testing::InitGoogleTest(&argc, argv);
      const auto* unit = ::testing::UnitTest::GetInstance();
      for (int s = 0; s < unit->total_test_suite_count(); ++s) {
        const auto* suite = unit->GetTestSuite(s);
        for (int t = 0; t < suite->total_test_count(); ++t)
          std::cout << suite->name() << "." << suite->GetTestInfo(t)->name() << "\n";
      }
      return 0;
    }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
