#!/usr/bin/env bash
# Regenerates the low layer org.jloadgen.bindings.internal (JlgNative and one class per struct) with jextract,
# where jextract (a build for JDK 22 or newer) is installed: https://jdk.java.net/jextract/
#
#   bindings/jextract.sh                 # jextract on PATH
#   JEXTRACT=/opt/jextract/bin/jextract bindings/jextract.sh
#
# Input: native/src/main/c/include/jlg_native.h with the allow-list src/main/jextract/includes.txt (JlgNative),
# native/src/main/c/include/jlg_cuda.h with src/main/jextract/includes-cuda.txt (JlgCuda), and
# native/src/main/c/include/jlg_bridge.h with src/main/jextract/bridge-includes.txt (JlgBridge, its structs and
# callback typedefs).
# jextract's output is then post-processed the way the hand-written files are shaped:
#   1. symbols come from NativeLibraryLoader (property, build output, jar copy) instead of jextract's lookup;
#   2. functions listed in src/main/jextract/critical.txt get Linker.Option.critical(false), which jextract
#      cannot emit (jvector post-processes its jextract output the same way);
#   3. JlgNative.FUNCTIONS, JlgCuda.FUNCTIONS and JlgBridge.FUNCTIONS list the allow-listed functions
#      (AllowListTest and BridgeAllowListTest check them).
# JlgBridge's symbols come from BridgeLibraryLoader: the bridge library is built per LoadGen source and opened at
# run time.
# The loaders (NativeLibraryLoader, BridgeLibraryLoader) are hand-written and kept. Afterwards run:
# mvn -B -q -pl bindings -am test
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jextract="${JEXTRACT:-jextract}"
if ! command -v "$jextract" >/dev/null 2>&1; then
    echo "error: jextract not found (looked for '$jextract' on PATH; set JEXTRACT=/path/to/bin/jextract)." >&2
    echo "       The checked-in bindings are hand-written in jextract's shape and need no regeneration to build." >&2
    exit 1
fi

package=org.jloadgen.bindings.internal
target="$here/src/main/java/${package//.//}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# generate HEADER INCLUDES CLASS LOOKUP: one header class (and its structs) into $work/CLASS; LOOKUP is the Java
# expression of its symbol lookup.
generate() {
    local header="$1" includes="$2" class="$3" lookup="$4"
    local out="$work/$class"
    "$jextract" --output "$out" --target-package "$package" --header-class-name "$class" @"$includes" "$header"
    local generated="$out/${package//.//}"

    # 1. Symbol lookup through the project's loader; without the library every symbol is unresolved, with its message.
    perl -0pi -e "s/static final SymbolLookup SYMBOL_LOOKUP\s*=[^;]*;/static final SymbolLookup SYMBOL_LOOKUP = $lookup;/s" \
        "$generated/$class.java"

    # 2. Critical downcalls (libjlg_native only: a kernel launch may wait for room in the launch queue).
    if [ "$class" = JlgNative ]; then
        while read -r function; do
            [ -n "$function" ] || continue
            before="$(grep -c 'critical(false)' "$generated/$class.java" || true)"
            perl -0pi -e "s/(class \Q$function\E \{.*?downcallHandle\(\s*ADDR,\s*DESC)\)/\$1, Linker.Option.critical(false))/s" \
                "$generated/$class.java"
            after="$(grep -c 'critical(false)' "$generated/$class.java" || true)"
            [ "$after" -gt "$before" ] || { echo "error: no downcall handle found for $function" >&2; exit 1; }
        done < "$here/src/main/jextract/critical.txt"
    fi

    # 3. The allow-list as a constant.
    names="$(sed -n 's/^--include-function[[:space:]]\+\([A-Za-z0-9_]\+\).*/"\1"/p' "$includes" | paste -sd, -)"
    perl -0pi -e "s/(public (?:final )?class $class\b[^{]*\{)/\$1\n    public static final java.util.List<String> FUNCTIONS = java.util.List.of($names);\n/" \
        "$generated/$class.java"
    cp "$generated"/*.java "$work/all/"
}

mkdir -p "$work/all"
loader_lookup() {
    echo "NativeLibraryLoader.$1().isLoaded()\\n        ? NativeLibraryLoader.$1().lookup() : name -> java.util.Optional.empty()"
}
generate "$here/../native/src/main/c/include/jlg_native.h" "$here/src/main/jextract/includes.txt" JlgNative \
    "$(loader_lookup result)"
generate "$here/../native/src/main/c/include/jlg_cuda.h" "$here/src/main/jextract/includes-cuda.txt" JlgCuda \
    "$(loader_lookup cudaResult)"
generate "$here/../native/src/main/c/include/jlg_bridge.h" "$here/src/main/jextract/bridge-includes.txt" JlgBridge \
    "BridgeLibraryLoader::find"

find "$target" -maxdepth 1 -name '*.java' ! -name NativeLibraryLoader.java ! -name BridgeLibraryLoader.java -delete
cp "$work/all"/*.java "$target"/
echo "regenerated $(ls "$work/all" | wc -l) files into $target; now run: mvn -B -q -pl bindings -am test"
