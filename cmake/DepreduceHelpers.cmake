# Helpers shared by every folder. Keep target definitions short and uniform.

# Warnings for our own code only.
add_library(depreduce_warnings INTERFACE)
# Every target of ours is C++20, also those that link no library of ours
# (clang-14 defaults to C++14).
target_compile_features(depreduce_warnings INTERFACE cxx_std_20)
target_compile_options(depreduce_warnings INTERFACE -Wall -Wextra $<$<BOOL:${DEPREDUCE_WERROR}>:-Werror>)

# depreduce_add_test(<name> SOURCES ... [LIBS ...] [LABELS ...])
# One GoogleTest executable per test file, registered with CTest under <name>.
function(depreduce_add_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main depreduce_warnings)
  target_compile_features(${name} PRIVATE cxx_std_20)
  add_test(NAME ${name} COMMAND ${name} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}"
    ENVIRONMENT "DEPREDUCE_SOURCE_DIR=${PROJECT_SOURCE_DIR};DEPREDUCE_CLI=$<TARGET_FILE:depreduce_cli>")
endfunction()

# depreduce_add_fuzzer(<name> SOURCES ... [LIBS ...])
# Builds fuzz target <name>. With DEPREDUCE_FUZZ_ENGINE (OSS-Fuzz's
# $LIB_FUZZING_ENGINE, fuzz/oss-fuzz-build.sh) it links that engine; with
# DEPREDUCE_LIBFUZZER, libFuzzer; otherwise fuzz/replay_main.cpp, so any
# compiler can replay corpus/<name>/ (and corpus/regressions/<name>/ if
# present). Either way CTest replays them as <name>_replay. Targets that link
# depreduce_testing (the differential ones) also get
# DEPREDUCE_EXTRA_FUZZ_SOURCES and DEPREDUCE_EXTRA_FUZZ_LIBS: a team's adapter
# registering its implementation (docs/testing.md).
function(depreduce_add_fuzzer name)
  cmake_parse_arguments(F "" "" "SOURCES;LIBS" ${ARGN})
  if(DEPREDUCE_FUZZ_ENGINE)
    add_executable(${name} ${F_SOURCES})
    separate_arguments(engine UNIX_COMMAND "${DEPREDUCE_FUZZ_ENGINE}")
    target_link_libraries(${name} PRIVATE ${engine})
  elseif(DEPREDUCE_LIBFUZZER)
    add_executable(${name} ${F_SOURCES})
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  else()
    add_executable(${name} ${F_SOURCES} ${PROJECT_SOURCE_DIR}/fuzz/replay_main.cpp)
  endif()
  if(depreduce_testing IN_LIST F_LIBS)
    target_sources(${name} PRIVATE ${DEPREDUCE_EXTRA_FUZZ_SOURCES})
    target_link_libraries(${name} PRIVATE ${DEPREDUCE_EXTRA_FUZZ_LIBS})
  endif()
  target_link_libraries(${name} PRIVATE ${F_LIBS} depreduce_warnings)
  target_compile_features(${name} PRIVATE cxx_std_20)
  set_property(GLOBAL APPEND PROPERTY DEPREDUCE_FUZZERS ${name})
  set(dirs ${PROJECT_SOURCE_DIR}/corpus/${name})
  if(EXISTS ${PROJECT_SOURCE_DIR}/corpus/regressions/${name})
    list(APPEND dirs ${PROJECT_SOURCE_DIR}/corpus/regressions/${name})
  endif()
  if(DEPREDUCE_LIBFUZZER OR DEPREDUCE_FUZZ_ENGINE)
    # -runs=0: execute every corpus input once, then stop (no fuzzing).
    add_test(NAME ${name}_replay COMMAND ${name} -runs=0 ${dirs})
  else()
    add_test(NAME ${name}_replay COMMAND ${name} ${dirs})
  endif()
  set_tests_properties(${name}_replay PROPERTIES LABELS "fuzz-replay")
endfunction()
