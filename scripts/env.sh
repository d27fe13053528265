# Sourced by the project's scripts: finds a JDK >= 22 and Maven, and sets JAVA_HOME, MVN, MAVEN_OPTS and
# JLOADGEN_JVM_FLAGS.
# JAVA_HOME is used when it is new enough; otherwise the newest JDK under /usr/lib/jvm (and a few other
# usual places) is taken. Fails with a clear message when there is none.

# These run on every jloadgen command, so they use shell builtins only: a fork costs 3-9 ms on the project's 2-CPU VM,
# and the launcher's forks took 0.25 s of a 0.7 s `jloadgen --version` (benchmarks/README.md).

jlg_release_value() {
    # Sets jlg_value to the value of key $2 in the JDK release file $1 (quotes removed), or to nothing.
    local line
    jlg_value=""
    [ -f "$1" ] || return 0
    while IFS= read -r line || [ -n "$line" ]; do
        case "$line" in
            "$2="*)
                line="${line#"$2"=}"
                line="${line#\"}"
                jlg_value="${line%\"}"
                return 0
                ;;
        esac
    done < "$1"
}

jlg_java_feature_of() {
    # Sets jlg_feature to the feature version (17, 22, 25...) of the java binary $1, or to nothing. Read from the
    # JDK's release file when it has one (no JVM start), else asked of java.
    local home="${1%/*}"
    home="${home%/*}"
    jlg_release_value "$home/release" JAVA_VERSION
    jlg_value="${jlg_value#1.}"
    jlg_feature="${jlg_value%%[!0-9]*}"
    if [ -z "$jlg_feature" ]; then
        jlg_feature=$("$1" -XshowSettings:properties -version 2>&1 \
            | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1)
    fi
}

jlg_find_jdk() {
    # Sets jlg_jdk to JAVA_HOME if it is a JDK >= 22, else to the newest such JDK in the usual places; fails if none.
    local candidate best="" best_version=0
    if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
        jlg_java_feature_of "$JAVA_HOME/bin/java"
        if [ -n "$jlg_feature" ] && [ "$jlg_feature" -ge 22 ]; then
            jlg_jdk="$JAVA_HOME"
            return 0
        fi
    fi
    for candidate in /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/java/*; do
        [ -x "$candidate/bin/javac" ] || continue
        jlg_java_feature_of "$candidate/bin/java"
        [ -n "$jlg_feature" ] || continue
        if [ "$jlg_feature" -ge 22 ] && [ "$jlg_feature" -gt "$best_version" ]; then
            best="$candidate"
            best_version="$jlg_feature"
        fi
    done
    jlg_jdk="$best"
    [ -n "$best" ]
}

if ! jlg_find_jdk; then
    echo "error: JLoadGen needs a JDK 22 or newer (javac included)." >&2
    echo "       Looked at JAVA_HOME (${JAVA_HOME:-unset}) and /usr/lib/jvm/*, /opt/java/*, /opt/jdk*." >&2
    echo "       Install one (e.g. Temurin 25) or point JAVA_HOME at it." >&2
    exit 1
fi
JAVA_HOME="$jlg_jdk"
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"

if command -v mvn >/dev/null 2>&1; then
    MVN=mvn
else
    echo "error: Maven (mvn) is not on PATH; install it (Debian: apt-get install maven)." >&2
    exit 1
fi
# Maven 3.8's bundled Guava calls sun.misc.Unsafe; keep JDK 24+ from warning about it on every run.
case " ${MAVEN_OPTS:-} " in
    *sun-misc-unsafe-memory-access*) ;;
    *) export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;;
esac
export MVN

# The flags every JLoadGen JVM needs (FFM downcalls; Agrona 2 reaches jdk.internal.misc), for the launcher and the
# scripts: "$JAVA_HOME/bin/java" $JLOADGEN_JVM_FLAGS ... (unquoted). The same flags are
# org.jloadgen.bindings.JvmFlags.REQUIRED for Java code and jloadgen.nativeAccess in the root POM for Maven;
# JvmFlagsTest (module bindings) keeps the three equal.
JLOADGEN_JVM_FLAGS="--enable-native-access=ALL-UNNAMED --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED"
export JLOADGEN_JVM_FLAGS
