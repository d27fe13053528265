/*
 * Prints the size, alignment and field offsets of every struct the Java bindings describe, so a test can
 * compare them with the MemoryLayouts in org.jloadgen.bindings.internal. One line each:
 *   struct <name> <sizeof> <alignof>
 *   field <struct name> <field> <offsetof> <sizeof>
 * Add lines here for each struct added there.
 */
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
    return 0;
}
