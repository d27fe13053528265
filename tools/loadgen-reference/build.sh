#!/usr/bin/env bash
# Builds the C++ reference trace generator into tools/loadgen-reference/target/trace_reference.
# Needs g++ (C++17) with libstdc++ and glibc: those define the random sequences it reproduces. No -march or
# -ffast-math: the build must use the same library algorithms the official LoadGen wheels do.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$here/target"
g++ -O2 -std=c++17 -Wall -Wextra -Werror -o "$here/target/trace_reference" "$here/trace_reference.cc"
echo "$here/target/trace_reference"
