/*
 * Prints the size, alignment and field offsets of every struct the Java bindings describe, so a test can
 * compare them with the MemoryLayouts in org.jloadgen.bindings.internal (those of jlg_native.h and jlg_bridge.h).
 * One line each:
 *   struct <name> <sizeof> <alignof>
 *   field <struct name> <field> <offsetof> <sizeof>
 * Add lines here for each struct added there.
 */
#include "jlg_bridge.h"
#include "jlg_native.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>

#define STRUCT(type, name) printf("struct %s %zu %zu\n", name, sizeof(type), alignof(type))
#define FIELD(type, name, field) \
    printf("field %s %s %zu %zu\n", name, #field, offsetof(type, field), sizeof(((type *)0)->field))

int main(void)
{
    STRUCT(struct rlimit, "rlimit");
    FIELD(struct rlimit, "rlimit", rlim_cur);
    FIELD(struct rlimit, "rlimit", rlim_max);
    STRUCT(jlg_cpu_node, "jlg_cpu_node");
    FIELD(jlg_cpu_node, "jlg_cpu_node", cpu);
    FIELD(jlg_cpu_node, "jlg_cpu_node", node);
    STRUCT(jlg_query_sample, "jlg_query_sample");
    FIELD(jlg_query_sample, "jlg_query_sample", id);
    FIELD(jlg_query_sample, "jlg_query_sample", index);
    STRUCT(jlg_query_sample_response, "jlg_query_sample_response");
    FIELD(jlg_query_sample_response, "jlg_query_sample_response", id);
    FIELD(jlg_query_sample_response, "jlg_query_sample_response", data);
    FIELD(jlg_query_sample_response, "jlg_query_sample_response", size);
    FIELD(jlg_query_sample_response, "jlg_query_sample_response", n_tokens);
    STRUCT(jlg_bridge_progress, "jlg_bridge_progress");
    FIELD(jlg_bridge_progress, "jlg_bridge_progress", issued);
    FIELD(jlg_bridge_progress, "jlg_bridge_progress", completed);
    FIELD(jlg_bridge_progress, "jlg_bridge_progress", outstanding);
    FIELD(jlg_bridge_progress, "jlg_bridge_progress", duplicates);
    FIELD(jlg_bridge_progress, "jlg_bridge_progress", unknown);
    FIELD(jlg_bridge_progress, "jlg_bridge_progress", dropped);
    FIELD(jlg_bridge_progress, "jlg_bridge_progress", drained);
    FIELD(jlg_bridge_progress, "jlg_bridge_progress", failed);
    FIELD(jlg_bridge_progress, "jlg_bridge_progress", running);
    return 0;
}
