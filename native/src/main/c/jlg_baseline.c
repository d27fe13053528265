/*
 * The same trivial function exported twice, for an FFM-versus-JNI call-overhead benchmark:
 * a plain C symbol for java.lang.foreign and a JNI symbol for org.jloadgen.bindings.JniBaseline.
 */
#include "jlg_native.h"

#include <jni.h>

/* The declaration `javac -h` would generate for org.jloadgen.bindings.JniBaseline. */
JNIEXPORT jlong JNICALL Java_org_jloadgen_bindings_JniBaseline_increment(JNIEnv *env, jclass type, jlong value);

int64_t jlg_baseline_increment(const int64_t value)
{
    return value + 1;
}

JNIEXPORT jlong JNICALL Java_org_jloadgen_bindings_JniBaseline_increment(JNIEnv *env, jclass type, jlong value)
{
    (void)env;
    (void)type;
    return (jlong)jlg_baseline_increment((int64_t)value);
}
