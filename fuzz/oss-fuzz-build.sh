#!/usr/bin/env bash
# Builds every fuzz target the OSS-Fuzz / ClusterFuzzLite way (docs/fuzzing.md,
# "In your CI"): compiler and flags from $CC $CXX $CFLAGS $CXXFLAGS, fuzzing
# engine from $LIB_FUZZING_ENGINE, build tree in $WORK, results in $OUT:
#   <target>                  one per line of the build's fuzzers.txt (the CMake list)
#   <target>_seed_corpus.zip  corpus/<target>/ (and corpus/regressions/<target>/)
#   <target>.dict             fuzz/<target>.dict, for the text parsers
#   <target>.options          fuzz/<target>.options ([libfuzzer] max_len, with its reason)
#   lib/                      the shared libraries the targets need beyond glibc and
#                             libstdc++ (the runner image has neither Graphviz nor
#                             CRoaring); the targets find them through RUNPATH $ORIGIN/lib
# DEPREDUCE_CMAKE_ARGS adds CMake arguments, e.g. your adapter:
#   -DDEPREDUCE_EXTRA_FUZZ_SOURCES=/src/mine/adapter.cpp (docs/testing.md).
# .clusterfuzzlite/build.sh calls it; ci/oss-fuzz-check runs it in .ci/run.
set -euo pipefail
: "${CC:?set CC}" "${CXX:?set CXX}" "${OUT:?set OUT}" "${LIB_FUZZING_ENGINE:?set LIB_FUZZING_ENGINE}"
src=$(cd "$(dirname "$0")/.." && pwd)
build=${WORK:-$src/build-oss-fuzz}/depreduce
mkdir -p "$build" "$OUT"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
extra=()
[ -n "${DEPREDUCE_CMAKE_ARGS:-}" ] && read -r -a extra <<< "$DEPREDUCE_CMAKE_ARGS"

# Build type None: optimisation, debug info and sanitizers come from the flags
# alone, and assert() stays on.
cmake -S "$src" -B "$build" "${generator[@]}" \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="${CFLAGS:-}" -DCMAKE_CXX_FLAGS="${CXXFLAGS:-}" -DCMAKE_BUILD_TYPE=None \
  -DDEPREDUCE_BUILD_TOOLS=OFF -DDEPREDUCE_BUILD_TESTS=OFF -DDEPREDUCE_BUILD_BENCH=OFF \
  -DDEPREDUCE_INSTALL=OFF -DDEPREDUCE_BUILD_FUZZERS=ON -DDEPREDUCE_LIBFUZZER=OFF -DDEPREDUCE_SANITIZE=OFF \
  -DDEPREDUCE_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" -DCMAKE_BUILD_RPATH='$ORIGIN/lib' \
  "${extra[@]}"
mapfile -t targets < "$build/fuzzers.txt"
cmake --build "$build" -j "${JOBS:-$(nproc)}" --target "${targets[@]}"

mkdir -p "$OUT/lib"
for t in "${targets[@]}"; do
  cp "$build/fuzz/$t" "$OUT/$t"
  rm -f "$OUT/${t}_seed_corpus.zip"
  seeds=()
  for d in "$src/corpus/$t" "$src/corpus/regressions/$t"; do
    [ -d "$d" ] && seeds+=("$d")
  done
  if [ ${#seeds[@]} -gt 0 ]; then
    # -j: flat names (they are sha1s or regress-*; the two folders do not collide).
    find "${seeds[@]}" -type f -print0 | xargs -0 zip -q -j "$OUT/${t}_seed_corpus.zip"
  fi
  for ext in dict options; do
    if [ -f "$src/fuzz/$t.$ext" ]; then cp "$src/fuzz/$t.$ext" "$OUT/$t.$ext"; else rm -f "$OUT/$t.$ext"; fi
  done
  # Bundle what the runner image lacks: every resolved library but the C and
  # C++ runtimes (from the build tree's binary: the copy in $OUT already
  # resolves through $OUT/lib once an earlier target filled it).
  ldd "$build/fuzz/$t" | awk '$3 ~ /^\// {print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|ld-linux*|libgcc_s.so*|libstdc++.so*|libc++*|libc++abi*) ;;
      *) [ "$(dirname "$(readlink -f "$lib")")" = "$(readlink -f "$OUT/lib")" ] || cp -L "$lib" "$OUT/lib/" ;;
    esac
  done
done
echo "oss-fuzz-build: ${#targets[@]} targets in $OUT: ${targets[*]}"
