# Sourced by the project's scripts: finds a JDK >= 22 and Maven, and sets JAVA_HOME, MVN, MAVEN_OPTS and
# JLOADGEN_JVM_FLAGS.
# JAVA_HOME is used when it is new enough; otherwise the newest JDK under /usr/lib/jvm (and a few other
# usual places) is taken. Fails with a clear message when there is none.

jlg_java_feature() {
    # Prints the feature version (17, 22, 25...) of the java binary $1, or nothing. Read from the JDK's release
    # file when it has one (no JVM start: the jloadgen launcher sources this on every command), else asked of java.
    local release version
    release="$(dirname "$(dirname "$1")")/release"
    if [ -f "$release" ]; then
        version=$(sed -n 's/^JAVA_VERSION="\(1\.\)\{0,1\}\([0-9][0-9]*\).*/\2/p' "$release" | head -n 1)
        if [ -n "$version" ]; then
            echo "$version"
            return 0
        fi
    fi
    "$1" -XshowSettings:properties -version 2>&1 \
        | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

jlg_find_jdk() {
    local candidate version best="" best_version=0
    if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
        version=$(jlg_java_feature "$JAVA_HOME/bin/java")
        if [ -n "$version" ] && [ "$version" -ge 22 ]; then
            echo "$JAVA_HOME"
            return 0
        fi
    fi
    for candidate in /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/java/*; do
        [ -x "$candidate/bin/javac" ] || continue
        version=$(jlg_java_feature "$candidate/bin/java")
        [ -n "$version" ] || continue
        if [ "$version" -ge 22 ] && [ "$version" -gt "$best_version" ]; then
            best="$candidate"
            best_version="$version"
        fi
    done
    if [ -n "$best" ]; then
        echo "$best"
        return 0
    fi
    return 1
}

if ! JAVA_HOME=$(jlg_find_jdk); then
    echo "error: JLoadGen needs a JDK 22 or newer (javac included)." >&2
    echo "       Looked at JAVA_HOME (${JAVA_HOME:-unset}) and /usr/lib/jvm/*, /opt/java/*, /opt/jdk*." >&2
    echo "       Install one (e.g. Temurin 25) or point JAVA_HOME at it." >&2
    exit 1
fi
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
