#!/usr/bin/env bash
# Regenerates engine/src/test/resources/glibc-lgamma/lgamma-fixture.txt from the installed glibc (Debian 12:
# glibc 2.36, x86-64 with FMA and AVX2, whose lgamma calls the FMA build of log). The integers listed are those
# where a correctly rounded log made lgamma differ from glibc's (GlibcMath before it used GlibcLog).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mkdir -p "$here/target" "$root/engine/src/test/resources/glibc-lgamma"
gcc -O2 -std=c11 -Wall -Wextra -Werror -o "$here/target/lgamma_fixture" "$here/lgamma_fixture.c" -lm
{
    echo "# glibc lgamma fixture: written by tools/glibc-lgamma/regenerate.sh, do not edit."
    echo "# $(ldd --version | head -1), $(uname -m)"
    "$here/target/lgamma_fixture" 9170 136837 141614 571402 5159332 50009493 50010312 50014371 \
        60011224 60019709 60091581 63905881 71000000 123456789
} > "$root/engine/src/test/resources/glibc-lgamma/lgamma-fixture.txt"
