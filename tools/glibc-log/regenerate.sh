#!/usr/bin/env bash
# Regenerates, from the installed glibc (Debian 12: glibc 2.36, x86-64):
#   engine/src/main/java/org/jloadgen/random/GlibcLogData.java   the tables of glibc's log
#   engine/src/test/resources/glibc-log/log-digests.txt           digests of log over 14.5M inputs, both builds
#   engine/src/test/resources/glibc-log/log-specials.txt          edge inputs: x, fma result, sse2 result
#   engine/src/test/resources/glibc-log/log-variant-differences.txt
#       the inputs among the first 2M exponential-class inputs where glibc's two builds differ
# x86-64 glibc picks its log at run time: an FMA build on CPUs with FMA and AVX2, an SSE2 build otherwise.
# The machine running this must have FMA and AVX2; GLIBC_TUNABLES switches the same process to the SSE2 build.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="$here/target"
res="$root/engine/src/test/resources/glibc-log"
mkdir -p "$bin" "$res"
gcc -O2 -std=c11 -Wall -Wextra -Werror -o "$bin/dump_log_data" "$here/dump_log_data.c" -lm -ldl
g++ -O2 -std=c++17 -Wall -Wextra -Werror -o "$bin/log_fixture" "$here/log_fixture.cc"

sse2() { GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA,-AVX2 "$@"; }

"$bin/dump_log_data" > "$root/engine/src/main/java/org/jloadgen/random/GlibcLogData.java"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$bin/log_fixture" digests > "$tmp/fma"
sse2 "$bin/log_fixture" digests > "$tmp/sse2"
if ! grep -q '^fma ' "$tmp/fma" || ! grep -q '^sse2 ' "$tmp/sse2"; then
    echo "regenerate: expected glibc's FMA log by default and its SSE2 log under GLIBC_TUNABLES;" >&2
    echo "            got: $(awk '{print $1}' "$tmp/fma" | head -1) / $(awk '{print $1}' "$tmp/sse2" | head -1)" >&2
    exit 1
fi
{
    echo "# glibc log digests: written by tools/glibc-log/regenerate.sh (log_fixture digests), do not edit."
    echo "# $(ldd --version | head -1), $(uname -m)"
    echo "# variant class count seed fnv1a64"
    cat "$tmp/fma" "$tmp/sse2"
} > "$res/log-digests.txt"

"$bin/log_fixture" specials > "$tmp/s-fma"
sse2 "$bin/log_fixture" specials > "$tmp/s-sse2"
{
    echo "# glibc log on edge inputs: written by tools/glibc-log/regenerate.sh, do not edit."
    echo "# x fma-build-log(x) sse2-build-log(x), IEEE-754 bits in hex, NaN written as 7ff8000000000000"
    paste -d ' ' "$tmp/s-fma" <(awk '{print $2}' "$tmp/s-sse2")
} > "$res/log-specials.txt"

"$bin/log_fixture" values 2000000 > "$tmp/v-fma"
sse2 "$bin/log_fixture" values 2000000 > "$tmp/v-sse2"
{
    echo "# Inputs among the first 2,000,000 of the exponential class (1 - generate_canonical of"
    echo "# mt19937(16159082839903944936)) where glibc's FMA and SSE2 builds of log differ."
    echo "# Written by tools/glibc-log/regenerate.sh, do not edit. x fma-build-log(x) sse2-build-log(x), hex bits."
    paste -d ' ' "$tmp/v-fma" <(awk '{print $2}' "$tmp/v-sse2") | awk '$2 != $3'
} > "$res/log-variant-differences.txt"
echo "wrote GlibcLogData.java and $(ls "$res" | wc -l) fixtures in $res"
