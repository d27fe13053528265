/**
 * The C library's number parsing and printing as glibc does it ({@code strtoull}, {@code strtod}, {@code %g},
 * {@code %f}): LoadGen reads its config files and writes its logs with them. Below {@code config}, {@code results}
 * and {@code log}, which all need them. Also the OS's reason for a failed file operation, as {@code strerror} words
 * it ({@link org.jloadgen.clib.IoErrors}), for every message about a file that cannot be read or created.
 */
package org.jloadgen.clib;
