#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz entry point: everything is in the in-repo script,
# which .ci/run exercises (ci/oss-fuzz-check) so that it cannot rot.
#
# The base image compiles C++ with -stdlib=libc++, but the system C++ libraries
# we link (pugixml, via formats/) are built against libstdc++: drop the flag.
# (MemorySanitizer, which needs every library rebuilt, is not offered.)
export CXXFLAGS="${CXXFLAGS//-stdlib=libc++/}"
"$SRC/depreduce/fuzz/oss-fuzz-build.sh"
